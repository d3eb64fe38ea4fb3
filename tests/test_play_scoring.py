"""The play: what the last card of a series earns, by the rules, and against a naive reference."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage import FULL_DECK, DuplicateCardError, IllegalPlayError, InvalidCardError, score_play, series_count


def peg(text):
    return score_play(text.split())


def test_fifteen_scores_two():
    score = peg("7H 8D")
    assert (score.count, score.points, score.reasons) == (15, 2, ("fifteen",))
    assert score.announcement() == "fifteen two"


def test_thirty_one_scores_two():
    score = peg("TH JD QH AC")
    assert (score.count, score.points, score.reasons) == (31, 2, ("thirty-one",))
    assert score.announcement() == "thirty-one for two"


def test_a_count_past_31_is_an_illegal_play():
    with pytest.raises(IllegalPlayError, match="^34 is over 31"):
        peg("TH JD QH 4C")


def test_a_pair_scores_two():
    assert peg("TH TD").reasons == ("pair",) and peg("TH TD").points == 2


def test_pairs_are_by_rank_so_king_on_jack_is_no_pair():
    assert peg("JH KD").points == 0


def test_pair_royal_scores_six():
    score = peg("9H 9D 9C")
    assert (score.points, score.reasons) == (6, ("pair royal",))
    assert score.announcement() == "twenty-seven, pair royal for six"


def test_double_pair_royal_scores_twelve():
    assert peg("4H 4D 4C 4S").points == 12


def test_pairs_only_among_the_latest_cards_of_the_same_rank():
    assert peg("9H 9D 2C 9C").points == 0  # the 2 breaks the pair
    assert peg("9H 2C 9D 9C").reasons == ("pair",)


def test_a_run_of_three_in_order():
    assert peg("3H 4D 5C").reasons == ("run of 3",)


def test_a_run_is_formed_in_any_order():
    score = peg("7H 5D 6C")
    assert (score.points, score.reasons) == (3, ("run of 3",))
    assert peg("3H 5D 4C 6S").points == 4


def test_a_run_broken_by_an_intervening_card_does_not_count():
    assert peg("3H 4D KC 5S").points == 0
    assert peg("3H 4D 4C 5S").points == 0  # the pair in between breaks the run


def test_the_longest_run_among_the_latest_cards_counts():
    assert peg("KH 2D 3C 4S").reasons == ("run of 3",)
    assert peg("AS 3H 2D 5C 4S").reasons == ("fifteen", "run of 5")
    assert peg("3S 5D 4C 2D 6S 7H").reasons == ("run of 6",)


def test_fifteen_and_a_pair_royal_together():
    score = peg("5H 5D 5C")
    assert (score.points, score.reasons) == (8, ("fifteen", "pair royal"))
    assert score.announcement() == "fifteen two, and a pair royal is eight"


def test_a_count_that_scores_nothing_is_announced_as_the_count():
    assert peg("TH AD KC").announcement() == "twenty-one"


def test_a_run_is_announced_with_the_count():
    assert peg("KH 7D 6C 8S").announcement() == "thirty-one for two, and a run of three is five"
    assert peg("QH 7D 6C 5S").announcement() == "twenty-eight, run of three for three"


def test_series_count_sums_values_faces_ten():
    assert series_count("KH AD 5C".split()) == 16


def test_a_card_twice_in_a_series_is_an_error():
    with pytest.raises(DuplicateCardError):
        peg("5H 5H")


def test_bad_card_is_an_invalid_card_error():
    with pytest.raises(InvalidCardError):
        peg("5H 1X")


def test_to_dict():
    assert peg("7H 8D").to_dict() == {"count": 15, "points": 2, "reasons": ["fifteen"],
                                       "announcement": "fifteen two"}


def naive_play_points(cards):
    """Reference: try every tail of the series for pairs and runs, the obvious way."""
    count = sum(c.value for c in cards)
    points = 2 if count in (15, 31) else 0
    same = 1
    while same < len(cards) and cards[-1 - same].rank == cards[-1].rank:
        same += 1
    points += {1: 0, 2: 2, 3: 6, 4: 12}[same]
    for k in range(len(cards), 2, -1):
        ranks = sorted(c.rank for c in cards[-k:])
        if ranks == list(range(ranks[0], ranks[0] + k)):
            points += k
            break
    return points


def legal_series():
    return st.lists(st.sampled_from(FULL_DECK), min_size=1, max_size=8, unique=True).filter(
        lambda cards: sum(c.value for c in cards) <= 31)


@settings(max_examples=500, deadline=None)
@given(legal_series())
def test_play_scoring_agrees_with_naive_reference(cards):
    assert score_play(cards).points == naive_play_points(cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([c for c in FULL_DECK if c.rank <= 7]), min_size=3, max_size=7,
                unique=True).filter(lambda cards: sum(c.value for c in cards) <= 31))
def test_low_card_series_agree_with_naive_reference(cards):
    """Low cards make long runs and pairs common, so the reference is exercised where it matters."""
    assert score_play(cards).points == naive_play_points(cards)


@settings(max_examples=300, deadline=None)
@given(legal_series())
def test_the_announcement_ends_on_the_points_or_says_the_count(cards):
    from cribbage.words import number_word

    score = score_play(cards)
    spoken = score.announcement()
    if score.points:
        assert spoken.endswith(" " + number_word(score.points))
    else:
        assert spoken == number_word(score.count)
