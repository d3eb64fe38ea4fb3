"""The game controller: what the table and the panel say, turned into game actions, journaled, shown.

Inputs come one step at a time — the changes of the stable table after a frame (ZoneEvents with
the tracker's TableState), a dark frame, or one panel press. Each step's events (the game's,
plus the device's own notices) are written to the journal in one synced transaction, and only then
handed to the presenter (board, voice, text). So a restart, which rebuilds the game from the
journal, never has less than the players saw.

The round's logic lives in two phases: PlayPhase (cut for deal, starter, the play) and ShowPhase
(the show: cards shown, claims, Muggins, Dispute). They are given the game, the seating and this
controller as the Step they add records to; the controller owns the table and the step discipline.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterable, Sequence

from cribbage import events as ev
from cribbage.errors import CribbageError
from cribbage.game import Game
from device import device_events as dev
from device import trouble
from device.config import GameConfig
from device.device_events import record_from_dict
from device.journal import Journal
from device.play_phase import PlayPhase
from device.seating import Seating
from device.show_phase import ShowPhase
from device.step import Table
from vision.zone_events import ZoneEvent

if TYPE_CHECKING:
    from device.panel import PanelEvent


class EmptyTable:
    """A TableState-like table with nothing on it (before the first frame)."""

    cards: dict = {}
    unreadable: dict = {}

    def in_zone(self, zone: str) -> frozenset:
        return frozenset()


class Controller:
    """Joins the eyes, the rules and the outputs. One instance per running game (and its journal)."""

    def __init__(self, rules: GameConfig, journal: Journal, presenter=None, *, zones: Iterable[str] = ()):
        self.rules = rules
        self.journal = journal
        self.presenter = presenter
        self.table = EmptyTable()
        self.last_notice: str | None = None
        self.pending: list = []  # records of the step in progress
        self.seq = 0
        self._batch = 0          # > 0: inside batch(): one commit at its end
        self._restore()
        self.seating = Seating(self.game.players, zones)
        self._play = PlayPhase(self.game, self.seating, self)
        self._show = ShowPhase(self.game, self.seating, self, auto=rules.mode == "auto")

    # ---- restoring -------------------------------------------------------------------------

    def _restore(self) -> None:
        entries = self.journal.entries()
        records = [record_from_dict(e.event) for e in entries]
        game_events = [r for r in records if isinstance(r, ev.Event)]
        if game_events:
            self.game = Game.from_events(game_events)
        else:
            self.game = self.rules.new_game()
            self.pending.extend(self.game.events)
        for r in records:
            self._fold(r)
        self.seq = entries[-1].seq if entries else 0
        self.restored = records
        if self.presenter is not None and records:
            self.presenter.restore(records)

    def _fold(self, record) -> None:
        """Keep the little state the device adds to the game's (what it last complained about)."""
        if isinstance(record, dev.Notice):
            self.last_notice = record.text
        elif isinstance(record, ev.Event):
            self.last_notice = None

    def start(self, step: int | None = None) -> None:
        """Journal and show what the constructor produced (a new game's first event), if anything."""
        self._commit(step)

    # ---- reading the state -----------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def over(self) -> bool:
        return self.game.is_over

    def final(self) -> dict:
        """The result as the demo's last JSON line reports it."""
        g = self.game
        out = {"scores": {" & ".join(side): score for side, score in zip(g.sides, g.scores)},
               "winner": g.winner, "game_no": g.game_no, "rounds": g.round_no}
        if g.result is not None:
            out["margin"] = g.result.margin
        return out

    # ---- producing records -----------------------------------------------------------------

    def act(self, action, *args) -> tuple:
        """Perform a game action; its events join the step. CribbageError propagates (the caller words it)."""
        events = action(*args)
        for e in events:
            self._add(e)
        return events

    def notice(self, notice: dev.Notice) -> None:
        """Say something once: the same complaint twice in a row, with nothing happening between, is not repeated."""
        if notice.text == self.last_notice:
            return
        self._add(notice)

    def add(self, record) -> None:
        self._add(record)

    def _add(self, record) -> None:
        self.pending.append(record)
        self._fold(record)

    @contextmanager
    def batch(self, step: int | None = None):
        """Several inputs that make one step: their events are journaled together, at the end."""
        self._batch += 1
        try:
            yield self
        finally:
            self._batch -= 1
            if self._batch == 0:
                self._commit(step)

    def _commit(self, step: int | None) -> list[tuple[int, object]]:
        """Journal the step's records (one transaction), then show them. Returns (seq, record) pairs."""
        if self._batch:
            return []
        records, self.pending = self.pending, []
        if not records:
            return []
        seqs = self.journal.append([r.to_dict() for r in records], step=step)
        self.seq = seqs[-1]
        done = list(zip(seqs, records))
        if self.presenter is not None:
            for seq, record in done:
                self.presenter.present(seq, record, self.game.scores)
        return done

    # ---- inputs ----------------------------------------------------------------------------

    def on_table(self, changes: Sequence[ZoneEvent], table: Table, step: int | None = None) -> list:
        """Changes of the stable table (ZoneEvents) and the table as it now stands."""
        self.table = table
        for change in self._play.in_turn_order(changes):
            self._guarded(self._play.on_change, change, table)
        self._guarded(self._settle)
        return self._commit(step)

    def adopt(self, table: Table) -> None:
        """After a restart: take the table as it lies as already seen (everything acted on is journaled)."""
        self.table = table

    def on_dark(self, step: int | None = None) -> list:
        self.notice(trouble.dark())
        return self._commit(step)

    def on_camera_trouble(self, detail: str, step: int | None = None) -> list:
        self.notice(trouble.camera_lost(detail))
        return self._commit(step)

    def on_panel(self, event: PanelEvent, step: int | None = None) -> list:
        """A PanelEvent: dial, claim, muggins, dispute, undo, new_game, go."""
        handlers = {
            "dial": self._show.on_dial, "claim": lambda e: self._show.on_claim(e, self.table),
            "muggins": self._show.on_muggins, "dispute": self._show.on_dispute, "go": self._play.on_go,
            "undo": self._undo, "new_game": self._new_game,
        }
        handler = handlers.get(event.kind)
        if handler is not None:
            self._guarded(handler, event)
            self._guarded(self._settle)
        return self._commit(step)

    # ---- actions the controller takes itself -------------------------------------------------

    def _undo(self, event) -> None:
        self.act(self.game.undo)

    def _new_game(self, event) -> None:
        if self.game.can_new_game():
            self.act(self.game.new_game)
        else:
            self.notice(trouble.refused("the game in progress is not over: finish it, or start the "
                                        "device with --new-game"))

    def _settle(self) -> None:
        """What follows by itself from the table as it stands: a new deal, a hand to show, an auto count."""
        self._play.release_held(self.table)
        for _ in range(8):  # each pass may open the next count; a round has at most 5 counts
            before = len(self.pending)
            if self.game.phase == "deal" and not self.game.is_over:
                self._play.start_round_when_clear(self.table)
            if self.game.phase == "show" and not self.game.is_over:
                self._show.settle(self.table)
            if len(self.pending) == before:
                return

    def _guarded(self, handler, *args) -> None:
        """Run a handler; an action the rules refuse becomes a spoken notice, never a crash."""
        try:
            handler(*args)
        except CribbageError as exc:
            self.notice(trouble.refused(str(exc)))
