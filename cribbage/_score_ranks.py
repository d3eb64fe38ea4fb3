"""Fifteens, pairs and runs depend on ranks alone: score each rank pattern once and remember it.

A rank pattern is the multiset of ranks of the shown cards (hand and starter together), packed in an
int: three bits per rank hold how many cards of that rank there are (0..4). All rank-only scoring —
the fast totals, the breakdowns, the exhaustive statistics and the coach — goes through here, so each
pattern is worked out at most once per process. Suits (flush, nobs) are handled by the callers.
"""

from __future__ import annotations

from itertools import product

# RANK_BIT[rank] added once per card gives the pattern key; rank 0 is unused.
RANK_BIT: tuple[int, ...] = (0,) + tuple(1 << (3 * (rank - 1)) for rank in range(1, 14))
VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)

PAIR_KINDS = {2: ("pair", 2), 3: ("pair royal", 6), 4: ("double pair royal", 12)}

# A template is (kind, positions, points); positions index the cards sorted by rank.
Template = tuple[str, tuple[int, ...], int]

_points: dict[int, int] = {}
_templates: dict[int, tuple[Template, ...]] = {}


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
    """Points for fifteens, pairs and runs in this rank pattern (memoised)."""
    points = _points.get(key)
    if points is None:
        points = _points[key] = _count_points(pattern_ranks(key))
    return points


def pattern_templates(key: int) -> tuple[Template, ...]:
    """Every fifteen, pair group and run of this pattern, by position in rank order (memoised)."""
    templates = _templates.get(key)
    if templates is None:
        templates = _templates[key] = _list_templates(pattern_ranks(key))
    return templates


def _count_points(ranks: tuple[int, ...]) -> int:
    """Count without listing: subset-sum ways to 15, pairs by rank, runs as length times multiplicity."""
    ways = [1] + [0] * 15  # ways[s]: subsets of the cards seen so far whose values sum to s
    counts = [0] * 15
    for rank in ranks:
        counts[rank] += 1
        value = VALUE[rank]
        for total in range(15, value - 1, -1):
            ways[total] += ways[total - value]
    points = 2 * ways[15]
    for count in counts:
        points += count * (count - 1)  # C(count, 2) pairs at 2 each
    rank = 1
    while rank <= 13:
        if counts[rank]:
            length, multiplicity = 0, 1
            while rank <= 13 and counts[rank]:
                length += 1
                multiplicity *= counts[rank]
                rank += 1
            if length >= 3:
                points += length * multiplicity
        rank += 1
    return points


def _list_templates(ranks: tuple[int, ...]) -> tuple[Template, ...]:
    n = len(ranks)
    found: list[Template] = []
    for mask in range(1, 1 << n):
        positions = tuple(i for i in range(n) if mask >> i & 1)
        if len(positions) >= 2 and sum(VALUE[ranks[i]] for i in positions) == 15:
            found.append(("fifteen", positions, 2))
    found.sort(key=lambda t: (len(t[1]), t[1]))
    groups: dict[int, list[int]] = {}
    for i, rank in enumerate(ranks):
        groups.setdefault(rank, []).append(i)
    for rank in sorted(groups):
        if len(groups[rank]) >= 2:
            kind, points = PAIR_KINDS[len(groups[rank])]
            found.append((kind, tuple(groups[rank]), points))
    present = sorted(groups)
    start = 0
    while start < len(present):
        end = start
        while end + 1 < len(present) and present[end + 1] == present[end] + 1:
            end += 1
        length = end - start + 1
        if length >= 3:
            for run in product(*(groups[r] for r in present[start:end + 1])):
                found.append(("run", tuple(run), length))
        start = end + 1
    return tuple(found)
