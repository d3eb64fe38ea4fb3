"""What happens in a game, as frozen records: the journal stores them, the board and voice show them.

Every event is a frozen dataclass that round-trips through JSON: event_from_dict(e.to_dict()) == e.
An event that pegs points says how many (`points`) and to whom (`player`); `Event.pegs` gives that
uniformly. `step` numbers the action that produced the event: one action (a card played, a claim)
may produce several events, and undoing it (Undone) removes them all, on replay too.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields, is_dataclass

from .cards import Card
from .errors import CribbageError
from .show_score import ScoreItem
from .variants import Options


@dataclass(frozen=True, kw_only=True)
class Event:
    """Base of every event. step: the number of the action that produced it (1, 2, ...)."""

    step: int = 0

    @property
    def pegs(self) -> tuple[str, int] | None:
        """(player, points) if this event pegs points, else None."""
        points = getattr(self, "points", 0)
        return (self.player, points) if points else None

    def to_dict(self) -> dict:
        d = {"type": type(self).__name__}
        for f in fields(self):
            d[f.name] = _encode(getattr(self, f.name))
        return d


# --- the game and the deal -----------------------------------------------------------------------

@dataclass(frozen=True)
class GameStarted(Event):
    """A game begins: the variant by name, the players in seating order (to the left), the options."""
    variant: str
    players: tuple[str, ...]
    options: Options
    game_no: int = 1


@dataclass(frozen=True)
class CardCutForDeal(Event):
    player: str
    card: Card


@dataclass(frozen=True)
class CutTied(Event):
    """The lowest cut was tied: these players cut again."""
    players: tuple[str, ...]


@dataclass(frozen=True)
class DealerChosen(Event):
    """reason: 'lowest cut', 'set', or 'loser of the last game'."""
    player: str
    reason: str


@dataclass(frozen=True)
class RoundStarted(Event):
    """The deal (off camera): the dealer and the number of this hand in the game."""
    dealer: str
    round_no: int


@dataclass(frozen=True)
class ThreeForLast(Event):
    """Five-card cribbage: the first non-dealer pegs three at the start of the game."""
    player: str
    points: int


@dataclass(frozen=True)
class StarterTurned(Event):
    card: Card


@dataclass(frozen=True)
class HisHeels(Event):
    """The starter is a jack: two for his heels to the dealer."""
    player: str
    points: int


# --- the play ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GoSaid(Event):
    """A player could not add to the series at this count: said with a Go button, or inferred
    from the order of the plays (inferred=True)."""
    player: str
    count: int
    inferred: bool


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card in a player's seat: the count it made and what it pegged (play_score.PlayScore's fields).
    new_series: it led a fresh count."""
    player: str
    card: Card
    count: int
    points: int
    reasons: tuple[str, ...]
    new_series: bool = False

    def announcement(self) -> str:
        from .play_score import PlayScore
        return PlayScore(self.count, self.points, self.reasons).announcement()


@dataclass(frozen=True)
class GoPegged(Event):
    """Nobody could add to the series: its last player pegs one for go; the count starts again."""
    player: str
    points: int
    count: int


@dataclass(frozen=True)
class LastCard(Event):
    """The last card of the play pegs one (not on 31, which already pegged two)."""
    player: str
    points: int


@dataclass(frozen=True)
class PlayEnded(Event):
    """The play is over ('all cards played', 'one series', or 'declared'); the show begins."""
    reason: str


# --- the show ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HandShown(Event):
    """The cards of a hand (or the crib) as seen at the show."""
    player: str
    cards: tuple[Card, ...]
    crib: bool = False


@dataclass(frozen=True)
class PlayCorrected(Event):
    """Cards recorded as played by `player` were misread: `cards` are what the player really played,
    each in its misread counterpart's place. Found at the show, from the hand as it lies; the play's
    pegs stand (they were judged, and open to dispute, when the cards were played)."""
    player: str
    misread: tuple[Card, ...]
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ClaimPegged(Event):
    """A count claimed and pegged. verdict: 'right', 'over' (corrected: the actual is pegged) or
    'under' (the claim is pegged; with muggins on, say nothing of `actual`: the opponent may take it)."""
    player: str
    crib: bool
    claimed: int
    actual: int
    points: int
    verdict: str
    breakdown: tuple[ScoreItem, ...]
    announcement: str


@dataclass(frozen=True)
class MissedPointsTold(Event):
    """Muggins off: the counter is told what he missed and pegs it."""
    player: str
    points: int


@dataclass(frozen=True)
class MugginsTaken(Event):
    """An opponent called Muggins on an under-count and pegs the points the counter overlooked."""
    player: str
    points: int
    counter: str


@dataclass(frozen=True)
class RenegeFound(Event):
    """A go said while holding a card that fitted, found at the show: the cards that fitted."""
    player: str
    count: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PenaltyPegged(Event):
    """A penalty: `player` pegs `points` because `offender` did wrong. kind: 'over-claim',
    'wrong-cards' or 'renege'."""
    player: str
    points: int
    offender: str
    kind: str
    reason: str


# --- the end -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class GameWon(Event):
    """A peg reached the target. winner: who pegged out; side: the winner and any partner;
    scores: every side's score in seating order; margin: 'single', 'lurch', 'skunk' or 'double skunk'."""
    winner: str
    side: tuple[str, ...]
    scores: tuple[int, ...]
    margin: str
    game_points: int


@dataclass(frozen=True)
class Undone(Event):
    """The events of action `undone` are withdrawn; replay honours it."""
    undone: int


EVENT_TYPES: dict[str, type[Event]] = {cls.__name__: cls for cls in (
    GameStarted, CardCutForDeal, CutTied, DealerChosen, RoundStarted, ThreeForLast, StarterTurned,
    HisHeels, GoSaid, CardPlayed, GoPegged, LastCard, PlayEnded, HandShown, PlayCorrected, ClaimPegged,
    MissedPointsTold, MugginsTaken, RenegeFound, PenaltyPegged, GameWon, Undone)}


def event_from_dict(d: dict) -> Event:
    """Rebuild an event from its to_dict() form (after JSON, lists stand for tuples)."""
    try:
        cls = EVENT_TYPES[d["type"]]
    except KeyError:
        raise CribbageError(f"not a game event: {d!r:.80}") from None
    hints = typing.get_type_hints(cls)
    kwargs = {f.name: _decode(hints[f.name], d[f.name]) for f in fields(cls) if f.name in d}
    return cls(**kwargs)


def _encode(value):
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return value


def _decode(hint, value):
    if hint is Card:
        return Card.parse(value)
    origin = typing.get_origin(hint)
    if origin is tuple:
        inner = typing.get_args(hint)[0]
        return tuple(_decode(inner, v) for v in value)
    if hint is Options:
        return Options.from_dict(value)
    if is_dataclass(hint):
        inner = typing.get_type_hints(hint)
        return hint(**{k: _decode(inner[k], v) for k, v in value.items() if k in inner})
    return value
