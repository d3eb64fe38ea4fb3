"""Looking back at a deal once its cards are known: what each card held could have pegged, and what a
hand or crib could have been expected to score over every starter.

Rules only, no history: the caller says which cards were in the series and which the player held.
- play_options(series, held): the points each held card that fits would peg on this series now;
- better_play(series, played, held): the held card that would have pegged most, when it beats the card
  played (None otherwise);
- starter_expectation(cards, crib=...): the mean show points of these cards over every starter not
  among them (the starter's luck taken out: the cards' own worth).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ._score_ranks import RANK_BIT, pattern_points
from .cards import FULL_DECK, JACK, Card, parse_cards
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
    cards = parse_cards(series)
    count = sum(card.value for card in cards)
    options: dict[Card, PlayScore] = {}
    for card in parse_cards(held):
        if card in cards or count + card.value > MAX_COUNT:
            continue
        options[card] = score_play(cards + (card,))
    return options


def better_play(series: Iterable[Card | str], played: Card | str, held: Iterable[Card | str]) -> BetterPlay | None:
    """The held card that would have pegged most on `series` where `played` was played, if it pegs more
    than `played` did; ties go to the first held. `held` may include `played`."""
    played_card = played if isinstance(played, Card) else Card.parse(played)
    options = play_options(series, held)
    made = options.pop(played_card, None)
    if made is None:
        made = score_play(parse_cards(series) + (played_card,))
    best = None
    for card, score in options.items():
        if score.points > made.points and (best is None or score.points > best.score.points):
            best = BetterPlay(card, score, made.points)
    return best


def starter_expectation(cards: Iterable[Card | str], *, crib: bool = False) -> float:
    """Mean show points of these cards (3 to 5 of them) over every starter not among them, each equally
    likely. A crib's flush needs the starter's suit as well; a hand's counts with four or more of one suit."""
    held = parse_cards(cards)
    key = sum(RANK_BIT[card.rank] for card in held)
    suits = {card.suit for card in held}
    flush_suit = next(iter(suits)) if len(suits) == 1 else None
    nobs_suits = {card.suit for card in held if card.rank == JACK}
    total, starters = 0, 0
    for starter in FULL_DECK:
        if starter in held:
            continue
        points = pattern_points(key + RANK_BIT[starter.rank])
        if starter.suit in nobs_suits:
            points += 1
        if flush_suit is not None:
            if starter.suit == flush_suit:
                points += len(held) + 1
            elif not crib:
                points += len(held)
        total += points
        starters += 1
    return total / starters
