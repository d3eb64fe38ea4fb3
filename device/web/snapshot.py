"""What the page shows, as plain data: the game, the pegboard, the last announcement and breakdown.

A TableView is told of every event the presenter shows (its `on_present`), in the device's own
thread, and there builds a fresh snapshot (a dict nobody changes afterwards) for the server to send.
So the web thread never reads the game, the board or the journal while the frame loop changes them.
"""

from __future__ import annotations

from typing import Callable

from cribbage import events as ev
from device import device_events as dev
from device.announcements import announce

LOG_LINES = 8


def _hex(colour) -> str:
    return "#%02x%02x%02x" % tuple(colour)


class TableView:
    """Follows the shown events and publishes a snapshot after each. `publish(snapshot)` must be cheap."""

    def __init__(self, controller, board, *, muggins: bool = True,
                 publish: Callable[[dict], None] | None = None, mode: str = "run"):
        self.controller = controller
        self.board = board
        self.muggins = muggins
        self.publish = publish
        self.mode = mode
        self.seq = 0
        self.announcement: dict | None = None
        self.breakdown: dict | None = None
        self.log: list[str] = []
        self._shown_hands: dict[tuple[str, bool], list[str]] = {}
        self._preview: tuple[str, int] | None = None
        self.over_since_run = False

    # ---- following events --------------------------------------------------------------------

    def restore(self, records) -> None:
        """Take in a resumed game's journaled records (the page shows the last words said)."""
        for record in records:
            self._follow(record)

    def on_present(self, seq: int, event) -> None:
        """The presenter showed this event: follow it and publish the new snapshot."""
        self.seq = max(self.seq, seq)
        self._follow(event)
        if self.publish is not None:
            self.publish(self.snapshot())

    def _follow(self, event) -> None:
        words = announce(event, muggins=self.muggins)
        if words.spoken:
            self.announcement = {"spoken": words.spoken, "shown": words.shown}
        if words.shown and not isinstance(event, dev.ClaimPreview):
            self.log = (self.log + [words.shown])[-LOG_LINES:]
        if isinstance(event, ev.HandShown):
            self._shown_hands[(event.player, event.crib)] = [str(c) for c in event.cards]
        elif isinstance(event, ev.ClaimPegged):
            self.breakdown = {
                "player": event.player, "crib": event.crib, "claimed": event.claimed,
                "actual": event.actual, "points": event.points, "verdict": event.verdict,
                "cards": self._shown_hands.get((event.player, event.crib), []),
                "starter": self._starter(),
                "items": [item.to_dict() for item in event.breakdown]}
        elif isinstance(event, dev.DisputeReadout):
            self.breakdown = {
                "player": event.player, "crib": event.crib, "claimed": None, "actual": event.total,
                "points": None, "verdict": "dispute", "cards": list(event.cards), "starter": event.starter,
                "items": [{"kind": text, "cards": [], "points": None} for text in event.items]}
        elif isinstance(event, (ev.GameStarted, ev.RoundStarted)):
            self._shown_hands.clear()
        if isinstance(event, dev.ClaimPreview):
            self._preview = (event.player, event.points)
        elif isinstance(event, ev.Event):
            self._preview = None

    def _starter(self) -> str | None:
        starter = getattr(self.controller.game, "starter", None)
        return None if starter is None else str(starter)

    # ---- the snapshot ------------------------------------------------------------------------

    def snapshot(self) -> dict:
        """The page's state now: GET /api/state's body (without the asker's own `paired`)."""
        game = self.controller.game
        players = list(game.players)
        phase = game.phase
        show_turn = game.show_turn
        result = game.result
        return {
            "seq": self.seq,
            "mode": self.mode,
            "players": players,
            "sides": [list(side) for side in game.sides],
            "scores": {p: game.score(p) for p in players},
            "dealer": game.dealer,
            "phase": phase,
            "count": game.count if phase == "play" else None,
            "series": [str(c) for c in game.series] if phase == "play" else [],
            "turn": game.turn,
            "starter": None if game.starter is None else str(game.starter),
            "round": game.round_no,
            "game_no": game.game_no,
            "show_turn": None if show_turn is None else {"player": show_turn[0], "crib": show_turn[1]},
            "winner": game.winner,
            "margin": None if result is None else result.margin,
            "announcement": self.announcement,
            "breakdown": self.breakdown,
            "log": list(self.log),
            "board": self._board(players),
        }

    def _board(self, players) -> dict:
        b = self.board
        preview = None
        if self._preview is not None and self._preview[0] in players:
            side = self.controller.rules.side_of(players.index(self._preview[0]))
            preview = {"side": side, "points": self._preview[1]}
        return {
            "names": list(b.names), "colours": [_hex(c) for c in b.colours], "holes": b.holes,
            "target": b.target, "front": list(b.front), "back": list(b.back), "dealer": b.dealer,
            "winner": b.winner, "lines": b.lines(), "preview": preview,
            "dealer_leds": [b.layout.dealer_index(t) is not None for t in range(b.sides)],
        }
