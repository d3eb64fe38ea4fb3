"""The recognizer on seeded scenes of the held-out decks, and its rules on made-up classifier output."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.bench_vision import score_reads
from cribbage.cards import Card
from sim.render.decks import HELD_OUT_DECKS
from sim.render.scenes import make_scene
from vision.finder import Candidate
from vision.recognizer import Recognizer
from vision.settle import drop_overlaps
from vision.second_look import FLOOR
from vision.types import Recognition

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def recognizer():
    return Recognizer()


def reads_against_truth(scene, found):
    """(right, wrong, unread) over the scene's face-up cards with an index showing, judged as the
    benchmark judges them (by the card under each report's index crop); a card reported where no
    face-up card is counts as wrong too."""
    verdicts, extra = score_reads(scene, found)
    right = sum(v == "right" for _, v, _ in verdicts)
    wrong = sum(v == "wrong" for _, v, _ in verdicts)
    return right, wrong + sum(rec.card is not None for rec, _ in extra), len(verdicts) - right - wrong


def tally(recognizer, rng, kind, deck, scenes):
    """(right, wrong, unread) summed over `scenes` rendered scenes."""
    totals = np.zeros(3, int)
    for _ in range(scenes):
        scene = make_scene(rng, kind, deck)
        totals += reads_against_truth(scene, recognizer.recognize(scene.image))
    return tuple(int(t) for t in totals)


@pytest.mark.parametrize("deck", [pytest.param(deck, marks=pytest.mark.xfail(
    strict=True, reason="16 xskat-french-large cards read and 3 unread, none wrong (models/HISTORY.md, "
                        "section 14)")) if deck == "xskat-french-large" else deck for deck in HELD_OUT_DECKS])
def test_separate_cards_of_held_out_decks_are_read(recognizer, deck):
    """Bounds are under today's (95-100 % read here, none wrong; MODEL_CARD.md); the target is 99.5 %."""
    right, wrong, unread = tally(recognizer, np.random.default_rng([7, HELD_OUT_DECKS.index(deck)]),
                                 "separate", deck, 4)
    assert wrong == 0
    assert right >= 0.9 * (right + unread), f"{right} right, {unread} unread"


@pytest.mark.parametrize("decks", [
    tuple(deck for deck in HELD_OUT_DECKS if deck != "xskat-french-large"),
    pytest.param(HELD_OUT_DECKS, marks=pytest.mark.xfail(
        strict=True, reason="an xskat-french-large row card, a QD, is read as the TD since the classifier was "
                            "taught four colours (models/HISTORY.md, section 41)"))])
def test_rows_are_read_where_their_index_shows(recognizer, decks):
    counts = [tally(recognizer, np.random.default_rng([8, HELD_OUT_DECKS.index(deck)]), "row", deck, 2)
              for deck in decks]
    right, wrong, unread = (sum(c) for c in zip(*counts))
    assert wrong == 0
    # today penguins and greywyvern 24 of 24; with xskat-french-large 31 of 33, one more read wrong
    assert right >= 0.8 * (right + unread), f"{right} right, {unread} unread"


@pytest.mark.parametrize("kind", ["empty", "backs"])
def test_nothing_is_reported_on_an_empty_table_or_on_backs(recognizer, kind):
    for i, deck in enumerate(HELD_OUT_DECKS):
        rng = np.random.default_rng([9, i])
        for _ in range(3):
            scene = make_scene(rng, kind, deck)
            assert recognizer.recognize(scene.image) == []


@pytest.mark.parametrize("deck, seed", [("nicu-white", 7)])
def test_small_cards_printed_on_a_back_are_no_cards(deck, seed):
    """This deck's back shows a fan of aces, whose corners the detector finds when enlarged: none is
    read as a card. The scene is committed (tests/fixtures/README.md): the deck is not."""
    image = cv2.imread(str(FIXTURES / f"backs-{deck}-{seed}.png"), cv2.IMREAD_COLOR)
    found = Recognizer().recognize(image)
    assert [rec.card for rec in found if rec.card is not None] == []


# --- the rules, with a made-up classifier ---------------------------------------------------------

BACKGROUND = 52
DOUBTFUL = FLOOR - 0.05   # a read leaning to a card, too little for a second look


class ScriptedClassifier:
    """Answers each crop with the next probability row it was given, in the order the recognizer
    reads them (the finder's outlines, then the detector's corners, then second looks: `later`); a
    crop it has no row for fails the test."""

    def __init__(self, rows, threshold=0.9, later=()):
        self.rows = [np.asarray(row, np.float64) for row in list(rows) + [r for b in later for r in b]]
        self.threshold = threshold
        self.background_index = BACKGROUND
        self.cards = [Card.from_index(i) for i in range(52)] + [None]

    def probabilities(self, crops):
        assert len(crops) <= len(self.rows), "the recognizer asked for a reading it was not expected to"
        rows, self.rows = self.rows[:len(crops)], self.rows[len(crops):]
        return np.array(rows)

    def decide(self, probs):
        best = int(np.argmax(probs))
        if best == BACKGROUND or probs[best] < self.threshold:
            return None, float(probs[best])
        return Card.from_index(best), float(probs[best])

    def card_probability(self, probs):
        return 1.0 - float(probs[BACKGROUND])


class Outline:
    def __init__(self, quads, covered=True):
        self.quads = tuple(np.float32(q) for q in quads)
        self.quad = self.quads[0]
        self.covered = covered


FRAME_SIDE = 600  # the scripted frames: every outline these tests draw lies in them (the second look needs it)


def box(x, y, w=70, h=100):
    return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]


def row_of(card_index=None, p=0.99):
    row = np.full(53, (1 - p) / 52)
    row[BACKGROUND if card_index is None else card_index] = p
    return row


def recognize_with(outlines, rows, threshold=0.9, later=(), whole_card=None, image=None):
    classifier = ScriptedClassifier(rows, threshold, later)
    recognizer = Recognizer(classifier, finder=lambda image: outlines, cropper=lambda image, quad: quad,
                            whole_card=whole_card)
    found = recognizer.recognize(np.zeros((FRAME_SIDE, FRAME_SIDE, 3), np.uint8) if image is None else image)
    assert not classifier.rows, "the recognizer did not read a crop (or take a second look) it was expected to"
    return found


def test_the_confident_corner_wins():
    quad = box(0, 0)
    found = recognize_with([Outline([quad, np.roll(quad, -2, axis=0)])], [row_of(None), row_of(17)])
    assert [r.card for r in found] == [Card.from_index(17)]
    assert np.allclose(found[0].quad, np.roll(quad, -2, axis=0))


def test_two_corners_that_disagree_give_an_unread_card_not_a_guess():
    # The likelier corner is looked at again; a nudged crop that reads the other card refuses it.
    quad = box(0, 0)
    nudged = [row_of(21, 0.995)] * (NUDGES - 1) + [row_of(17, 0.995)]
    found = recognize_with([Outline([quad, np.roll(quad, -2, axis=0)])], [row_of(17), row_of(21, 0.995)],
                           later=[nudged])
    assert len(found) == 1 and found[0].card is None


def test_a_card_like_but_doubtful_read_is_reported_unread():
    quad = box(0, 0)
    found = recognize_with([Outline([quad, np.roll(quad, -2, axis=0)])], [row_of(17, 0.6), row_of(17, DOUBTFUL)])
    assert len(found) == 1 and found[0].card is None


def test_an_outline_read_at_one_corner_only_is_reported_only_when_read():
    # A covered card in a row offers one corner; a back's pattern can look like an index at one corner.
    assert recognize_with([Outline([box(0, 0)])], [row_of(17, DOUBTFUL)]) == []
    assert [r.card for r in recognize_with([Outline([box(0, 0)])], [row_of(17, 0.99)])] == [Card.from_index(17)]


def test_outlines_that_are_no_card_are_dropped():
    quad = box(0, 0)
    assert recognize_with([Outline([quad, np.roll(quad, -2, axis=0)])], [row_of(None), row_of(None)]) == []


def test_the_readings_before_settling_are_shown_to_an_observer():
    # Two outlines over one place, both read: the settle stage keeps one, the observer sees both.
    seen = []
    outlines = [Outline([box(0, 0)]), Outline([box(3, 2)])]
    classifier = ScriptedClassifier([row_of(5), row_of(5, 0.995)], 0.9, ())
    recognizer = Recognizer(classifier, finder=lambda image: outlines, cropper=lambda image, quad: quad,
                            whole_card=None, observe=lambda candidates, readings: seen.append((candidates, readings)))
    found = recognizer.recognize(np.zeros((FRAME_SIDE, FRAME_SIDE, 3), np.uint8))
    assert len(found) == 1 and len(seen) == 1
    candidates, readings = seen[0]
    assert candidates == outlines and [str(r.card) for r in readings] == ["2D", "2D"]


def test_the_same_card_at_two_places_is_reported_twice():
    found = recognize_with([Outline([box(0, 0)]), Outline([box(300, 0)])], [row_of(5), row_of(5)])
    assert [str(r.card) for r in found] == ["2D", "2D"]


def test_overlapping_outlines_are_one_card_the_read_one_kept():
    a = Recognition(None, 0.95, np.float32(box(0, 0)))
    b = Recognition(Card.parse("5H"), 0.97, np.float32(box(3, 2)))
    c = Recognition(Card.parse("5H"), 0.99, np.float32(box(200, 0)))
    kept = drop_overlaps([a, b, c])
    assert len(kept) == 2 and any(k is b for k in kept) and any(k is c for k in kept)


def test_a_corner_found_inside_a_card_outlined_whole_is_no_other_card():
    # A deck with an index in all four corners, one seen askew by the corner detector inside a card
    # the finder outlined whole: nothing lies on that card, so its other reading is dropped.
    whole = np.float32(box(0, 0, 140, 200))
    inner = np.float32(box(60, 90))
    apart = np.float32(box(300, 0))
    outlines = [Candidate((whole, np.roll(whole, -2, axis=0))), Candidate((inner,), True, 0.5, by_corner=True),
                Candidate((apart,), True, 0.5, by_corner=True)]
    found = recognize_with(outlines, [row_of(17), row_of(17), row_of(30), row_of(31)])
    assert sorted(str(r.card) for r in found) == [str(Card.from_index(i)) for i in (17, 31)]
    # Found by its outline, a card lying over the whole one (its index inside it) is reported.
    outlines[1] = Candidate((inner,), True, 0.5)
    found = recognize_with(outlines, [row_of(17), row_of(17), row_of(30), row_of(31)])
    assert sorted(str(r.card) for r in found) == [str(Card.from_index(i)) for i in (17, 30, 31)]


def test_a_lone_card_the_detector_found_where_an_outline_was_read_at_both_ends_is_not_read_again():
    whole = np.float32(box(0, 0, 140, 200))
    ends = (whole, np.roll(whole, -2, axis=0))
    pair = Candidate(tuple(end + np.float32([-3, 1]) for end in ends), False, 0.5, by_corner=True)
    # Three rows only, for the outline's two crops and the corner elsewhere: a fourth crop fails.
    elsewhere = Candidate((np.float32(box(300, 0)),), True, 0.5, by_corner=True)
    found = recognize_with([Candidate(ends), pair, elsewhere], [row_of(17), row_of(17), row_of(31)])
    assert sorted(str(r.card) for r in found) == [str(Card.from_index(i)) for i in (17, 31)]


def test_the_detectors_corners_are_read_where_the_outline_is_not_settled_there():
    whole = np.float32(box(0, 0, 140, 200))
    ends = (whole, np.roll(whole, -2, axis=0))

    def pair(shift):
        return Candidate(tuple(end + np.float32(shift) for end in ends), False, 0.5, by_corner=True)

    # read at one end only: the detector's pair is read too
    found = recognize_with([Candidate(ends), pair([2, 3])], [row_of(17), row_of(None), row_of(17), row_of(17)])
    assert [str(r.card) for r in found] == [str(Card.from_index(17))]
    # read alike at both ends, but the pair's corners a little further off (0.05 of its length) ...
    rows = [row_of(17)] * 4
    assert [str(r.card) for r in recognize_with([Candidate(ends), pair([10, 0])], rows)] == [str(Card.from_index(17))]
    # ... or a corner found alone on one of its corners (in a row, the top card's readings vie with
    # its neighbours'), or one on the corner but running another way (far end a third of a length off)
    alone = Candidate((whole + np.float32([2, 3]),), True, 0.5, by_corner=True)
    other_way = Candidate((np.float32([[0, 0], [100, 0], [100, 140], [0, 140]]), np.roll(whole, -2, axis=0)),
                          False, 0.5, by_corner=True)
    found = recognize_with([Candidate(ends), alone, other_way], [row_of(17)] * 5)
    assert [str(r.card) for r in found] == [str(Card.from_index(17))]


def test_an_outline_read_at_one_end_only_is_not_taken_as_whole():
    # The finder's outline of a row's top card may be too big and cover its neighbours; read at its
    # index corner only, it does not hide the detector's corners inside it.
    whole = np.float32(box(0, 0, 140, 200))
    inner = np.float32(box(60, 90))
    outlines = [Candidate((whole, np.roll(whole, -2, axis=0))), Candidate((inner,), True, 0.5, by_corner=True)]
    found = recognize_with(outlines, [row_of(17), row_of(None), row_of(30)])
    assert sorted(str(r.card) for r in found) == [str(Card.from_index(i)) for i in (17, 30)]


def test_neighbours_in_a_row_laid_down_their_length_are_two_cards():
    # Cards laid a third of their length apart: their outlines overlap by half, read at corners apart.
    upper = Recognition(Card.parse("5H"), 0.99, np.float32(box(0, 0)))
    lower = Recognition(Card.parse("9C"), 0.98, np.float32(box(0, 33)))
    assert len(drop_overlaps([upper, lower])) == 2
    # Read as another card at the card's other end (an index seen askew there): one card, the surer.
    other_end = Recognition(Card.parse("AS"), 0.97, np.roll(np.float32(box(2, 3)), -2, axis=0))
    assert drop_overlaps([upper, other_end]) == [upper]
    # Read as another card at the same corner: one card.
    same_corner = Recognition(Card.parse("AS"), 0.97, np.float32(box(2, 3)))
    assert drop_overlaps([upper, same_corner]) == [upper]
    # Fanned close across (corners a fifth of a card apart), the indices lie side by side: two cards.
    fanned = Recognition(Card.parse("AS"), 0.97, np.float32(box(20, 0)))
    assert len(drop_overlaps([upper, fanned])) == 2
    # Spread as tight as a row can be, each card showing a strip little wider than its index (an
    # eighth of a card's length): still two cards.
    tight = Recognition(Card.parse("AS"), 0.97, np.float32(box(12, 0)))
    assert len(drop_overlaps([upper, tight])) == 2
    # Laid a fifth of a card apart, one turned end for end and read at its own index: the two
    # reading corners lie at the cards' two ends, but neither index lies on the other's outline.
    turned = Recognition(Card.parse("AS"), 0.97, np.roll(np.float32(box(20, 0)), -2, axis=0))
    assert len(drop_overlaps([upper, turned])) == 2


def test_a_card_peeking_out_beside_anothers_far_end_is_a_card_of_its_own():
    # A fan: the card below shows its index just beside the far-end index of the card laid over it,
    # and both outlines overlap nearly whole. Read as another card there, it would be taken for the
    # top card's far end read askew ...
    upper = Recognition(Card.parse("5H"), 0.99, np.float32(box(0, 0)))
    beside = Recognition(Card.parse("JS"), 0.98, np.roll(np.float32(box(2, 3)), -2, axis=0) + np.float32([0, -20]))
    assert drop_overlaps([upper, beside]) == [upper]
    # ... unless the top card is read as itself at that far end too: then the far end is its own, and
    # the card beside it is a card.
    far_end = Recognition(Card.parse("5H"), 0.97, np.roll(np.float32(box(0, 0)), -2, axis=0))
    kept = drop_overlaps([upper, beside, far_end])
    assert sorted(str(r.card) for r in kept) == ["5H", "JS"]
    # A reading of the top card at the very index read as another card contradicts it: still one card.
    contradicting = Recognition(Card.parse("5H"), 0.97, beside.quad + np.float32([1, 1]))
    assert drop_overlaps([upper, beside, contradicting]) == [upper]


# --- the second look at an almost sure read (vision.second_look) ---------------------------------

NUDGES = 8


def test_an_almost_sure_read_confirmed_by_nudged_crops_is_read():
    quad = np.float32(box(0, 0))
    nudged = [row_of(17, 0.995), row_of(17, 0.97), row_of(17, 0.998)] + [row_of(17, 0.95)] * (NUDGES - 3)
    found = recognize_with([Outline([quad])], [row_of(17, 0.95)], threshold=0.99, later=[nudged])
    assert [r.card for r in found] == [Card.from_index(17)]
    assert found[0].confidence == pytest.approx(0.998)
    assert not np.allclose(found[0].quad, quad)  # the surest nudged outline is reported


def test_one_confirming_nudge_is_not_enough():
    quad = box(0, 0)
    nudged = [row_of(17, 0.995)] + [row_of(17, 0.95)] * (NUDGES - 1)
    found = recognize_with([Outline([quad, np.roll(quad, -2, axis=0)])], [row_of(17, 0.95), row_of(17, 0.93)],
                           threshold=0.99, later=[nudged])
    assert len(found) == 1 and found[0].card is None


def test_a_nudge_taken_for_another_card_or_for_none_refuses_the_read():
    for odd in (row_of(21, 0.6), row_of(None, 0.55)):
        nudged = [row_of(17, 0.995)] * (NUDGES - 1) + [odd]
        assert recognize_with([Outline([box(0, 0)])], [row_of(17, 0.95)], threshold=0.99, later=[nudged]) == []


def test_no_second_look_at_a_doubtful_read():
    # The scripted classifier fails the test if asked for a second reading.
    assert recognize_with([Outline([box(0, 0)])], [row_of(17, DOUBTFUL)], threshold=0.99) == []


def test_no_second_look_at_an_index_the_frame_cuts():
    # Its crop is filled out with the frame's edge repeated: nothing to confirm a read with. The
    # scripted classifier fails the test if asked for the nudged readings.
    for cut in (box(-12, 40), box(FRAME_SIDE - 10, 40), box(40, FRAME_SIDE - 20)):
        assert recognize_with([Outline([cut])], [row_of(17, 0.95)], threshold=0.99) == []
    # The same read wholly inside the frame, a pixel from its edge, is looked at again.
    inside = box(1, 40)
    nudged = [row_of(17, 0.995)] * NUDGES
    found = recognize_with([Outline([inside])], [row_of(17, 0.95)], threshold=0.99, later=[nudged])
    assert [r.card for r in found] == [Card.from_index(17)]


def test_nudged_outlines_stay_close_to_the_card():
    from vision.second_look import nudged_quads

    quad = np.float32(box(100, 50, 70, 100))
    nudged = nudged_quads(quad)
    assert len(nudged) == NUDGES
    for q in nudged:
        assert q.shape == (4, 2) and not np.allclose(q, quad)
        assert np.linalg.norm(q[0] - quad[0]) <= 0.05 * 100  # the index corner moves a few pixels at most
        across, down = q[1] - q[0], q[3] - q[0]
        assert abs(np.dot(across, down)) < 1e-3 * 100 * 70  # still a rectangle ...
        assert 0.9 < np.linalg.norm(down) / 100 < 1.1  # ... of about the card's size


# --- the whole card's second opinion on a lone card (vision.whole_card) --------------------------

class ScriptedWholeCard:
    """Answers each whole card asked about with the next opinion given, and keeps the outlines asked."""

    def __init__(self, *opinions):
        self.opinions = [np.asarray(o, np.float64) for o in opinions]
        self.asked = []

    def probabilities(self, image, quads):
        assert len(quads) <= len(self.opinions), "the recognizer asked the whole card more than expected"
        self.asked += [np.float32(q) for q in quads]
        out, self.opinions = self.opinions[:len(quads)], self.opinions[len(quads):]
        return np.array(out)


def whole_opinion(card: str, p: float) -> np.ndarray:
    """44 whole-card probabilities: `card` at p ("cD": a diamond court), the rest shared evenly."""
    from vision.whole_card import GROUPS, SUITS, class_of

    at = SUITS.index(card[1]) * len(GROUPS) + len(GROUPS) - 1 if card[0] == "c" else class_of(Card.parse(card))
    probs = np.full(len(SUITS) * len(GROUPS), (1 - p) / (len(SUITS) * len(GROUPS) - 1))
    probs[at] = p
    return probs


def lone_card(covered=False):
    quad = box(0, 0)
    return Outline([quad, np.roll(quad, -2, axis=0)], covered=covered)


def test_a_read_the_whole_face_refutes_is_an_unread_card():
    nine = Card.parse("9D")
    face = ScriptedWholeCard(whole_opinion("cD", 0.995))  # surely a court: not a nine
    found = recognize_with([lone_card()], [row_of(nine.index, 0.999), row_of(nine.index, 0.999)], whole_card=face)
    assert len(found) == 1 and found[0].card is None and found[0].face_refuted
    assert len(face.asked) == 1
    # A face that agrees leaves the read alone.
    found = recognize_with([lone_card()], [row_of(nine.index, 0.999), row_of(nine.index, 0.999)],
                           whole_card=ScriptedWholeCard(whole_opinion("9D", 0.995)))
    assert [r.card for r in found] == [nine]


def card_on_cloth(quad) -> np.ndarray:
    """A scripted frame: a white card at quad on dark cloth, whose edges an outline can be snapped to."""
    image = np.full((FRAME_SIDE, FRAME_SIDE, 3), 40, np.uint8)
    cv2.fillConvexPoly(image, np.int32(quad), (235, 235, 235))
    return image


def test_a_card_in_a_row_is_not_read_whole():
    # Its face is half under its neighbour, whose index is offered on it (read or not): the scripted
    # reader fails the test if asked.
    nine = Card.parse("9D")
    image = card_on_cloth(box(100, 100))
    for neighbour in (row_of(Card.parse("5C").index, 0.999), row_of(None, 0.99)):
        row = [Outline([box(100, 100)]), Outline([box(140, 100)])]
        found = recognize_with(row, [row_of(nine.index, 0.999), neighbour], whole_card=ScriptedWholeCard(),
                               image=image)
        assert nine in [r.card for r in found]


def test_a_card_that_may_be_covered_is_never_confirmed_by_its_whole_face():
    # An almost read card a lone outline would have confirmed stays unread: the scripted reader fails
    # the test if asked.
    card = box(100, 100)
    no_second_look = [[row_of(None, 0.6)] * NUDGES]
    found = recognize_with([Outline([card])], [row_of(Card.parse("9C").index, 0.95)], threshold=0.99,
                           later=no_second_look, whole_card=ScriptedWholeCard(), image=card_on_cloth(card))
    assert all(r.card is None for r in found)


def test_an_unread_lone_card_is_read_as_the_number_card_its_whole_face_surely_shows():
    nine = Card.parse("9C")
    no_second_look = [[row_of(None, 0.6)] * NUDGES]
    face = ScriptedWholeCard(whole_opinion("9C", 0.995))
    found = recognize_with([lone_card()], [row_of(None, 0.4), row_of(nine.index, 0.95)], threshold=0.99,
                           later=no_second_look, whole_card=face)
    assert [r.card for r in found] == [nine]
    assert found[0].confidence == pytest.approx(0.995)
    # Read whole at the corner that leans to the card, and reported there.
    assert np.allclose(face.asked[0], np.roll(box(0, 0), -2, axis=0)) and np.allclose(found[0].quad, face.asked[0])
    # A face surely showing another number card names it where the index leaves room for it ...
    spade = Card.parse("9S")
    leans = row_of(nine.index, 0.85)
    leans[spade.index] = 0.1
    found = recognize_with([lone_card()], [row_of(None, 0.4), leans], threshold=0.99,
                           later=no_second_look, whole_card=ScriptedWholeCard(whole_opinion("9S", 0.995)))
    assert [r.card for r in found] == [spade]
    # ... and not where the index rules it out (the 9S under 0.05 at both corners): a foreign suit's
    # pips may look surely like another card's.
    blank = row_of(None, 0.4)
    blank[spade.index] = 0.001
    found = recognize_with([lone_card()], [blank, row_of(nine.index, 0.95)], threshold=0.99,
                           later=no_second_look, whole_card=ScriptedWholeCard(whole_opinion("9S", 0.995)))
    assert len(found) == 1 and found[0].card is None
    # A face unsure, or surely a court or an ace, reads nothing: the card stays unread.
    for other in (whole_opinion("9C", 0.98), whole_opinion("cC", 0.999), whole_opinion("AC", 0.999)):
        found = recognize_with([lone_card()], [row_of(None, 0.4), row_of(nine.index, 0.95)], threshold=0.99,
                               later=no_second_look, whole_card=ScriptedWholeCard(other))
        assert len(found) == 1 and found[0].card is None
    # An index too doubtful for a second look: the card is read whole where it was reported.
    seven = Card.parse("7H")
    doubtful = row_of(nine.index, DOUBTFUL)
    doubtful[seven.index] = 0.06
    face = ScriptedWholeCard(whole_opinion("7H", 0.995))
    found = recognize_with([lone_card()], [doubtful] * 2, threshold=0.99, whole_card=face)
    assert [r.card for r in found] == [seven]
    assert len(face.asked) == 1 and np.allclose(found[0].quad, face.asked[0])


def test_a_covered_read_is_asked_whole_at_an_unread_lone_outline_at_its_index():
    # A corner found alone, read as a nine, where the finder also drew a lone outline around the same
    # index and could not read it: the whole card is asked there, and a face that is surely another card
    # refutes the read.
    nine = Card.parse("9D")
    covered, neighbour = Outline([box(100, 100)]), Outline([box(140, 100)])
    unread_lone = Outline([box(101, 99), np.roll(box(101, 99), -2, axis=0)], covered=False)
    rows = [row_of(nine.index, 0.999), row_of(None, 0.99), row_of(None, 0.99), row_of(None, 0.99)]
    face = ScriptedWholeCard(whole_opinion("cD", 0.995))
    found = recognize_with([covered, neighbour, unread_lone], rows, whole_card=face)
    assert [r.card for r in found] == [None] and found[0].face_refuted
    assert len(face.asked) == 1 and np.allclose(face.asked[0], box(101, 99))
    # A face that agrees leaves the read as it is.
    agrees = ScriptedWholeCard(whole_opinion("9D", 0.995))
    found = recognize_with([covered, neighbour, unread_lone], rows, whole_card=agrees)
    assert [r.card for r in found] == [nine]
    # A lone outline whose index lies elsewhere, or one that was read, is not asked.
    elsewhere = Outline([box(300, 300), np.roll(box(300, 300), -2, axis=0)], covered=False)
    found = recognize_with([covered, neighbour, elsewhere], rows, whole_card=ScriptedWholeCard())
    assert [r.card for r in found] == [nine]
    # One read (here as a five) is asked about its own read only: the scripted reader has one opinion.
    five = Card.parse("5C")
    face = ScriptedWholeCard(whole_opinion("5C", 0.995))
    recognize_with([covered, neighbour, unread_lone], rows[:2] + [row_of(five.index, 0.999)] * 2, whole_card=face)
    assert len(face.asked) == 1
