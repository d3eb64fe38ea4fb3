"""Cards small in the frame found again in its quarters (vision.zoom_in)."""

import numpy as np

from cribbage.cards import Card
from test_recognizer import BACKGROUND, ScriptedClassifier
from vision.crops import parallelogram
from vision.finder import Candidate
from vision.recognizer import Recognizer
from vision.types import Recognition
from vision.zoom_in import in_quarters, quarters, worth_a_closer_look

FRAME = np.zeros((400, 600, 3), np.uint8)
cut_as_is = lambda image, quad: np.asarray(quad)  # noqa: E731


class ShapeClassifier(ScriptedClassifier):
    """Reads the card whose index corner the crop (here: its quad) starts at, when the quad is upright
    and between `shortest` and `longest` card lengths long; "not a card" otherwise."""

    def __init__(self, corners, shortest=90.0, longest=160.0):
        super().__init__([], threshold=0.99)
        self.corners = corners
        self.shortest, self.longest = shortest, longest

    def card_at(self, quad):
        down = quad[3] - quad[0]
        length = float(np.linalg.norm(down))
        if abs(float(down[0])) > 0.1 * length or not self.shortest <= length <= self.longest:
            return None
        for corner, card in self.corners.items():
            if np.linalg.norm(quad[0] - np.float32(corner)) < 3:
                return card
        return None

    def probabilities(self, quads):
        rows = np.full((len(quads), 53), 0.0001)
        for row, quad in zip(rows, quads):
            card = self.card_at(np.asarray(quad))
            row[BACKGROUND if card is None else card] = 0.999
        return rows


def card_at(x, y, length=50.0):
    return parallelogram(np.float32([x, y]), np.float32([length * 0.7, 0]), np.float32([0, length]))


def test_the_quarters_reach_past_the_middle_lines():
    assert quarters(600, 400, 40) == [(0, 0, 350, 250), (250, 0, 600, 250), (0, 150, 350, 400), (250, 150, 600, 400)]
    assert quarters(600, 400, 400) == [(0, 0, 600, 400)] * 4     # never past the frame


def test_every_card_however_turned_lies_wholly_in_a_quarter():
    rng = np.random.default_rng(7)
    windows = quarters(600, 400, 60)
    for _ in range(500):
        angle = rng.uniform(0, np.pi)
        down = 60 * np.float32([np.sin(angle), np.cos(angle)])
        across = 0.7 * np.float32([-down[1], down[0]])
        corner = rng.uniform([80, 80], [520, 320]).astype(np.float32)   # the card inside the frame
        quad = parallelogram(corner, across, down)
        assert any(x0 <= quad[:, 0].min() and quad[:, 0].max() <= x1 and y0 <= quad[:, 1].min() and
                   quad[:, 1].max() <= y1 for x0, y0, x1, y1 in windows)


def test_only_frames_whose_cards_read_are_small_are_looked_at_closer():
    read = lambda length: Recognition(Card.parse("5H"), 0.99, card_at(10, 10, length))  # noqa: E731
    assert worth_a_closer_look(FRAME, [read(50), read(60)])          # an eighth of the height
    assert not worth_a_closer_look(FRAME, [read(80), read(90)])      # a fifth: a camera over a table
    assert not worth_a_closer_look(FRAME, [Recognition(None, 0.5, card_at(10, 10, 50))])  # none read


def test_what_is_found_in_a_quarter_comes_back_in_the_frames_pixels():
    seen = []

    def look(window):
        seen.append(window.shape[:2])
        return [Candidate((card_at(5, 5),))]

    found = in_quarters(look, FRAME, 40)
    assert seen == [(250, 350)] * 4
    assert [tuple(c.quad[0]) for c in found] == [(5, 5), (255, 5), (5, 155), (255, 155)]


class QuarteringFinder:
    """The first look finds `first`; each quarter's look, one more card at (10, 10) in the quarter."""

    def __init__(self, first):
        self.first = first

    def look(self, image):
        if image.shape[:2] == FRAME.shape[:2]:
            return list(self.first), None
        return [Candidate((card_at(10, 10),), covered=False)], None


def test_a_small_card_the_first_look_missed_is_read_from_its_quarter():
    # Two cards 50 px long read in a 400 px high frame; a third lies at (10, 10) in the bottom right
    # quarter only (the other quarters' (10, 10) show no card).
    x0, y0 = quarters(600, 400, 50)[3][:2]
    corners = {(20, 20): 0, (500, 300): 1, (x0 + 10, y0 + 10): 2}
    first = [Candidate((card_at(20, 20),), covered=False), Candidate((card_at(500, 300),), covered=False)]
    recognizer = Recognizer(ShapeClassifier(corners, shortest=40.0), finder=QuarteringFinder(first),
                            cropper=cut_as_is, whole_card=None)
    found = recognizer.recognize(FRAME)
    assert sorted(r.card.index for r in found) == [0, 1, 2]
    assert np.allclose(next(r for r in found if r.card.index == 2).quad[0], [x0 + 10, y0 + 10])
    # Cards a fifth of the frame high (a camera over a table): no closer look.
    big = [Candidate((card_at(20, 20, 90),), covered=False)]
    only = Recognizer(ShapeClassifier(corners, shortest=40.0), finder=QuarteringFinder(big), cropper=cut_as_is,
                      whole_card=None).recognize(FRAME)
    assert [r.card.index for r in only] == [0]
