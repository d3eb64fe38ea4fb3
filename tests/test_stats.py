"""Exhaustive statistics: all 12,994,800 hands against the published table, and the fast method
cross-checked card by card against score_show."""

import random
from collections import Counter
from math import comb

import pytest

from cribbage import score_show
from test_show_score import reference_total
from cribbage.stats import (cards_of_pattern, distribution_summary, hand_distribution,
                            pattern_distribution)

# Lumetta, "Amusing Cribbage Facts" (lumetta.web.engr.illinois.edu/humor/cribbage.html), reproduced
# in Wikipedia's "Cribbage statistics": hands (four cards and a starter) by score.
PUBLISHED = {0: 1009008, 1: 99792, 2: 2813796, 3: 505008, 4: 2855676, 5: 697508, 6: 1800268,
             7: 751324, 8: 1137236, 9: 361224, 10: 388740, 11: 51680, 12: 317340, 13: 19656,
             14: 90100, 15: 9168, 16: 58248, 17: 11196, 18: 2708, 19: 0, 20: 8068, 21: 2496,
             22: 444, 23: 356, 24: 3680, 25: 0, 26: 0, 27: 0, 28: 76, 29: 4}
PUBLISHED_CRIBS_OF_NOTHING = 1_022_208  # Wikipedia, "Cribbage statistics"


def test_published_table_covers_every_hand():
    assert sum(PUBLISHED.values()) == comb(52, 4) * 48 == 12_994_800


def test_every_four_card_hand_scores_as_published():
    distribution = hand_distribution()
    assert {score: distribution.get(score, 0) for score in range(30)} == PUBLISHED
    assert max(distribution) == 29


def test_exactly_four_hands_score_29_and_19_25_26_27_never_occur():
    distribution = hand_distribution()
    assert distribution[29] == 4
    assert all(score not in distribution for score in (19, 25, 26, 27))


def test_crib_flush_rule_gives_the_published_cribs_of_nothing():
    cribs = hand_distribution(crib=True)
    assert cribs[0] == PUBLISHED_CRIBS_OF_NOTHING
    assert sum(cribs.values()) == 12_994_800


def test_crib_differs_from_hand_only_by_four_card_flushes():
    """A four-card flush without the starter's suit scores 4 in a hand and nothing in a crib:
    4 suits x C(13,4) flushes x 39 starters of other suits."""
    hands, cribs = hand_distribution(), hand_distribution(crib=True)
    assert sum(hands.values()) == sum(cribs.values())
    assert sum(score * n for score, n in hands.items()) - sum(score * n for score, n in cribs.items()) \
        == 4 * 4 * comb(13, 4) * 39


@pytest.mark.parametrize("size, hands", [(3, comb(52, 3) * 49), (5, comb(52, 5) * 47)])
def test_three_and_five_card_hands_are_all_counted(size, hands):
    assert sum(hand_distribution(hand_size=size).values()) == hands


def brute_force(hand_ranks, starter_rank, crib, count=None):
    """Score every card-level hand of the pattern one by one: with score_show, or with `count`."""
    count = count or (lambda hand, starter, crib: score_show(hand, starter, crib=crib).total)
    return dict(sorted(Counter(count(hand, starter, crib)
                               for hand, starter in cards_of_pattern(hand_ranks, starter_rank)).items()))


def test_cards_of_pattern_lists_every_distinct_hand_once():
    hands = list(cards_of_pattern((5, 5, 11, 2), 5))
    assert len(hands) == len(set(hands)) == comb(4, 2) * 4 * 4 * 2


STRUCTURAL_PATTERNS = [
    ((5, 5, 5, 11), 5),       # the 29 hand's pattern: nobs with every suit arrangement
    ((11, 11, 4, 6), 11),     # starter a jack, jacks in hand: never nobs
    ((1, 3, 7, 11), 2),       # four distinct ranks with a jack: flushes and nobs together
    ((2, 4, 6, 8), 10),       # flushes only
    ((2, 4, 6, 8), 4),        # starter pairs a hand rank: a five-card flush is impossible
    ((11, 11, 11, 11), 5),    # four jacks
    ((3, 3, 4, 4), 5),        # double double run
    ((9, 10, 11), 12),        # three-card hand
    ((1, 2, 3, 11, 13), 11),  # five-card hand, starter a jack
]


@pytest.mark.parametrize("hand_ranks, starter_rank, crib",
                         [(h, s, False) for h, s in STRUCTURAL_PATTERNS]
                         + [(h, s, True) for h, s in STRUCTURAL_PATTERNS if len(h) == 4])
def test_fast_counting_matches_brute_force_on_structural_patterns(hand_ranks, starter_rank, crib):
    """Checked against textbook counting (test_show_score.reference_total), which shares no code with the
    rules engine, so the rank scoring is cross-checked here as well as the suit counting."""
    expected = brute_force(hand_ranks, starter_rank, crib, count=reference_total)
    assert pattern_distribution(hand_ranks, starter_rank, crib=crib) == expected


def test_fast_counting_matches_brute_force_on_random_patterns():
    rnd = random.Random(20261122)
    checked = 0
    while checked < 150:
        size = rnd.choice((3, 4, 4, 4, 5))
        ranks = [rnd.randint(1, 13) for _ in range(size)]
        starter = rnd.randint(1, 13)
        counts = Counter(ranks + [starter])
        if max(counts.values()) > 4:
            continue
        crib = size == 4 and rnd.random() < 0.5
        assert pattern_distribution(ranks, starter, crib=crib) == brute_force(ranks, starter, crib), \
            (ranks, starter, crib)
        checked += 1


def test_summary_lists_every_score_with_mean():
    summary = distribution_summary(hand_distribution(), crib=False)
    assert list(summary["distribution"]) == [str(n) for n in range(30)]
    assert summary["hands"] == 12_994_800 and summary["crib"] is False
    assert summary["mean"] == pytest.approx(sum(s * n for s, n in PUBLISHED.items()) / 12_994_800)


def all_patterns(size=4):
    """Every (hand ranks, starter rank) a deck allows."""
    from itertools import combinations_with_replacement
    for hand in combinations_with_replacement(range(1, 14), size):
        for starter in range(1, 14):
            if max(Counter(hand + (starter,)).values()) <= 4:
                yield hand, starter


def test_published_24_hands_are_the_third_highest_and_score_24_with_any_suits():
    """Wikipedia, "Cribbage statistics": A7777, 33339, 36666, 44447, 44556, 44566, 45566, 67788, 77889."""
    published = {(1, 7, 7, 7, 7), (3, 3, 3, 3, 9), (3, 6, 6, 6, 6), (4, 4, 4, 4, 7), (4, 4, 5, 5, 6),
                 (4, 4, 5, 6, 6), (4, 5, 5, 6, 6), (6, 7, 7, 8, 8), (7, 7, 8, 8, 9)}
    found = set()
    for hand, starter in all_patterns():
        scores = pattern_distribution(hand, starter)
        assert max(scores) in (28, 29) or max(scores) <= 24
        if 24 in scores:
            assert set(scores) == {24}, (hand, starter)  # no suit arrangement adds a point
            found.add(tuple(sorted(hand + (starter,))))
    assert found == published


def test_a_hand_with_a_two_scores_at_most_20():
    """Wikipedia, "Cribbage statistics": the best with a 2 is 22229, or 26778 as a four-card flush."""
    best = {}
    for hand, starter in all_patterns():
        if 2 in hand or starter == 2:
            top = max(pattern_distribution(hand, starter))
            best.setdefault(top, set()).add(tuple(sorted(hand + (starter,))))
    assert max(best) == 20
    # The article overlooks 2 5 5 5 5 (four 5+5+5 fifteens, 8, and a double pair royal, 12).
    assert best[20] == {(2, 2, 2, 2, 9), (2, 6, 7, 7, 8), (2, 5, 5, 5, 5)}


def test_a_hand_holding_a_five_scores_at_least_two():
    for hand, starter in all_patterns():
        if 5 in hand or starter == 5:
            assert min(pattern_distribution(hand, starter)) >= 2, (hand, starter)
