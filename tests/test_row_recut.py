"""A tight row's unread corners cut again with the shape of its read cards (vision.row_recut), with a
classifier that reads a crop by where it lies and how it is shaped."""

import numpy as np

from cribbage.cards import Card
from test_recognizer import BACKGROUND, ScriptedClassifier
from vision.crops import parallelogram
from vision.finder import Candidate
from vision.recognizer import Recognizer
from vision.row_recut import recut_reads, row_shape
from vision.types import Recognition

ACROSS, DOWN = np.float32([70, 0]), np.float32([0, 100])   # the row's cards: 70 x 100, upright


class ShapeClassifier(ScriptedClassifier):
    """Reads the card whose index corner the crop (here: its quad) starts at, when the quad is upright
    and between `shortest` and `longest` card lengths long; "not a card" otherwise. `misread` maps a
    corner to the card it is taken for at lengths of at least misread_from."""

    def __init__(self, corners, shortest=90.0, longest=160.0, misread=None, misread_from=140.0):
        super().__init__([], threshold=0.99)
        self.corners = corners
        self.shortest, self.longest = shortest, longest
        self.misread, self.misread_from = misread or {}, misread_from
        self.asked: list[np.ndarray] = []

    def card_at(self, quad):
        down = quad[3] - quad[0]
        length = float(np.linalg.norm(down))
        if abs(float(down[0])) > 0.1 * length or not self.shortest <= length <= self.longest:
            return None
        for corner, card in self.corners.items():
            if np.linalg.norm(quad[0] - np.float32(corner)) < 3:
                if corner in self.misread and length >= self.misread_from:
                    return self.misread[corner]
                return card
        return None

    def probabilities(self, quads):
        self.asked += [np.asarray(q) for q in quads]
        rows = np.full((len(quads), 53), 0.0001)
        for row, quad in zip(rows, quads):
            card = self.card_at(np.asarray(quad))
            row[BACKGROUND if card is None else card] = 0.999
        return rows


def read_card(x, index, across=ACROSS, down=DOWN):
    return Recognition(Card.from_index(index), 0.999, parallelogram(np.float32([x, 50]), across, down))


ROW = [read_card(100, 0), read_card(140, 1), read_card(180, 2)]
cut_as_is = lambda image, quad: np.asarray(quad)  # noqa: E731
IMAGE = np.zeros((10, 10, 3), np.uint8)


def test_the_rows_shape_is_the_median_of_its_read_cards_alike():
    across, down = row_shape(ROW + [read_card(220, 3, ACROSS * 1.1, DOWN * 1.1)])
    assert np.allclose(down, [0, 100]) and np.allclose(across, [70, 0])
    turned = read_card(260, 4, np.float32([0, 70]), np.float32([-100, 0]))
    assert np.allclose(row_shape(ROW + [turned])[1], [0, 100])   # the one turned a right angle is left out


def test_no_shape_from_fewer_than_three_alike():
    assert row_shape(ROW[:2]) is None
    assert row_shape([ROW[0], read_card(140, 1, ACROSS * 2, DOWN * 2), read_card(180, 2, ACROSS / 2, DOWN / 2)]) is None


def test_no_shape_from_reads_half_one_way_round_and_half_the_other():
    # the median of opposite sides is no side at all: no row shape, and no division by its length
    turned = [read_card(220 + 40 * k, 3 + k, -ACROSS, -DOWN) for k in range(3)]
    assert row_shape(ROW + turned) is None


def test_unread_corners_beside_a_row_are_read_with_its_cards_shape():
    classifier = ShapeClassifier({(220, 50): 3, (260, 50): 4})
    found = recut_reads(IMAGE, classifier, cut_as_is, [np.float32([220, 50]), np.float32([260, 50])], ROW)
    assert sorted(r.card.index for r in found) == [3, 4]
    assert all(np.allclose(r.quad[3] - r.quad[0], DOWN) for r in found)


def test_the_row_runs_on_past_the_cards_read_first_but_not_to_a_corner_far_from_it():
    corners = {(180 + 40 * k, 50): 3 + k for k in range(1, 8)}   # the last 280 px past the row's last read
    corners[(900, 50)] = 20                                       # alone, far from any card
    classifier = ShapeClassifier(corners)
    found = recut_reads(IMAGE, classifier, cut_as_is, [np.float32(c) for c in corners], ROW)
    assert sorted(r.card.index for r in found) == list(range(4, 11))
    assert not any(np.allclose(q[0], [900, 50]) for q in classifier.asked)


def test_a_corner_found_a_little_off_along_the_row_is_read_where_the_card_is():
    classifier = ShapeClassifier({(220, 50): 3})
    found = recut_reads(IMAGE, classifier, cut_as_is, [np.float32([224, 50])], ROW)   # 0.04 of a length off
    assert [r.card.index for r in found] == [3] and np.allclose(found[0].quad[0], [220, 50])
    assert recut_reads(IMAGE, classifier, cut_as_is, [np.float32([232, 50])], ROW) == []  # 0.12 off: not


def test_a_corner_read_as_another_card_at_a_larger_size_is_not_reported():
    classifier = ShapeClassifier({(220, 50): 3, (260, 50): 4}, misread={(220, 50): 30})
    found = recut_reads(IMAGE, classifier, cut_as_is, [np.float32([220, 50]), np.float32([260, 50])], ROW)
    assert [r.card.index for r in found] == [4]


def test_a_corner_unread_at_a_larger_size_is_not_reported():
    classifier = ShapeClassifier({(220, 50): 3}, longest=130.0)   # 1.5 times the row's card reads nothing
    assert recut_reads(IMAGE, classifier, cut_as_is, [np.float32([220, 50])], ROW) == []


def test_nothing_is_cut_again_without_a_row():
    classifier = ShapeClassifier({(220, 50): 3})
    assert recut_reads(IMAGE, classifier, cut_as_is, [np.float32([220, 50])], ROW[:2]) == []
    assert classifier.asked == []


def test_the_recognizer_reports_a_row_card_its_own_corner_cut_wrong():
    # Three covered cards read at their corners; a fourth corner the detector found with its sides
    # turned (read as "not a card" there) is read with the row's shape.
    classifier = ShapeClassifier({(100, 50): 0, (140, 50): 1, (180, 50): 2, (220, 50): 3})
    turned = parallelogram(np.float32([220, 50]), np.float32([60, 35]), np.float32([-50, 87]))
    candidates = [Candidate((r.quad,), covered=True, by_corner=True) for r in ROW] + \
        [Candidate((turned,), covered=True, by_corner=True)]
    recognizer = Recognizer(classifier, finder=lambda image: candidates, cropper=cut_as_is, whole_card=None)
    found = recognizer.recognize(IMAGE)
    assert sorted(r.card.index for r in found) == [0, 1, 2, 3]
    without = Recognizer(classifier, finder=lambda image: candidates[:2] + candidates[3:], cropper=cut_as_is,
                         whole_card=None)
    assert sorted(r.card.index for r in without.recognize(IMAGE)) == [0, 1]   # two read cards make no row
