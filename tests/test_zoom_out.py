"""Large cards (a camera close to the table, a phone photo of one card): found in the shrunk frame,
read once, with their whole outline."""

import numpy as np
import pytest

from bench.bench_vision import score_reads
from sim.render.scenes import make_scene
from vision.finder import Candidate
from vision.recognizer import Recognizer
from vision.zoom_out import SHRINKS, ZoomingOutFinder, on_canvas, worth_a_wider_look


def test_the_canvas_holds_the_shrunk_frame_on_the_tables_colour():
    frame = np.full((100, 200, 3), (10, 20, 30), np.uint8)
    frame[40:60, 90:110] = 255
    canvas, offset = on_canvas(frame, 0.5)
    assert canvas.shape == frame.shape and tuple(offset) == (50, 25)
    assert tuple(canvas[0, 0]) == (10, 20, 30) and tuple(canvas[50, 100]) == (255, 255, 255)


class ScriptedFinder:
    """Answers the frame with `first` and the canvas with one card-sized outline at its middle."""

    def __init__(self, first):
        self.first, self.calls = first, 0

    def __call__(self, image):
        self.calls += 1
        if self.calls == 1:
            return self.first
        h, w = image.shape[:2]
        quad = np.float32([[w / 2 - 20, h / 2 - 30], [w / 2 + 20, h / 2 - 30], [w / 2 + 20, h / 2 + 30], [w / 2 - 20, h / 2 + 30]])
        return [Candidate((quad,))]


def test_outlines_found_on_the_canvas_come_back_in_the_frames_pixels():
    image = np.zeros((400, 600, 3), np.uint8)
    found = ZoomingOutFinder(ScriptedFinder([]), shrinks=(0.5,))(image)
    assert len(found) == 1
    assert np.allclose(found[0].quad, [[260, 140], [340, 140], [340, 260], [260, 260]])


def test_a_frame_with_a_card_of_the_usual_size_is_looked_at_once():
    usual = Candidate((np.float32([[10, 10], [60, 10], [60, 82], [10, 82]]),))
    finder = ScriptedFinder([usual])
    (found,) = ZoomingOutFinder(finder)(np.zeros((400, 600, 3), np.uint8))
    assert np.array_equal(found.quad, usual.quad) and finder.calls == 1


def test_a_phones_photo_is_looked_at_shrunk_and_its_outlines_come_back_at_full_size():
    usual = Candidate((np.float32([[10, 10], [60, 10], [60, 82], [10, 82]]),))
    finder = ScriptedFinder([usual])
    seen = []
    (found,) = ZoomingOutFinder(lambda view: seen.append(view.shape) or finder(view))(np.zeros((4032, 3024, 3), np.uint8))
    assert seen == [(1280, 960, 3)]
    assert np.allclose(found.quad, usual.quad * 4032 / 1280)


@pytest.fixture(scope="module")
def recognizer():
    return Recognizer()


@pytest.mark.parametrize("deck", ["xskat-french-large", "penguins"])
def test_cards_two_thirds_of_the_frame_high_are_read_once(recognizer, deck):
    rng = np.random.default_rng(11)
    right = reports = cards = 0
    for _ in range(4):
        scene = make_scene(rng, "separate", deck, size=(1024, 768), card_share=(0.6, 0.75))
        found = recognizer.recognize(scene.image)
        verdicts, extra = score_reads(scene, found)
        assert [v for v in verdicts if v[1] == "wrong"] == [] and extra == []
        right += sum(v == "right" for _, v, _ in verdicts)
        cards += len(verdicts)
        reports += len(found)
    assert right >= cards - 1 and reports <= cards


def test_a_calibrated_card_length_picks_the_one_view_looked_at():
    seen = []
    usual = Candidate((np.float32([[10, 10], [60, 10], [60, 82], [10, 82]]),))

    def finder(view):
        seen.append(view.copy())
        return [usual]

    frame = np.random.default_rng(1).integers(0, 255, (720, 1280, 3), dtype=np.uint8)
    (found,) = ZoomingOutFinder(finder, card_length=150)(frame)      # 0.21 of the height: as it is
    assert len(seen) == 1 and np.array_equal(seen[0], frame) and np.allclose(found.quad, usual.quad)
    seen.clear()
    (found,) = ZoomingOutFinder(finder, card_length=540)(frame)      # 0.75: shrunk to 0.3, once
    assert len(seen) == 1 and seen[0].shape == frame.shape and not np.array_equal(seen[0], frame)
    shrink = 0.3 * 720 / 540
    assert np.allclose(found.quad, (usual.quad - [(1280 - round(1280 * shrink)) // 2,
                                                   (720 - round(720 * shrink)) // 2]) / shrink)


def report(card, long_side):
    """A report of `card` whose outline is long_side pixels long."""
    from cribbage.cards import parse_cards
    from vision.types import Recognition

    quad = np.float32([[0, 0], [0.7 * long_side, 0], [0.7 * long_side, long_side], [0, long_side]])
    return Recognition(None if card is None else parse_cards([card])[0], 0.999, quad)


def test_a_wider_look_is_worth_it_where_nothing_was_read_or_the_cards_read_are_large():
    frame = np.zeros((720, 1280, 3), np.uint8)
    assert worth_a_wider_look(frame, [])
    assert worth_a_wider_look(frame, [report(None, 200)])            # seen, not read
    assert not worth_a_wider_look(frame, [report("5H", 150), report("KS", 160), report(None, 400)])
    assert worth_a_wider_look(frame, [report("5H", 300), report("KS", 320)])   # 0.42 of 720


def test_the_wider_look_is_taken_only_when_the_first_looks_reports_ask_for_it():
    usual = Candidate((np.float32([[10, 10], [60, 10], [60, 82], [10, 82]]),))
    finder = ScriptedFinder([usual])
    found, wider = ZoomingOutFinder(finder).look(np.zeros((400, 600, 3), np.uint8))
    assert [c.quad.tolist() for c in found] == [usual.quad.tolist()] and finder.calls == 1
    more = wider()      # the scripted canvas outline: 40 x 60 at the middle, each canvas shrunk its own way
    assert finder.calls == 1 + len(SHRINKS) == 1 + len(more)
    for shrink, outline in zip(SHRINKS, more):
        assert np.allclose(outline.quad, [[300 - 20 / shrink, 200 - 30 / shrink], [300 + 20 / shrink, 200 - 30 / shrink],
                                          [300 + 20 / shrink, 200 + 30 / shrink], [300 - 20 / shrink, 200 + 30 / shrink]], atol=2)
    # Where the first look already looked wider (nothing outlined), there is no second one.
    assert ZoomingOutFinder(ScriptedFinder([])).look(np.zeros((400, 600, 3), np.uint8))[1] is None
    # Nor where the card size is calibrated: that frame is looked at once, at the size it asks for.
    assert ZoomingOutFinder(ScriptedFinder([usual]), card_length=100).look(np.zeros((400, 600, 3), np.uint8))[1] is None


def test_the_recognizer_reads_the_wider_look_only_where_its_first_reports_ask_for_it(recognizer):
    scene = make_scene(np.random.default_rng(7), "separate", "greywyvern", (1280, 720))
    truth = sorted(str(card.card) for card in scene.cards)
    calls = []

    class Looks:
        """A finder whose first look gives `first` and whose wider look gives the real finder's."""

        def __init__(self, first):
            self.first = first

        def look(self, image):
            return self.first, lambda every_scale=True: calls.append(every_scale) or list(recognizer.finder(image))

    # Cards a fifth of the frame high, read at the first look: no wider one.
    first = list(recognizer.finder(scene.image))
    reads = Recognizer(finder=Looks(first)).recognize(scene.image)
    assert calls == [] and sorted(str(r.card) for r in reads if r.card is not None) == truth
    # Nothing found at first: the wider look's candidates are read, its middle canvas's only.
    reads = Recognizer(finder=Looks([])).recognize(scene.image)
    assert calls == [False] and sorted(str(r.card) for r in reads if r.card is not None) == truth
    # Large cards read at first: the wider look's every canvas.
    calls.clear()
    large = make_scene(np.random.default_rng(7), "separate", "greywyvern", (1280, 720), card_share=(0.5, 0.6))
    Recognizer(finder=Looks(list(recognizer.finder(large.image)))).recognize(large.image)
    assert calls == [True]
