"""The state of a game of cribbage, and the one place where events change it.

GameState holds what the table shows (dealer, pegs, the count, the cards played, the show) and
applies events to it, one handler per event type; Game (game.py) adds the actions that produce the
events. Replaying a journal is applying its events in order, so Game.from_events(game.events)
is the same game. Undone withdraws the events of one action: the state is rebuilt without them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Self

from . import events as ev
from .cards import Card
from .errors import CribbageError, IllegalActionError
from .play_state import PlayState
from .show_state import ShowState
from .variants import Options, Variant, target_of, variant_named

PHASES = ("cut", "deal", "starter", "play", "show", "over")


@dataclass(frozen=True)
class Pegs:
    """The two pegs of one score: the gap between them is the last score pegged."""
    front: int = 0
    back: int = 0




class GameState:
    """The read-only state of a game (its properties), rebuilt from events."""

    @classmethod
    def from_events(cls, events: Iterable[ev.Event | dict]) -> Self:
        """Rebuild a game from its journal (events or their dicts), undos included."""
        game = cls.__new__(cls)
        game._reset_journal()
        for event in events:
            if isinstance(event, dict):
                event = ev.event_from_dict(event)
            if not game._journal and not isinstance(event, ev.GameStarted):
                raise CribbageError("a game's events begin with GameStarted")
            game._journal.append(event)
            game._step = max(game._step, event.step)
            game._apply(event)
        return game

    # --- read-only state ------------------------------------------------------------------------
    @property
    def events(self) -> tuple[ev.Event, ...]:
        """Every event so far, in order, undone ones and Undone included: the journal."""
        return tuple(self._journal)

    @property
    def players(self) -> tuple[str, ...]:
        return self._players

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def options(self) -> Options:
        return self._options

    @property
    def target(self) -> int:
        return target_of(self._variant, self._options)

    @property
    def phase(self) -> str:
        """'cut' (for deal), 'deal', 'starter', 'play', 'show' or 'over'."""
        return self._phase

    @property
    def game_no(self) -> int:
        return self._game_no

    @property
    def dealer(self) -> str | None:
        return None if self._dealer is None else self._players[self._dealer]

    @property
    def next_dealer(self) -> str | None:
        """Who deals the coming round (while the device waits for the deal), else None."""
        if self._phase != "deal":
            return None
        seat = self._dealer if self._round_no == 0 else self._left_of(self._dealer)
        return self._players[seat]

    @property
    def round_no(self) -> int:
        return self._round_no

    @property
    def starter(self) -> Card | None:
        return self._starter

    @property
    def sides(self) -> tuple[tuple[str, ...], ...]:
        """Who pegs together: one player per score, or the two partnerships."""
        v = self._variant
        return tuple(tuple(p for s, p in enumerate(self._players) if v.side_of(s) == side)
                     for side in range(v.sides))

    @property
    def scores(self) -> tuple[int, ...]:
        """Each side's score (front peg), in the order of `sides`."""
        return tuple(p.front for p in self._pegs)

    def pegs(self, player: str) -> Pegs:
        return self._pegs[self._side(player)]

    def score(self, player: str) -> int:
        return self.pegs(player).front

    @property
    def turn(self) -> str | None:
        """Who plays next in the play (or leads a fresh count); None outside the play."""
        if self._phase != "play":
            return None
        return self._players[self._play.turn]

    @property
    def count(self) -> int:
        return self._play.count if self._play else 0

    @property
    def series(self) -> tuple[Card, ...]:
        """The cards of the current count, oldest first."""
        return tuple(c for _, c in self._play.series) if self._play else ()

    def played(self, player: str) -> tuple[Card, ...]:
        """The cards this player has played this round (face up in their seat)."""
        return tuple(self._play.played[self._seat(player)]) if self._play else ()

    @property
    def show_turn(self) -> tuple[str, bool] | None:
        """(player, is_crib) of the count due at the show, or None outside it."""
        if self._phase != "show" or self._show.current is None:
            return None
        item = self._show.current
        return self._players[item.seat], item.crib

    @property
    def result(self) -> ev.GameWon | None:
        return self._result

    @property
    def winner(self) -> str | None:
        return self._result.winner if self._result else None

    @property
    def is_over(self) -> bool:
        return self._result is not None

    def state(self) -> dict:
        """Everything the read-only properties say, as plain data (to compare two games)."""
        return {
            "game_no": self._game_no, "phase": self._phase, "dealer": self.dealer,
            "round_no": self._round_no, "starter": self._starter,
            "pegs": tuple(self._pegs), "turn": self.turn, "count": self.count,
            "series": self.series, "played": tuple(self.played(p) for p in self._players),
            "show_turn": self.show_turn,
            "shown": dict(self._show.shown) if self._show else None,
            "muggins": self._show.muggins if self._show else None,
            "result": self._result, "cuts": dict(self._cuts), "cutting": set(self._cutting),
        }

    # --- machinery ------------------------------------------------------------------------------------
    def _reset_journal(self) -> None:
        self._journal: list[ev.Event] = []
        self._step = 0
        self._undone: set[int] = set()
        self._clear_state()

    def _clear_state(self) -> None:
        self._players: tuple[str, ...] = ()
        self._variant: Variant | None = None
        self._options = Options()
        self._game_no = 0
        self._new_game_state()

    def _new_game_state(self) -> None:
        self._phase = "cut"
        self._dealer: int | None = None
        self._round_no = 0
        self._cuts: dict[int, Card] = {}
        self._cutting: set[int] = set(range(len(self._players)))
        self._pegs = [Pegs() for _ in range(self._variant.sides if self._variant else 0)]
        self._result: ev.GameWon | None = None
        self._new_round_state()

    def _new_round_state(self) -> None:
        self._starter: Card | None = None
        self._play: PlayState | None = None
        self._show: ShowState | None = None

    def _apply(self, e: ev.Event) -> None:
        if isinstance(e, ev.Undone):
            self._undone.add(e.undone)
            self._replay_standing()
            return
        handler = getattr(self, "_on_" + type(e).__name__)
        handler(e)
        if e.pegs:
            side = self._side(e.player)
            front = self._pegs[side].front
            # The peg that reaches the target goes into the game hole: no score past it.
            self._pegs[side] = Pegs(min(front + e.points, self.target), front)

    def _replay_standing(self) -> None:
        self._clear_state()
        for e in self._journal:
            if not isinstance(e, ev.Undone) and e.step not in self._undone:
                self._apply(e)

    def _on_GameStarted(self, e: ev.GameStarted) -> None:
        self._variant = variant_named(e.variant)
        self._players = e.players
        self._options = e.options
        self._game_no = e.game_no
        self._new_game_state()

    def _on_CardCutForDeal(self, e: ev.CardCutForDeal) -> None:
        self._cuts[self._seat(e.player)] = e.card

    def _on_CutTied(self, e: ev.CutTied) -> None:
        self._cutting = {self._seat(p) for p in e.players}
        self._cuts = {}

    def _on_DealerChosen(self, e: ev.DealerChosen) -> None:
        self._dealer = self._seat(e.player)
        self._phase = "deal"

    def _on_RoundStarted(self, e: ev.RoundStarted) -> None:
        self._dealer = self._seat(e.dealer)
        self._round_no = e.round_no
        self._phase = "starter"
        self._new_round_state()

    def _on_ThreeForLast(self, e) -> None:
        pass

    def _on_StarterTurned(self, e: ev.StarterTurned) -> None:
        v = self._variant
        self._starter = e.card
        self._phase = "play"
        self._play = PlayState.start(v.players, v.hand, v.single_series, self._left_of(self._dealer))

    def _on_HisHeels(self, e) -> None:
        pass

    def _on_GoSaid(self, e: ev.GoSaid) -> None:
        self._play.apply_go(self._seat(e.player), e.inferred)

    def _on_CardPlayed(self, e: ev.CardPlayed) -> None:
        self._play.apply_card(self._seat(e.player), e.card, e.count)

    def _on_GoPegged(self, e) -> None:
        self._play.apply_go_pegged()

    def _on_LastCard(self, e) -> None:
        pass

    def _on_PlayEnded(self, e) -> None:
        self._play.apply_end()
        self._phase = "show"
        self._show = ShowState.start(self._variant.players, self._dealer)

    def _on_HandShown(self, e: ev.HandShown) -> None:
        self._show.apply_shown(e.cards)

    def _on_PlayCorrected(self, e: ev.PlayCorrected) -> None:
        self._play.apply_correction(self._seat(e.player), e.misread, e.cards)

    def _on_ClaimPegged(self, e: ev.ClaimPegged) -> None:
        silent = e.actual - e.claimed if e.verdict == "under" and self._options.muggins else 0
        self._show.apply_claim(self._seat(e.player), silent)
        if self._show.current is None:
            self._phase = "deal"

    def _on_MissedPointsTold(self, e) -> None:
        pass

    def _on_MugginsTaken(self, e) -> None:
        self._show.apply_muggins()

    def _on_RenegeFound(self, e) -> None:
        pass

    def _on_PenaltyPegged(self, e) -> None:
        pass

    def _on_GameWon(self, e: ev.GameWon) -> None:
        self._result = e
        self._phase = "over"

    # --- helpers ---------------------------------------------------------------------------------
    def _seat(self, player: str) -> int:
        try:
            return self._players.index(player)
        except ValueError:
            raise IllegalActionError(f"{player!r} is not playing: the players are "
                                     f"{', '.join(self._players)}") from None

    def _side(self, player: str) -> int:
        return self._variant.side_of(self._seat(player))

    def _left_of(self, seat: int) -> int:
        return (seat + 1) % self._variant.players

    def _opponent(self, seat: int) -> int:
        """Who pegs a penalty against this seat: the next player to the left on the other side."""
        for i in range(1, self._variant.players):
            other = (seat + i) % self._variant.players
            if self._variant.side_of(other) != self._variant.side_of(seat):
                return other
        return seat
