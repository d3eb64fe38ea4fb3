"""Card notation: every spelling docs/DESIGN.md allows parses, prints back, and bad text says why."""

import pytest

from cribbage import FULL_DECK, Card, DuplicateCardError, InvalidCardError, parse_cards


@pytest.mark.parametrize("text,expected", [
    ("5H", Card(5, "H")), ("5h", Card(5, "H")), ("10D", Card(10, "D")), ("td", Card(10, "D")),
    ("A♠", Card(1, "S")), ("k♣", Card(13, "C")), ("Q♥", Card(12, "H")), ("J♦", Card(11, "D")),
    (" 9s ", Card(9, "S")),
])
def test_every_spelling_of_a_card_parses(text, expected):
    assert Card.parse(text) == expected


def test_every_card_round_trips_through_text_and_index():
    assert len(set(FULL_DECK)) == 52
    for i, card in enumerate(FULL_DECK):
        assert Card.parse(str(card)) == card
        assert Card.from_index(i) == card and card.index == i
        assert eval(repr(card), {"Card": Card}) == card


@pytest.mark.parametrize("text,reason", [
    ("1X", "rank must be one of A 2 3 4 5 6 7 8 9 T J Q K"),
    ("11H", "rank must be one of"), ("5X", "suit must be one of C D H S"), ("5", "a rank and a suit"),
    ("", "a rank and a suit"),
])
def test_bad_card_text_names_the_problem(text, reason):
    with pytest.raises(InvalidCardError, match=reason) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_values_count_faces_as_ten():
    assert [c.value for c in parse_cards("AC 5D TH JS QC KD")] == [1, 5, 10, 10, 10, 10]


def test_a_card_twice_in_one_hand_is_an_error_naming_it():
    with pytest.raises(DuplicateCardError, match="5H appears twice") as info:
        parse_cards("5H 5D 5h JS")
    assert info.value.card == Card(5, "H")
    assert len(parse_cards("5H 5H", unique=False)) == 2
