"""Looking back at a deal once its cards are known: what each card held could have pegged, and what a
hand or crib could have been expected to score over every starter.

Rules only, no history: the caller says which cards were in the series and which the player held.
- play_options(series, held): the points each held card that fits would peg on this series now;
- better_play(series, played, held): the held card that would have pegged most, when it beats the card
  played (None otherwise); better_plays(plays, hands) the same for every card of a whole play;
- starter_expectation(cards, crib=...): the mean show points of these cards over every starter not
  among them (the starter's luck taken out: the cards' own worth).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Mapping

from ._score_ranks import RANK_BIT, pattern_points_one
from .cards import FULL_DECK, JACK, SUIT_LETTERS, Card, parse_cards
from .play_score import MAX_COUNT, PlayScore, score_play


@dataclass(frozen=True, slots=True)
class BetterPlay:
    """A card the player held that would have pegged more than the card played, at that moment."""

    card: Card
    score: PlayScore       # what it would have made
    played_points: int     # what the card played made

    @property
    def gain(self) -> int:
        return self.score.points - self.played_points

    def to_dict(self) -> dict:
        return {"card": str(self.card), "points": self.score.points, "reasons": list(self.score.reasons),
                "count": self.score.count, "played_points": self.played_points, "gain": self.gain}


def play_options(series: Iterable[Card | str], held: Iterable[Card | str]) -> dict[Card, PlayScore]:
    """What each held card that fits (count stays at 31 or under) would peg on this series, in the
    order held. A card already in the series is not held, so it is left out."""
    cards = _cards(series)
    ranks = tuple(card.rank for card in cards)
    count = sum(card.value for card in cards)
    options: dict[Card, PlayScore] = {}
    for card in _cards(held):
        if card in cards or count + card.value > MAX_COUNT:
            continue
        options[card] = _score_ranks(ranks + (card.rank,))
    return options


def better_play(series: Iterable[Card | str], played: Card | str, held: Iterable[Card | str]) -> BetterPlay | None:
    """The held card that would have pegged most on `series` where `played` was played, if it pegs more
    than `played` did; ties go to the first held. `held` may include `played`."""
    cards = _cards(series)
    played_card = _card(played)
    options = play_options(cards, held)
    made = options.pop(played_card, None)
    if made is None:
        made = _score_ranks(tuple(card.rank for card in cards) + (played_card.rank,))
    best = None
    for card, score in options.items():
        if score.points > made.points and (best is None or score.points > best.score.points):
            best = BetterPlay(card, score, made.points)
    return best


def better_plays(plays: Iterable[tuple[str, Card | str, bool]],
                 hands: Mapping[str, Iterable[Card | str]]) -> list[BetterPlay | None]:
    """A whole play looked back at: for each card played, in order, given as (player, card, whether it
    led a fresh count), the card that player still held that would have pegged more at that moment,
    as better_play finds it (None where none would). hands: the cards each player held when the play
    began (those they played, and any left unplayed)."""
    held = {player: list(_cards(cards)) for player, cards in hands.items()}
    ranks: tuple[int, ...] = ()
    count = 0
    found: list[BetterPlay | None] = []
    for player, card, fresh in plays:
        card = _card(card)
        if fresh:
            ranks, count = (), 0
        mine = held.setdefault(player, [])
        if card in mine:
            mine.remove(card)
        made = _score_ranks(ranks + (card.rank,))
        best = None
        for other in mine:
            if count + other.value <= MAX_COUNT:
                score = _score_ranks(ranks + (other.rank,))
                if score.points > made.points and (best is None or score.points > best.score.points):
                    best = BetterPlay(other, score, made.points)
        found.append(best)
        ranks, count = ranks + (card.rank,), count + card.value
    return found


def starter_expectation(cards: Iterable[Card | str], *, crib: bool = False) -> float:
    """Mean show points of these cards (3 to 5 of them) over every starter not among them, each equally
    likely. A crib's flush needs the starter's suit as well; a hand's counts with four or more of one suit.
    Fifteens, pairs and runs are worked out once per starter rank; flush and nobs by counting suits."""
    held = _cards(cards)
    key = sum(RANK_BIT[card.rank] for card in held)
    starters = len(FULL_DECK) - len(held)
    by_rank = Counter(card.rank for card in held)
    by_suit = Counter(card.suit for card in held)
    total = 0
    for rank in range(1, 14):  # each rank's starters not in hand, all scoring alike on ranks
        total += (4 - by_rank[rank]) * pattern_points_one(key + RANK_BIT[rank])
    for card in held:          # his nobs: a starter of the jack's suit (never the jack itself)
        if card.rank == JACK:
            total += 13 - by_suit[card.suit]
    if len(by_suit) == 1:      # a flush: the hand's cards alone, or with a starter of their suit
        suit_starters = 13 - len(held)
        total += (len(held) + 1) * suit_starters + (0 if crib else len(held) * (starters - suit_starters))
    return total / starters


# ---- internals: card text read once, play scores worked out once per run of ranks -------------------

_parsed: dict[str, Card] = {}


def _card(item: Card | str) -> Card:
    if isinstance(item, Card):
        return item
    card = _parsed.get(item)
    if card is None:
        card = _parsed[item] = Card.parse(item)
    return card


def _cards(items: Iterable[Card | str] | str) -> tuple[Card, ...]:
    cards = parse_cards(items) if isinstance(items, str) else tuple(_card(item) for item in items)
    if len(set(cards)) != len(cards):
        parse_cards(cards)  # raises, naming the card given twice
    return cards


@lru_cache(maxsize=65536)
def _score_ranks(ranks: tuple[int, ...]) -> PlayScore:
    """score_play of a series with these ranks: its points depend on ranks alone (values, pairs, runs),
    so any suits will do; each rank's copies get different suits."""
    seen: Counter = Counter()
    cards = []
    for rank in ranks:
        cards.append(Card(rank, SUIT_LETTERS[seen[rank]]))
        seen[rank] += 1
    return score_play(cards)
