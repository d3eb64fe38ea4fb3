"""Exhaustive score distributions: every hand of the deck with every starter, counted in well under a second.

There are 12,994,800 four-card hands with a starter (52C4 x 48); scoring each one would take Python
tens of seconds. Instead the deck is walked by rank pattern: the ranks of the hand (a multiset) and
the starter's rank. Fifteens, pairs and runs depend on the ranks alone, so they are scored once per
pattern (cribbage._score_ranks). Flush and nobs depend on the suits only through the pattern's
*suit structure* — how many hand cards share each rank, which of those ranks is the jack, which is
the starter's rank, and whether the starter is a jack — so for each of the few dozen structures the
suit assignments are enumerated once and tallied by the flush-and-nobs points they add. A pattern's
distribution is its rank points shifted by that tally.

The published table (Lumetta, "Amusing Cribbage Facts", lumetta.web.engr.illinois.edu/humor/
cribbage.html; Wikipedia, "Cribbage statistics") gives 1,009,008 hands of nothing and four 29s; with
the crib's flush rule there are 1,022,208 cribs of nothing. tests/test_stats.py checks the whole table
and cross-checks pattern_distribution against score_show card by card.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from math import comb

from ._score_ranks import RANK_BIT, pattern_points
from .cards import JACK, SUIT_LETTERS, Card
from .errors import InvalidCardError
from .show_score import HAND_SIZES

TOTAL_FOUR_CARD_HANDS = comb(52, 4) * 48  # 12,994,800

# Per suit structure: {points added by flush and nobs: number of suit assignments}
_suit_tallies: dict[tuple, dict[int, int]] = {}


def hand_distribution(*, crib: bool = False, hand_size: int = 4) -> dict[int, int]:
    """Number of (hand, starter) pairs with each score, over every hand of hand_size cards."""
    if hand_size not in HAND_SIZES or (crib and hand_size != 4):
        raise InvalidCardError(f"hands of {hand_size} cards are not counted"
                               + (" as a crib: a crib holds 4" if crib else ": 3, 4 or 5"))
    totals: Counter[int] = Counter()
    for hand_ranks in combinations_with_replacement(range(1, 14), hand_size):
        counts = Counter(hand_ranks)
        if max(counts.values()) > 4:
            continue
        hand_key = 0
        for rank in hand_ranks:
            hand_key += RANK_BIT[rank]
        for starter_rank in range(1, 14):
            if counts[starter_rank] == 4:
                continue
            base = pattern_points(hand_key + RANK_BIT[starter_rank])
            for extra, ways in _tally(_structure(counts, starter_rank), crib).items():
                totals[base + extra] += ways
    return dict(sorted(totals.items()))


def pattern_distribution(hand_ranks, starter_rank: int, *, crib: bool = False) -> dict[int, int]:
    """Scores of every hand with these ranks and a starter of this rank, by suit assignment count."""
    counts = Counter(hand_ranks)
    if max(counts.values()) > 4 or counts[starter_rank] == 4:
        raise InvalidCardError("a deck holds only four cards of each rank")
    key = RANK_BIT[starter_rank]
    for rank in hand_ranks:
        key += RANK_BIT[rank]
    base = pattern_points(key)
    tally = _tally(_structure(counts, starter_rank), crib)
    return {base + extra: ways for extra, ways in sorted(tally.items())}


def distribution_summary(distribution: dict[int, int], *, crib: bool, top: int | None = None) -> dict:
    """JSON-ready: every score from 0 to the top one (zeros included), hands counted, mean score."""
    hands = sum(distribution.values())
    top = max(distribution) if top is None else max(top, max(distribution))
    return {
        "distribution": {str(score): distribution.get(score, 0) for score in range(top + 1)},
        "hands": hands,
        "mean": sum(score * n for score, n in distribution.items()) / hands,
        "crib": crib,
    }


def _structure(counts: Counter, starter_rank: int) -> tuple:
    """What the suits of a pattern can do depends only on this: each hand rank's multiplicity, whether
    it is the jack, whether it is the starter's rank; and whether the starter is a jack."""
    groups = tuple(sorted((n, rank == JACK, rank == starter_rank) for rank, n in counts.items()))
    return groups, starter_rank == JACK


def _tally(structure: tuple, crib: bool) -> dict[int, int]:
    key = (structure, crib)
    tally = _suit_tallies.get(key)
    if tally is None:
        tally = _suit_tallies[key] = _enumerate_suits(structure, crib)
    return tally


def _enumerate_suits(structure: tuple, crib: bool) -> dict[int, int]:
    """Try every way to give the pattern's cards suits; tally the flush and nobs points of each."""
    groups, starter_is_jack = structure
    hand_size = sum(n for n, _, _ in groups)
    tally: Counter[int] = Counter()
    for choice in product(*(combinations(SUIT_LETTERS, n) for n, _, _ in groups)):
        hand_suits = [suit for suits in choice for suit in suits]
        taken_by_starter_rank = next((suits for suits, (_, _, is_starter_rank) in zip(choice, groups)
                                      if is_starter_rank), ())
        jack_suits = next((suits for suits, (_, is_jack, _) in zip(choice, groups) if is_jack), ())
        for starter_suit in SUIT_LETTERS:
            if starter_suit in taken_by_starter_rank:
                continue  # that card is already in the hand
            points = 0
            if len(set(hand_suits)) == 1:
                if starter_suit == hand_suits[0]:
                    points += hand_size + 1
                elif not crib:
                    points += hand_size
            if not starter_is_jack and starter_suit in jack_suits:
                points += 1  # his nobs
            tally[points] += 1
    return dict(tally)


def cards_of_pattern(hand_ranks, starter_rank: int):
    """Every actual (hand, starter) with these ranks: the brute-force counterpart, for checking."""
    by_rank = Counter(hand_ranks)
    for choice in product(*(combinations(SUIT_LETTERS, n) for n in by_rank.values())):
        hand = tuple(Card(rank, suit) for rank, suits in zip(by_rank, choice) for suit in suits)
        for suit in SUIT_LETTERS:
            starter = Card(starter_rank, suit)
            if starter not in hand:
                yield hand, starter
