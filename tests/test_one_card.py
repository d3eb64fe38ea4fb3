"""One physical card is one report: print inside a card, a card read at its two ends, two cards apart."""

import numpy as np

from cribbage.cards import Card
from vision.one_card import one_report_per_card
from vision.types import Recognition


def upright(x: float, y: float, w: float = 50, h: float = 72) -> np.ndarray:
    """An upright card's outline, clockwise from its top-left corner."""
    return np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def upside_down(x: float, y: float, w: float = 50, h: float = 72) -> np.ndarray:
    """The same outline read from its bottom-right corner (the card's other index)."""
    return np.roll(upright(x, y, w, h), -2, axis=0)


def rec(card: str | None, quad: np.ndarray, confidence: float = 0.999) -> Recognition:
    return Recognition(None if card is None else Card.parse(card), confidence, quad)


def test_an_index_read_inside_a_larger_card_is_that_card():
    big = rec("5H", upright(100, 100, 200, 290))
    at_index = rec("5H", upright(100, 100, 60, 86))
    assert one_report_per_card([at_index, big]) == [big]


def test_an_unread_outline_takes_the_reading_of_its_index_read_inside_it_from_that_corner():
    big = rec(None, upright(100, 100, 200, 290), 0.4)
    at_far_index = rec("QS", upside_down(240, 304, 60, 86))   # its corner at the big card's bottom right
    (one,) = one_report_per_card([big, at_far_index])
    assert one.card == Card.parse("QS")
    assert np.allclose(one.quad[0], [300, 390]) and np.allclose(one.quad[2], [100, 100])


def test_a_card_read_at_its_two_diagonal_indices_by_small_outlines_is_one_card_with_its_whole_outline():
    # The detector's outlines are too small (sized after another card): each covers half the card.
    top = rec("JC", upright(100, 100, 140, 200), 0.99)
    bottom = rec("JC", upside_down(160, 190, 140, 200), 0.98)
    (one,) = one_report_per_card([top, bottom])
    assert one.card == Card.parse("JC")
    assert np.allclose(one.quad, upright(100, 100, 200, 290), atol=1e-3)


def test_neighbours_in_a_row_and_the_same_card_apart_stay_two():
    row = [rec("5H", upright(100, 100)), rec("6H", upright(125, 100))]
    assert len(one_report_per_card(row)) == 2
    two_decks = [rec("5H", upright(100, 100)), rec("5H", upright(300, 100))]
    assert len(one_report_per_card(two_decks)) == 2


def test_a_read_at_the_same_index_as_a_larger_read_of_another_card_leaves_one_card_unread():
    # Cards of one deck cannot lie inside one another, and one index is not two cards: one read is
    # wrong, and which is not this step's to say.
    found = [rec("5H", upright(100, 100, 200, 290)), rec("6C", upright(100, 100, 60, 86))]
    assert [r.card for r in one_report_per_card(found)] == [None]


def test_an_unread_outline_over_two_cards_is_no_card():
    blob = rec(None, upright(100, 100, 110, 72), 0.3)
    cards = [rec("5H", upright(100, 100)), rec("9D", upright(158, 100))]
    assert one_report_per_card([blob] + cards) == cards


def test_the_order_given_is_kept():
    found = [rec("2C", upright(400, 100)), rec("5H", upright(100, 100, 200, 290)),
             rec("5H", upright(100, 100, 60, 86)), rec("KD", upright(700, 100))]
    assert [str(r.card) for r in one_report_per_card(found)] == ["2C", "5H", "KD"]


def test_a_card_read_again_at_an_index_that_runs_its_outline_over_a_neighbour_is_one_card():
    # A deck printing an index in all four corners, in a row: read again at a corner the
    # finder took for a covered card's, the outline runs off over the card beside it, sharing a fifth
    # of the true one; the index it was read at lies on the true card. (Outlines from a bench scene.)
    true = rec("2C", np.float32([[355, 41], [450, 82], [395, 219], [300, 178]]))
    askew = rec("2C", np.float32([[314, 184], [241, 155], [283, 52], [356, 81]]))
    assert one_report_per_card([true, askew]) == [true]


def test_a_card_read_at_its_two_diagonal_indices_by_outlines_that_do_not_meet_is_one_card():
    # Outlines sized after a card half as long: they share nothing, and lie at the card's two ends.
    top = rec("QH", upright(100, 100, 100, 145))
    bottom = rec("QH", upside_down(200, 245, 100, 145))
    (one,) = one_report_per_card([top, bottom])
    assert np.allclose(one.quad, upright(100, 100, 200, 290), atol=1e-3)
    # The same card twice, far apart and each the other way up, is two copies (two decks).
    far = rec("QH", upside_down(700, 900, 100, 145))
    assert len(one_report_per_card([top, far])) == 2


def test_two_cards_each_read_at_an_index_on_the_others_outline_are_both_left_unread():
    # Where two cards overlap one lies over the other, so only one of their indices there can show.
    # (Outlines from a real photo: a 10 of spades, and a detector's outline inside it read as AH.)
    ten = rec("TS", np.float32([[640, 47], [948, 52], [941, 485], [633, 481]]))
    ace = rec("AH", np.float32([[755, 303], [592, 299], [598, 69], [761, 74]]))
    assert [r.card for r in one_report_per_card([ten, ace])] == [None, None]
    # In a row the top card's index lies on the card under it, and not the other way: both stand.
    under, top = rec("5H", upright(100, 100)), rec("6H", upright(125, 100))
    assert [str(r.card) for r in one_report_per_card([under, top])] == ["5H", "6H"]


def test_a_read_its_whole_face_refuted_still_contradicts_a_card_read_across_it():
    # The ten's index was read, and its face said it is no ten: the face refutes the read, not the
    # ten's outline, so the ace read across it is no more trusted than before.
    refuted_ten = Recognition(None, 0.999, np.float32([[640, 47], [948, 52], [941, 485], [633, 481]]),
                              refuted=Card.parse("TS"))
    ace = rec("AH", np.float32([[755, 303], [592, 299], [598, 69], [761, 74]]))
    kept = one_report_per_card([refuted_ten, ace])
    assert [r.card for r in kept] == [None, None] and kept[0].face_refuted
    # Refuted as the very card read across it, it contradicts nothing.
    refuted_ace = Recognition(None, 0.999, refuted_ten.quad, refuted=Card.parse("AH"))
    assert [str(r.card) for r in one_report_per_card([refuted_ace, ace])] == ["None", "AH"]


def test_a_card_whose_outline_grows_from_its_far_index_takes_in_a_read_kept_before_it():
    # A deck printing an index in all four corners, read at three of them (a real photo, shrunk): the
    # read at its top-left corner is cut a little narrow, the one at its top-right corner runs off
    # over the table, and the one at its far corner, upside down, gives the card's whole outline. Only
    # once that outline has grown does it reach the top-right read.
    top_left = rec("3D", np.float32([[181, 301], [243, 307], [234, 394], [172, 388]]), 1.0)
    top_right = rec("3D", np.float32([[236, 302], [296, 306], [291, 392], [231, 388]]), 1.0)
    far = rec("3D", np.float32([[245, 398], [204, 399], [201, 341], [242, 340]]), 0.9984)
    (one,) = one_report_per_card([top_left, top_right, far])
    assert one.card == Card.parse("3D")
    assert np.allclose(one.quad[0], [181, 301], atol=1) and np.allclose(one.quad[2], [245, 398], atol=2)
