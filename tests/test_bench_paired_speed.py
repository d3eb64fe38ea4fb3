"""The paired timing bench reads each frame with both recognizers in turn and reports their medians;
checked on a counting clock, never on the machine's."""

from bench.paired_speed import paired_round


class Ticks:
    """A clock the fake recognizers advance: each read costs its recognizer a fixed number of ms."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class FakeRecognizer:
    def __init__(self, name, ticks, costs, log):
        self.name, self.ticks, self.costs, self.log = name, ticks, costs, log

    def recognize(self, frame):
        self.log.append((self.name, frame))
        self.ticks.now += self.costs[frame] / 1000.0
        return []


def test_each_frame_is_read_by_both_in_turn_and_the_medians_are_of_the_pairs():
    ticks, log = Ticks(), []
    committed = FakeRecognizer("committed", ticks, {0: 10.0, 1: 30.0, 2: 20.0}, log)
    candidate = FakeRecognizer("candidate", ticks, {0: 9.0, 1: 25.0, 2: 21.0}, log)
    old, new, saved = paired_round(committed, candidate, [0, 1, 2], clock=ticks)
    assert log == [("committed", 0), ("candidate", 0), ("committed", 1), ("candidate", 1),
                   ("committed", 2), ("candidate", 2)]
    assert round(old, 6) == 20.0 and round(new, 6) == 21.0
    assert round(saved, 6) == 1.0  # differences 1, 5, -1: their median, not the medians' difference
