"""Coach: which cards to lay away. Every choice, with its expected hand points and crib points.

For a dealt hand, each way of keeping some cards and laying the rest away is valued by
- the kept hand's expected show points over every starter still unseen (exact: each of the 46 cards
  left after a six-card deal, equally likely), and
- the crib's expected show points given the discards, when the other crib cards and the starter are
  drawn at random from the unseen cards (exact enumeration by rank, with flush and nobs worked out by
  counting suits). Real opponents discard on purpose, not at random; the figure is the usual estimate.
The dealer owns the crib, so the crib adds to a lay-away's value; for the pone it is subtracted.
Results come sorted best first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb

from ._score_ranks import RANK_BIT, pattern_points
from .cards import FULL_DECK, JACK, Card, parse_cards
from .errors import InvalidCardError
from .show_score import CRIB_SIZE

# Cards laid away by the dealt hand's size when not given: six-card and seven-card deals lay two
# away; five cards (three or four players) lay one away. Five-card cribbage (five dealt, two laid
# away) must say discard=2.
DEFAULT_DISCARDS = {5: 1, 6: 2, 7: 2}


@dataclass(frozen=True, slots=True)
class LayAway:
    """One way to lay away: the cards kept and thrown, and what each side is expected to score."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand_points: float  # expected show points of the kept hand over every unseen starter
    hand_min: int
    hand_max: int
    crib_points: float  # expected show points of the crib holding these discards
    dealer: bool

    @property
    def value(self) -> float:
        """Hand points plus the crib's (dealer) or minus them (pone)."""
        return self.hand_points + self.crib_points if self.dealer else self.hand_points - self.crib_points

    def to_dict(self) -> dict:
        return {"keep": [str(c) for c in self.keep], "discard": [str(c) for c in self.discard],
                "hand_points": round(self.hand_points, 4), "hand_min": self.hand_min,
                "hand_max": self.hand_max, "crib_points": round(self.crib_points, 4),
                "value": round(self.value, 4), "dealer": self.dealer}


def lay_aways(dealt, *, discard: int | None = None, dealer: bool = False,
              crib: bool = True) -> tuple[LayAway, ...]:
    """Every lay-away of a dealt hand, best first. With crib=False only the hand is valued (fast)."""
    cards = parse_cards(dealt)
    if discard is None:
        if len(cards) not in DEFAULT_DISCARDS:
            raise InvalidCardError(f"a dealt hand holds 5, 6 or 7 cards, not {len(cards)}")
        discard = DEFAULT_DISCARDS[len(cards)]
    kept = len(cards) - discard
    if not 1 <= discard <= 2 or not 3 <= kept <= 5:
        raise InvalidCardError(f"cannot keep {kept} of {len(cards)} cards and lay away {discard}: "
                               "a hand keeps 3, 4 or 5 and lays away 1 or 2")
    unseen = tuple(card for card in FULL_DECK if card not in set(cards))
    results = []
    crib_cache: dict[tuple[Card, ...], float] = {}
    for thrown in combinations(cards, discard):
        keep = tuple(card for card in cards if card not in thrown)
        mean, low, high = hand_expectation(keep, unseen)
        crib_points = 0.0
        if crib:
            crib_points = crib_cache.get(thrown)
            if crib_points is None:
                crib_points = crib_cache[thrown] = crib_expectation(thrown, unseen)
        results.append(LayAway(keep, thrown, mean, low, high, crib_points, dealer))
    results.sort(key=lambda lay: (-lay.value, -lay.hand_points))
    return tuple(results)


def hand_expectation(keep: tuple[Card, ...], unseen: tuple[Card, ...]) -> tuple[float, int, int]:
    """Mean, lowest and highest show points of the kept hand over every unseen starter."""
    key = 0
    suits = set()
    nobs_suits = set()
    for rank, suit in keep:
        key += RANK_BIT[rank]
        suits.add(suit)
        if rank == JACK:
            nobs_suits.add(suit)
    flush_suit = next(iter(suits)) if len(suits) == 1 else None
    size = len(keep)
    total, low, high = 0, 99, 0
    for rank, suit in unseen:
        points = pattern_points(key + RANK_BIT[rank])
        if suit in nobs_suits:
            points += 1
        if flush_suit is not None:
            points += size + 1 if suit == flush_suit else size
        total += points
        if points < low:
            low = points
        if points > high:
            high = points
    return total / len(unseen), low, high


def crib_expectation(discards: tuple[Card, ...], unseen: tuple[Card, ...]) -> float:
    """Expected crib points holding these discards, the other crib cards and the starter drawn at random
    from the unseen cards. Exact: fifteens, pairs and runs by enumerating ranks with their weights;
    flush and nobs by counting suits (expectation is additive)."""
    others = CRIB_SIZE - len(discards)
    total_ways = comb(len(unseen), others) * (len(unseen) - others)
    left = Counter(card.rank for card in unseen)
    base_key = sum(RANK_BIT[card.rank] for card in discards)
    weighted = 0
    for ranks in combinations_with_replacement(range(1, 14), others):
        taken = Counter(ranks)
        ways = 1
        key = base_key
        for rank, n in taken.items():
            ways *= comb(left[rank], n)
            key += RANK_BIT[rank] * n
        if not ways:
            continue
        for starter_rank in range(1, 14):
            starters = left[starter_rank] - taken[starter_rank]
            if starters > 0:
                weighted += ways * starters * pattern_points(key + RANK_BIT[starter_rank])
    expected = weighted / total_ways
    return expected + _crib_flush_expectation(discards, unseen, others) + \
        _crib_nobs_expectation(discards, unseen, others)


def _crib_flush_expectation(discards, unseen, others: int) -> float:
    suits = {card.suit for card in discards}
    if len(suits) != 1:
        return 0.0
    same = sum(1 for card in unseen if card.suit in suits)
    drawn = others + 1  # the other crib cards and the starter, all of the discards' suit
    return (CRIB_SIZE + 1) * comb(same, drawn) / comb(len(unseen), drawn)


def _crib_nobs_expectation(discards, unseen, others: int) -> float:
    by_suit = Counter(card.suit for card in unseen)
    size = len(unseen)
    expected = 0.0
    for card in discards:
        if card.rank == JACK:  # in the crib already: nobs if the starter is of its suit
            expected += by_suit[card.suit] / size
    for card in unseen:
        if card.rank == JACK:  # must be one of the others, and the starter another card of its suit
            expected += (others / size) * ((by_suit[card.suit] - 1) / (size - 1))
    return expected
