"""Fifteens, pairs and runs depend on ranks alone: score each rank pattern once and remember it.

A rank pattern is the multiset of ranks of the shown cards (hand and starter together), packed in an
int: three bits per rank hold how many cards of that rank there are (0..4). All rank-only scoring —
the fast totals, the breakdowns, the exhaustive statistics and the coach — goes through here, so each
pattern is worked out at most once per process. Suits (flush, nobs) are handled by the callers.
"""

from __future__ import annotations

from itertools import product
from operator import itemgetter

# RANK_BIT[rank] added once per card gives the pattern key; rank 0 is unused.
RANK_BIT: tuple[int, ...] = (0,) + tuple(1 << (3 * (rank - 1)) for rank in range(1, 14))
VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

PAIR_KINDS = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}

# A template is (kind, positions, points); positions index the cards sorted by rank.
Template = tuple[str, tuple[int, ...], int]

_points: dict[int, int] = {}
_templates: dict[int, tuple[Template, ...]] = {}
_pickers: dict[int, tuple] = {}


def clear_memo() -> None:
    """Forget every pattern worked out so far (benchmarks use it to time the cold path)."""
    _points.clear()
    _templates.clear()
    _pickers.clear()


def pattern_key(ranks) -> int:
    """The pattern key of some ranks (1..13), in any order."""
    key = 0
    for rank in ranks:
        key += RANK_BIT[rank]
    return key


def pattern_ranks(key: int) -> tuple[int, ...]:
    """The ranks of a pattern, sorted: the inverse of pattern_key."""
    ranks: list[int] = []
    for rank in range(1, 14):
        ranks += [rank] * ((key >> (3 * (rank - 1))) & 7)
    return tuple(ranks)


def pattern_points(key: int) -> int:
    """Points for fifteens, pairs and runs in this rank pattern.

    The first pattern of a given size fills the table for every pattern of that size (6,175 for a
    hand of four and the starter, about 30 ms), so every later count is one dictionary look-up.
    """
    points = _points.get(key)
    if points is None:
        _fill_points(pattern_size(key))
        points = _points[key]
    return points


def pattern_points_one(key: int) -> int:
    """pattern_points for a caller that looks up some patterns of a size, not most of them (a deal's
    hands over their starters): this pattern alone is worked out, not the table for its size."""
    points = _points.get(key)
    if points is None:
        points = _points[key] = _count_points(key)
    return points


def pattern_size(key: int) -> int:
    """How many cards a pattern holds."""
    size = 0
    while key:
        size += key & 7
        key >>= 3
    return size


def patterns_of_size(size: int):
    """Every rank pattern of `size` cards from one deck (at most four of a rank), as keys."""
    def extend(rank: int, left: int, key: int):
        if left == 0:
            yield key
            return
        if rank > 13:
            return
        for count in range(min(4, left), -1, -1):
            yield from extend(rank + 1, left - count, key + count * RANK_BIT[rank])
    return extend(1, size, 0)


def _fill_points(size: int) -> None:
    for key in patterns_of_size(size):
        if key not in _points:
            _points[key] = _count_points(key)


def pattern_templates(key: int) -> tuple[Template, ...]:
    """Every fifteen, pair group and run of this pattern, by position in rank order (memoised)."""
    templates = _templates.get(key)
    if templates is None:
        templates = _templates[key] = _list_templates(pattern_ranks(key))
    return templates


def pattern_pickers(key: int) -> tuple:
    """The templates with each position list turned into an itemgetter, which picks an item's cards
    out of the rank-sorted cards in one call (memoised). Every template has two or more positions,
    so each getter returns a tuple."""
    pickers = _pickers.get(key)
    if pickers is None:
        pickers = _pickers[key] = tuple((kind, itemgetter(*positions), points)
                                        for kind, positions, points in pattern_templates(key))
    return pickers


def _subset_sums(ranks: tuple[int, ...]) -> list[int]:
    """sums[mask] = total value of the cards whose positions are the bits of mask."""
    sums = [0]
    for rank in ranks:
        value = VALUE[rank]
        sums += [total + value for total in sums]
    return sums


def _rank_groups(ranks: tuple[int, ...]) -> list[tuple[int, int]]:
    """(rank, how many) for each rank present, lowest first; ranks are sorted."""
    groups: list[list[int]] = []
    for rank in ranks:
        if groups and groups[-1][0] == rank:
            groups[-1][1] += 1
        else:
            groups.append([rank, 1])
    return [(rank, n) for rank, n in groups]


def _stretches(groups: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Maximal stretches of consecutive ranks at least three long: the runs."""
    found: list[list[tuple[int, int]]] = []
    current: list[tuple[int, int]] = []
    for group in groups:
        if current and group[0] != current[-1][0] + 1:
            if len(current) >= 3:
                found.append(current)
            current = []
        current.append(group)
    if len(current) >= 3:
        found.append(current)
    return found


def _count_points(key: int) -> int:
    """Count without listing: fifteens from subset sums, pairs by rank, runs as length x multiplicity.
    Read straight from the key, rank by rank, because this is the cold path of every fast total."""
    sums = [0]  # the value of every subset of the cards seen so far
    points = 0
    length, multiplicity = 0, 1  # the stretch of consecutive ranks so far
    rank = 1
    while key:
        n = key & 7
        if n:
            value = VALUE[rank]
            for _ in range(n):
                sums += [total + value for total in sums]
            points += n * (n - 1)  # C(n, 2) pairs at 2 each
            length += 1
            multiplicity *= n
        else:
            if length >= 3:
                points += length * multiplicity
            length, multiplicity = 0, 1
        key >>= 3
        rank += 1
    if length >= 3:
        points += length * multiplicity
    return points + 2 * sums.count(15)


# Positions of the set bits of every mask, for hands plus starter of 4, 5 or 6 cards.
_MASK_POSITIONS = tuple(tuple(i for i in range(6) if mask >> i & 1) for mask in range(1 << 6))


def _list_templates(ranks: tuple[int, ...]) -> tuple[Template, ...]:
    sums = _subset_sums(ranks)
    fifteens = sorted((_MASK_POSITIONS[mask] for mask, total in enumerate(sums) if total == 15),
                      key=lambda positions: (len(positions), positions))
    found: list[Template] = [("fifteen", positions, 2) for positions in fifteens]
    groups = _rank_groups(ranks)
    first = 0
    starts: dict[int, range] = {}
    for rank, n in groups:
        starts[rank] = range(first, first + n)
        if n >= 2:
            kind, points = PAIR_KINDS[n]
            found.append((kind, tuple(starts[rank]), points))
        first += n
    for stretch in _stretches(groups):
        for run in product(*(starts[rank] for rank, _ in stretch)):
            found.append(("run", run, len(stretch)))
    return tuple(found)
