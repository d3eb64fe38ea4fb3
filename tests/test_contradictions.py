"""Two reads contradicting each other settled by cutting each larger (vision.contradictions)."""

import numpy as np

from cribbage.cards import Card
from test_row_recut import IMAGE, ShapeClassifier, cut_as_is
from vision.contradictions import settle_contradictions
from vision.crops import parallelogram
from vision.finder import Candidate
from vision.one_card import contradicting_pairs
from vision.recognizer import Recognizer
from vision.types import Recognition

ACROSS, DOWN = np.float32([70, 0]), np.float32([0, 100])


def read_at(x, index, size=1.0):
    return Recognition(Card.from_index(index), 0.999, parallelogram(np.float32([x, 50]), ACROSS * size, DOWN * size))


# A card read at its corner, and an outline 1.6 times its size put 5 px off, on its face, read as
# another card: each one's index lies on the other's outline, and they overlap too little to be one place.
TRUE, OFF = read_at(100, 3), read_at(105, 7, 1.6)
CORNERS = {(100, 50): 3, (105, 50): 7}


def shapes(misread=None, misread_from=190.0):
    """Reads both corners up to 2.5 times the true card's length; `misread` from misread_from on."""
    return ShapeClassifier(dict(CORNERS), longest=250.0, misread=misread, misread_from=misread_from)


def test_the_two_reads_contradict():
    assert contradicting_pairs([TRUE, OFF]) == [(0, 1)]
    assert contradicting_pairs([TRUE, read_at(160, 7)]) == []   # a neighbour's index beside it, not on it


def test_the_read_that_changes_when_cut_larger_is_dropped():
    assert settle_contradictions(IMAGE, shapes({(105, 50): 30}), cut_as_is, [TRUE, OFF]) == [TRUE]
    assert settle_contradictions(IMAGE, shapes({(100, 50): 30}, misread_from=120.0), cut_as_is, [TRUE, OFF]) == [OFF]


def test_one_unread_when_cut_larger_is_dropped():
    assert settle_contradictions(IMAGE, shapes({(105, 50): None}), cut_as_is, [TRUE, OFF]) == [TRUE]


def test_both_kept_where_both_hold_or_neither():
    assert settle_contradictions(IMAGE, shapes(), cut_as_is, [TRUE, OFF]) == [TRUE, OFF]
    neither = shapes({(100, 50): 30, (105, 50): 31}, misread_from=120.0)
    assert settle_contradictions(IMAGE, neither, cut_as_is, [TRUE, OFF]) == [TRUE, OFF]


def test_where_both_hold_the_one_whose_card_is_read_elsewhere_is_dropped():
    # One deck holds each card once: the 7 read off the card is the misread where a 7 lies elsewhere.
    elsewhere = read_at(300, 7)
    assert settle_contradictions(IMAGE, shapes(), cut_as_is, [TRUE, OFF, elsewhere]) == [TRUE, elsewhere]
    neither = shapes({(100, 50): 30, (105, 50): 31}, misread_from=120.0)
    assert settle_contradictions(IMAGE, neither, cut_as_is, [TRUE, OFF, elsewhere]) == [TRUE, elsewhere]
    # The same 7 read again on OFF's own outline is the same card, not another: both stay.
    again = read_at(106, 7, 1.6)
    assert settle_contradictions(IMAGE, shapes(), cut_as_is, [TRUE, OFF, again]) == [TRUE, OFF, again]
    # Both cards read elsewhere: nothing to choose by.
    both = [TRUE, OFF, elsewhere, read_at(400, 3)]
    assert settle_contradictions(IMAGE, shapes(), cut_as_is, both) == both


def test_reads_that_contradict_nothing_are_not_cut_again():
    classifier = ShapeClassifier({(100, 50): 3, (160, 50): 7})
    neighbours = [TRUE, read_at(160, 7)]
    assert settle_contradictions(IMAGE, classifier, cut_as_is, neighbours) == neighbours
    assert classifier.asked == []


def test_the_recognizer_reports_the_read_that_holds_and_not_two_unread_cards():
    classifier = shapes({(105, 50): 30})
    candidates = [Candidate((TRUE.quad,), covered=True, by_corner=True),
                  Candidate((OFF.quad,), covered=True, by_corner=True)]
    found = Recognizer(classifier, finder=lambda image: candidates, cropper=cut_as_is,
                       whole_card=None).recognize(IMAGE)
    assert [r.card for r in found] == [Card.from_index(3)]
    holding = Recognizer(shapes(), finder=lambda image: candidates, cropper=cut_as_is, whole_card=None)
    assert [r.card for r in holding.recognize(IMAGE)] == [None]   # both hold: one card, unread
