"""cribbage.review: what another card held would have pegged, and a hand's worth over every starter."""

from __future__ import annotations

import random

import pytest

from cribbage.cards import FULL_DECK, parse_cards
from cribbage.review import better_play, play_options, starter_expectation
from cribbage.show_score import score_show


def test_play_options_score_each_card_that_fits_and_leave_out_those_that_do_not():
    options = play_options("TH 5D", "KS 5C 7H")   # count 15: a king fits (25), a 5 (20), a 7 (22)
    assert {str(c): s.points for c, s in options.items()} == {"KS": 0, "5C": 2, "7H": 0}
    assert options[parse_cards("5C")[0]].reasons == ("pair",)
    assert play_options("TH TD 9S", "3C 2C") == {parse_cards("2C")[0]: options_of("TH TD 9S 2C")}


def options_of(series):
    from cribbage.play_score import score_play
    return score_play(series)


def test_better_play_names_the_card_that_would_have_pegged_more():
    better = better_play("5H", "9C", ["9C", "TD", "5S"])   # on a 5: a ten makes fifteen, a five a pair
    assert better is not None and str(better.card) == "TD"
    assert (better.score.points, better.played_points, better.gain) == (2, 0, 2)
    assert better.to_dict()["reasons"] == ["fifteen"]


def test_better_play_is_none_when_the_card_played_pegged_most_or_as_much():
    assert better_play("5H", "TD", ["TD", "5S"]) is None          # fifteen two; the pair is also two
    assert better_play("KH QH", "JD", ["JD", "9C"]) is None       # a run of three beats nothing
    assert better_play("", "7C", ["7C", "8C"]) is None            # a lead pegs nothing


def test_a_card_over_31_is_no_option():
    assert better_play("TH TD 9S", "2C", ["2C", "5C"]) is None    # 34: the five does not fit


@pytest.mark.parametrize("crib", [False, True])
def test_starter_expectation_is_the_mean_of_score_show_over_every_starter(crib):
    rng = random.Random(7)
    sizes = (4,) if crib else (3, 4, 5)
    chosen = [parse_cards(c) for c in ("2H 6H 8H JH", "JC 5D 5S 5H", "JD JS 4C 6H", "3C 4C 5C", "5S TS JS QS KS")
              if len(c.split()) in sizes]
    for cards in chosen + [rng.sample(FULL_DECK, rng.choice(sizes)) for _ in range(25)]:
        starters = [c for c in FULL_DECK if c not in cards]
        want = sum(score_show(tuple(cards), s, crib=crib).total for s in starters) / len(starters)
        assert starter_expectation(cards, crib=crib) == pytest.approx(want)


def test_a_flush_counts_differently_in_hand_and_crib():
    hand = parse_cards("2H 6H 8H QH")
    # a hand always has its four; a crib has five only when the starter is one of the 9 hearts left
    assert starter_expectation(hand) - starter_expectation(hand, crib=True) == pytest.approx(4 - 4 * 9 / 48)


def test_better_plays_looks_back_at_a_whole_play_as_better_play_does_card_by_card():
    from cribbage.review import better_plays

    hands = {"N": parse_cards("5H 5S TD 2C"), "S": parse_cards("KC 6D 4S 3H")}
    plays = [("S", "KC", True), ("N", "2C", False), ("S", "3H", False), ("N", "TD", False), ("S", "6D", False),
             ("N", "5H", True), ("S", "4S", False), ("N", "5S", False)]
    found = better_plays(plays, hands)
    # on the king, a five made fifteen where the two made nothing; nothing else held would have done better
    assert [(str(b.card), b.score.points, b.played_points) if b else None for b in found] == \
        [None, ("5H", 2, 0), None, None, None, None, None, None]
    series, played = [], {"N": [], "S": []}
    for (player, card, fresh), got in zip(plays, found):
        series = [] if fresh else series
        held = [c for c in hands[player] if str(c) not in played[player]]
        assert got == better_play(series, card, held)
        series.append(card)
        played[player].append(card)


def test_one_pattern_worked_out_alone_counts_as_the_filled_table_does():
    from cribbage import _score_ranks as ranks

    rng = random.Random(3)
    keys = [ranks.pattern_key(c.rank for c in rng.sample(FULL_DECK, rng.choice((4, 5, 6)))) for _ in range(300)]
    ranks.clear_memo()
    alone = [ranks.pattern_points_one(k) for k in keys]
    ranks.clear_memo()
    assert alone == [ranks.pattern_points(k) for k in keys]
