"""Variants as data (Hoyle, Hoyle's five-card rules, Bicycle's three- and four-hand rules) and the
agreed options: the lurch line and the modern skunk lines."""

import pytest

from cribbage import CribbageError
from cribbage.variants import (FIVE_CARD, FOUR_PLAYERS, SEVEN_CARD, SIX_CARD, THREE_PLAYERS, VARIANTS,
                               Options, margin, target_of, variant_named)


def test_every_variant_makes_a_crib_of_four():
    for v in VARIANTS.values():
        assert v.crib_size == 4, v.name


@pytest.mark.parametrize("variant,dealt,hand,target", [
    (FIVE_CARD, 5, 3, 61), (SIX_CARD, 6, 4, 121), (SEVEN_CARD, 7, 5, 181),
    (THREE_PLAYERS, 5, 4, 121), (FOUR_PLAYERS, 5, 4, 121)])
def test_cards_dealt_kept_and_the_game(variant, dealt, hand, target):
    assert (variant.dealt, variant.hand, variant.target) == (dealt, hand, target)


def test_five_card_gives_three_for_last_and_plays_one_series():
    assert FIVE_CARD.three_for_last == 3 and FIVE_CARD.single_series
    assert not any(v.single_series or v.three_for_last for v in (SIX_CARD, SEVEN_CARD))


def test_three_player_crib_takes_one_card_from_the_pack():
    assert THREE_PLAYERS.laid_away == 1 and THREE_PLAYERS.crib_from_pack == 1


def test_partners_sit_opposite():
    assert [FOUR_PLAYERS.side_of(s) for s in range(4)] == [0, 1, 0, 1] and FOUR_PLAYERS.sides == 2
    assert [THREE_PLAYERS.side_of(s) for s in range(3)] == [0, 1, 2]


def test_a_loser_short_of_61_in_121_is_lurched():
    assert margin(60, 121, "lurch") == ("lurch", 2)
    assert margin(61, 121, "lurch") == ("single", 1)


def test_modern_skunk_lines_for_121_and_scaled():
    assert margin(90, 121, "skunk") == ("skunk", 2)
    assert margin(91, 121, "skunk") == ("single", 1)
    assert margin(60, 121, "skunk") == ("double skunk", 3)
    assert margin(45, 61, "skunk") == ("skunk", 2) and margin(46, 61, "skunk") == ("single", 1)
    assert margin(30, 61, "skunk") == ("double skunk", 3)
    assert margin(135, 181, "skunk") == ("skunk", 2) and margin(90, 181, "lurch") == ("lurch", 2)


def test_the_target_can_be_overridden():
    assert target_of(THREE_PLAYERS, Options(target=61)) == 61
    assert target_of(THREE_PLAYERS, Options()) == 121


@pytest.mark.parametrize("kwargs,reason", [
    ({"ending": "blitz"}, "ending 'blitz'"), ({"renege": "hang"}, "renege 'hang'"),
    ({"target": 0}, "between 1 and 1000")])
def test_options_say_what_is_wrong(kwargs, reason):
    with pytest.raises(CribbageError, match=reason):
        Options(**kwargs)


def test_options_round_trip_as_data():
    o = Options(muggins=False, overclaim_penalty=True, ending="skunk", target=61)
    assert Options.from_dict(o.to_dict()) == o


def test_an_unknown_variant_lists_the_known_ones():
    with pytest.raises(CribbageError, match="five-card, six-card"):
        variant_named("eight-card")
