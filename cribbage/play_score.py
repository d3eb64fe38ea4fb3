"""Scoring the play: what the card just played earns in the current series (count up to 31).

Rules (Hoyle; CRIB6 and Turbo Cribbage help): the count reaching fifteen pegs 2, thirty-one 2.
A card of the same rank as the one before it is a pair, 2 (rank, not value: a king on a jack is no
pair); a third in a row a pair royal, 6; a fourth a double pair royal, 12. A run is formed when the
last three or more cards, in any order, are of consecutive ranks; it pegs one a card for the longest
such run among the latest cards, and any other card between them breaks it. Go and the last card are
pegged by the game (game.py), not here: this scores only what the last card makes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Union

from .words import number_word
from .cards import Card, parse_cards
from .errors import IllegalPlayError, OverCountError

MAX_COUNT = 31
_PAIR_KINDS = ((2, "pair", 2), (3, "pair royal", 6), (4, "double pair royal", 12))


@dataclass(frozen=True, slots=True)
class PlayScore:
    """What the last card of a series earned: the count it made, the points, and why."""

    count: int
    points: int
    reasons: tuple[str, ...]  # "fifteen", "thirty-one", "pair", "pair royal", "double pair royal", "run of N"

    def announcement(self) -> str:
        """As said at the table: 'fifteen two', 'thirty-one for two', 'eighteen, pair royal for six',
        'twenty-four, run of three for three', 'fifteen two, and a pair is four', or just the count."""
        count_word = number_word(self.count)
        combos = [r for r in self.reasons if r not in ("fifteen", "thirty-one")]
        if "fifteen" in self.reasons:
            head, head_points = "fifteen two", 2
        elif "thirty-one" in self.reasons:
            head, head_points = "thirty-one for two", 2
        else:
            head, head_points = count_word, 0
        if not combos:
            return head
        combo = _spoken_combo(combos[0])
        if head_points:
            return f"{head}, and a {combo} is {number_word(self.points)}"
        return f"{head}, {combo} for {number_word(self.points - head_points)}"

    def to_dict(self) -> dict:
        return {"count": self.count, "points": self.points, "reasons": list(self.reasons),
                "announcement": self.announcement()}


def series_count(series: Iterable[Union[Card, str]] | str) -> int:
    """The count of a play series: the sum of the cards' values (faces 10, ace 1)."""
    return sum(card.value for card in _cards(series))


def score_play(series: Iterable[Union[Card, str]] | str) -> PlayScore:
    """Points the last card of this series earns. The series is every card played since the count
    was last reset, oldest first; IllegalPlayError if the count passes 31."""
    cards = _cards(series)
    if not cards:
        raise IllegalPlayError("no card has been played in this series")
    count = 0
    for card in cards:
        count += card.value
        if count > MAX_COUNT:
            raise OverCountError(f"{count} is over {MAX_COUNT}: {card} cannot be played on "
                                 f"{count - card.value}", count)
    points = 0
    reasons: list[str] = []
    if count == 15:
        points += 2
        reasons.append("fifteen")
    elif count == MAX_COUNT:
        points += 2
        reasons.append("thirty-one")
    last_rank = cards[-1].rank
    same = 1
    while same < len(cards) and cards[-1 - same].rank == last_rank:
        same += 1
    for size, kind, pair_points in _PAIR_KINDS:
        if same == size:
            points += pair_points
            reasons.append(kind)
    run = _longest_run(cards)
    if run:
        points += run
        reasons.append(f"run of {run}")
    return PlayScore(count, points, tuple(reasons))


def _longest_run(cards: tuple[Card, ...]) -> int:
    """Length of the longest run made by the latest k cards (k >= 3), or 0."""
    best = 0
    ranks: set[int] = set()
    low, high = 14, 0
    for k in range(1, len(cards) + 1):
        rank = cards[-k].rank
        if rank in ranks:
            break  # a repeated rank: no longer window can be a run
        ranks.add(rank)
        low, high = min(low, rank), max(high, rank)
        if k >= 3 and high - low == k - 1:
            best = k
    return best


def _cards(series) -> tuple[Card, ...]:
    """The series as Cards, each at most once (text is parsed; a card twice names the card)."""
    return parse_cards(series)


def _spoken_combo(reason: str) -> str:
    if reason.startswith("run of "):
        return "run of " + number_word(int(reason[len("run of "):]))
    return reason
