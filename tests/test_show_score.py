"""The show: every rule of counting a hand or crib, famous hands, and invariants checked on random hands."""

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage import (FULL_DECK, Card, DuplicateCardError, InvalidCardError, parse_cards, score_show,
                      show_total)


def count(hand, starter, crib=False):
    """Score with both paths and insist they agree."""
    full = score_show(hand.split(), starter, crib=crib)
    fast = show_total(parse_cards(hand), Card.parse(starter), crib=crib)
    assert fast == full.total
    return full


def kinds(score):
    return [item.kind for item in score.items]


def reference_total(hand, starter, crib=False):
    """Textbook counting, combination by combination, written independently of cribbage.show_score."""
    cards = list(hand) + [starter]
    points = 0
    for size in range(2, len(cards) + 1):
        for combo in combinations(cards, size):
            if sum(c.value for c in combo) == 15:
                points += 2
    for a, b in combinations(cards, 2):
        if a.rank == b.rank:
            points += 2
    for size in range(len(cards), 2, -1):
        runs = [combo for combo in combinations(cards, size)
                if len({c.rank for c in combo}) == size
                and max(c.rank for c in combo) - min(c.rank for c in combo) == size - 1]
        if runs:
            points += size * len(runs)
            break
    if len({c.suit for c in hand}) == 1:
        if starter.suit == hand[0].suit:
            points += len(hand) + 1
        elif not crib:
            points += len(hand)
    points += sum(1 for c in hand if c.rank == 11 and c.suit == starter.suit)
    return points


# --- fifteens -----------------------------------------------------------------------------------

def test_each_fifteen_scores_two():
    score = count("5H TD 2C 3S", "KH")  # 5+T, 5+K, T+2+3, K+2+3
    assert [i.kind for i in score.items] == ["fifteen"] * 4
    assert score.total == 8


def test_fifteens_count_every_combination_of_cards():
    score = count("5H 5D 5C 5S", "KH")  # four 5+K, four 5+5+5
    assert kinds(score).count("fifteen") == 8


def test_faces_and_tens_count_ten_toward_fifteen():
    for face in ("TH", "JH", "QH", "KH"):
        assert count(f"5C {face} 9S 7D", "AC").total >= 2


# --- pairs --------------------------------------------------------------------------------------

def test_a_pair_scores_two():
    score = count("9H 9D AC 3S", "KH")
    assert [(i.kind, i.points) for i in score.items] == [("pair", 2)]


def test_pairs_are_by_rank_so_king_and_jack_are_no_pair():
    assert count("KH JD 2C 4S", "8H").total == 0


def test_pair_royal_scores_six():
    score = count("9H 9D 9C 2S", "KH")
    assert [(i.kind, i.points) for i in score.items] == [("pair royal", 6)]


def test_double_pair_royal_scores_twelve():
    score = count("8H 8D 8C 8S", "KH")
    assert [(i.kind, i.points) for i in score.items] == [("double pair royal", 12)]


def test_two_pairs_score_four():
    assert count("9H 9D 2C 2S", "KH").total == 4


# --- runs ---------------------------------------------------------------------------------------

def test_a_run_scores_one_a_card():
    assert count("TH JD QC 2S", "4H").total == 3
    assert count("9H TD JC QS", "2H").total == 4
    assert count("AH 2D 3C 4S", "QH").total == 4 + 2 * 2  # run of four; fifteens Q+A+4, Q+2+3


def test_a_run_of_five_scores_five():
    score = count("9H TD JC QS", "KH")
    assert [i for i in score.items if i.kind == "run"][0].points == 5
    assert score.total == 5


def test_ace_is_low_so_queen_king_ace_is_no_run():
    assert [i for i in count("QH KD AC 7S", "2H").items if i.kind == "run"] == []


def test_double_run_of_three_is_eight():
    score = count("TH TD JC QS", "2H")
    assert sorted(kinds(score)) == ["pair", "run", "run"]
    assert score.total == 8


def test_double_run_of_four_is_ten():
    score = count("7H 7D 8C 9S", "TH")
    assert sum(i.points for i in score.items if i.kind in ("run", "pair")) == 10


def test_triple_run_is_fifteen():
    score = count("7H 7D 7C 8S", "9H")
    assert sum(i.points for i in score.items if i.kind in ("run", "pair royal")) == 15


def test_double_double_run_is_sixteen():
    score = count("7H 7D 8C 8S", "9H")
    assert sum(i.points for i in score.items if i.kind in ("run", "pair")) == 16


def test_a_run_needs_consecutive_ranks():
    assert [i for i in count("2H 3D 5C 6S", "9H").items if i.kind == "run"] == []


# --- flush --------------------------------------------------------------------------------------

def test_four_card_flush_in_hand_scores_four():
    score = count("2H 4H 6H 8H", "KS")
    assert [(i.kind, i.points) for i in score.items if i.kind == "flush"] == [("flush", 4)]


def test_flush_with_the_starter_scores_five():
    score = count("2H 4H 6H 8H", "KH")
    assert [(i.kind, i.points) for i in score.items if i.kind == "flush"] == [("flush", 5)]


def test_crib_flush_needs_all_five():
    assert [i for i in count("2H 4H 6H 8H", "KS", crib=True).items if i.kind == "flush"] == []
    assert [i.points for i in count("2H 4H 6H 8H", "KH", crib=True).items if i.kind == "flush"] == [5]


def test_flush_of_three_of_the_hand_and_starter_is_no_flush():
    assert [i for i in count("2H 4H 6H 8S", "KH").items if i.kind == "flush"] == []


def test_three_card_hand_flush_scores_three_and_four_with_starter():
    assert [i.points for i in count("2H 4H 6H", "KS").items if i.kind == "flush"] == [3]
    assert [i.points for i in count("2H 4H 6H", "KH").items if i.kind == "flush"] == [4]


def test_five_card_hand_flush_scores_five_and_six_with_starter():
    assert [i.points for i in count("2H 4H 6H 8H QH", "KS").items if i.kind == "flush"] == [5]
    assert [i.points for i in count("2H 4H 6H 8H QH", "KH").items if i.kind == "flush"] == [6]


# --- nobs ---------------------------------------------------------------------------------------

def test_his_nobs_is_a_jack_of_the_starters_suit():
    score = count("JH 2D 4C 8S", "KH")
    assert [(i.kind, i.points) for i in score.items if i.kind == "nobs"] == [("nobs", 1)]


def test_a_jack_of_another_suit_is_not_nobs():
    assert [i for i in count("JD 2D 4C 8S", "KH").items if i.kind == "nobs"] == []


def test_his_heels_is_not_counted_at_the_show():
    """A jack turned as starter pegs two to the dealer at the cut; at the show it is just a ten."""
    assert count("2D 4C 8S 6C", "JH").total == 0


def test_nobs_counts_in_the_crib_too():
    assert [i.kind for i in count("JH 2D 4C 8S", "KH", crib=True).items] == ["nobs"]


# --- famous hands -------------------------------------------------------------------------------

def test_the_29_hand():
    score = count("5H 5D 5C JS", "5S")
    assert score.total == 29


def test_a_jack_and_three_fives_with_another_starter_is_28_or_less():
    assert count("5H 5D 5C 5S", "JS").total == 28  # the jack turned: no nobs
    assert count("5H 5D 5C JS", "5S").total == 29


def test_famous_24_hands():
    assert count("4H 4D 5C 6S", "6D").total == 24
    assert count("3H 3D 3C 3S", "9H").total == 24  # six fifteens 3+3+9, double pair royal


def test_nineteen_is_the_hand_worth_nothing():
    score = count("2H 4D 6C 8S", "TD")
    assert score.total == 0 and score.items == () and score.announcement() == "nineteen"


# --- totals, breakdown and announcement ----------------------------------------------------------

def test_announcement_reads_the_count_the_traditional_way():
    assert count("5H TD 9C 9S", "2H").announcement() == "fifteen two, and a pair is four"
    assert count("5H TD 7C 7S", "KH").announcement() == "fifteen two, fifteen four, and a pair is six"
    assert count("TH TD JC QS", "2H").announcement() == "a double run of three is eight"
    assert (count("2H 3D 4C QS", "QH").announcement()
            == "fifteen two, fifteen four, a pair is six, and a run of three is nine")
    assert (count("2H 4H 6H 9H", "KH").announcement()
            == "fifteen two, fifteen four, and a flush of five is nine")
    assert count("5H 5D 5C JS", "5S").announcement().endswith("and his nobs is twenty-nine")


def test_announcement_says_another_for_a_repeated_combination_and_no_and_before_a_fifteen():
    assert count("9H 9D AC AS", "KH").announcement() == "a pair is two, and another pair is four"
    assert count("AD 4C 8S 6C", "JH").announcement() == "fifteen two, fifteen four"


def test_announcement_of_runs_with_pairs_inside_them():
    assert count("TH TD TC JS", "QH").announcement() == "a triple run of three is fifteen"
    assert count("TH TD JC JS", "QH").announcement() == "a double double run of three is sixteen"
    assert count("3H 3D 3C 4S", "5D").announcement() == \
        "fifteen two, fifteen four, fifteen six, and a triple run of three is twenty-one"
    six = count("3H 3D 4C 4S 5D", "5H")  # seven-card cribbage: three pairs inside a run of three
    assert six.announcement().endswith("and eight runs of three is thirty-eight") and six.total == 38


def test_to_dict_is_json_ready():
    import json
    data = json.loads(json.dumps(count("5H 5D 5C JS", "5S").to_dict()))
    assert data["total"] == 29 and data["starter"] == "5S" and data["crib"] is False
    assert data["hand"] == ["5H", "5D", "5C", "JS"]
    assert sum(item["points"] for item in data["items"]) == 29
    assert {"kind": "nobs", "cards": ["JS"], "points": 1} in data["items"]


def test_a_card_twice_is_an_error_naming_it():
    with pytest.raises(DuplicateCardError, match="5H"):
        score_show("5H 5H 5C JS".split(), "5S")
    with pytest.raises(DuplicateCardError, match="5S"):
        score_show("5H 5D 5S JS".split(), "5S")
    with pytest.raises(DuplicateCardError, match="5S"):
        show_total(parse_cards("5H 5D 5S JS"), Card.parse("5S"))


@pytest.mark.parametrize("hand", ["5H 5D", "5H 5D 5C JS 2C 3C"])
def test_a_hand_holds_three_four_or_five_cards(hand):
    with pytest.raises(InvalidCardError, match="3, 4 or 5"):
        score_show(hand.split(), "5S")
    with pytest.raises(InvalidCardError, match="3, 4 or 5"):
        show_total(parse_cards(hand), Card.parse("5S"))


def test_a_crib_holds_four_cards():
    with pytest.raises(InvalidCardError, match="crib holds 4"):
        score_show("5H 5D 5C".split(), "5S", crib=True)


def test_bad_card_text_is_an_invalid_card_error():
    with pytest.raises(InvalidCardError, match="'1X' is not a card"):
        score_show(["1X", "5D", "5C", "JS"], "5S")


hands = st.integers(3, 5).flatmap(lambda n: st.lists(st.sampled_from(FULL_DECK), min_size=n + 1,
                                                     max_size=n + 1, unique=True))


@settings(max_examples=400, deadline=None)
@given(hands, st.booleans())
def test_scores_agree_with_textbook_counting(cards, crib):
    hand, starter = tuple(cards[:-1]), cards[-1]
    if crib and len(hand) != 4:
        crib = False
    score = score_show(hand, starter, crib=crib)
    assert score.total == reference_total(hand, starter, crib)
    assert show_total(hand, starter, crib=crib) == score.total


@settings(max_examples=200, deadline=None)
@given(hands, st.randoms(use_true_random=False))
def test_a_score_never_changes_when_the_hand_is_reordered(cards, rnd):
    hand, starter = cards[:-1], cards[-1]
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    assert score_show(shuffled, starter).total == score_show(hand, starter).total
    assert show_total(tuple(shuffled), starter) == show_total(tuple(hand), starter)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_show_total_is_the_sum_of_its_items(cards):
    score = score_show(cards[:-1], cards[-1])
    assert score.total == sum(item.points for item in score.items)
    for item in score.items:
        assert set(item.cards) <= set(score.hand) | {score.starter}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=5, unique=True), st.booleans())
def test_19_25_26_27_are_impossible_four_card_scores(cards, crib):
    assert show_total(tuple(cards[:4]), cards[4], crib=crib) not in (19, 25, 26, 27)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_the_announcement_ends_on_the_total(cards):
    from cribbage.words import number_word

    score = score_show(cards[:-1], cards[-1])
    spoken = score.announcement()
    assert spoken == "nineteen" if score.total == 0 else spoken.endswith(" " + number_word(score.total))
