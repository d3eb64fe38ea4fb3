"""Shows journaled events to the players: pegs on the board, words from the voice, a line of text.

The controller hands every event here only after the journal has it, so what the players see and
hear is never ahead of what a restart would restore. `restore` rebuilds the board silently from the
events of a resumed game, exactly as they were pegged (front and back pegs both).
"""

from __future__ import annotations

import json
from typing import Callable, Iterable, Sequence, TextIO

from cribbage import events as ev
from device import device_events as dev
from device.announcements import announce


class Presenter:
    """Board + voice + text output.

    side_of: player name -> board side; text: where shown lines (or JSON lines) go;
    draw_board: called after a peg with the board, returns text to print (None: no drawing);
    on_present: called with (seq, event) once each event is shown (a benchmark times it).
    """

    def __init__(self, board, voice, side_of: Callable[[str], int], *, text: TextIO | None = None,
                 json_lines: bool = False, draw_board: Callable[[object], str] | None = None,
                 settle: Callable[[object], None] | None = None, muggins: bool = True,
                 on_present: Callable[[int, object], None] | None = None):
        self.board = board
        self.muggins = muggins
        self.voice = voice
        self.side_of = side_of
        self.text = text
        self.json_lines = json_lines
        self.draw_board = draw_board
        self.settle = settle or (lambda board: board.finish())
        self.on_present = on_present
        self._effective: list = []  # game events still standing (for undo)

    # ---- the board -------------------------------------------------------------------------

    def _apply_to_board(self, event) -> bool:
        """Change the board for one event; True if a peg moved."""
        board = self.board
        if isinstance(event, (ev.RoundStarted,)):
            board.set_dealer(self.side_of(event.dealer))
        elif isinstance(event, ev.DealerChosen):
            board.set_dealer(self.side_of(event.player))
        elif isinstance(event, ev.GameStarted):
            board.new_game()
        elif isinstance(event, dev.ClaimPreview):
            board.preview(self.side_of(event.player), event.points)
            return False
        elif isinstance(event, ev.Undone):
            self._rebuild()
            return True
        if isinstance(event, ev.ClaimPegged) and event.verdict == "over":
            board.flash(self.side_of(event.player), "overclaim")
        if isinstance(event, ev.MugginsTaken):
            board.flash(self.side_of(event.player), "muggins")
        pegs = event.pegs
        moved = False
        if pegs is not None and pegs[1] > 0:
            board.peg(self.side_of(pegs[0]), pegs[1])
            moved = True
        if isinstance(event, ev.GameWon):
            board.celebrate(self.side_of(event.winner))
            moved = True
        return moved

    def _rebuild(self) -> None:
        """After an undo: put every peg back as the standing events leave it."""
        undone = {e.undone for e in self._effective if isinstance(e, ev.Undone)}
        standing = [e for e in self._effective if not isinstance(e, ev.Undone) and e.step not in undone]
        self.board.new_game()
        for e in standing:
            self._apply_to_board(e)
        self.board.finish()

    def restore(self, events: Iterable) -> None:
        """Bring the board back to where these (journaled) events left it, without a word."""
        for event in events:
            if isinstance(event, ev.Event):
                self._effective.append(event)
            self._apply_to_board(event)
        self.board.clear_preview()
        self.board.finish()

    # ---- one event -------------------------------------------------------------------------

    def present(self, seq: int, event, scores: Sequence[int] | None = None) -> None:
        """Peg, say and print one event that the journal already holds."""
        if isinstance(event, ev.Event):
            self._effective.append(event)
        moved = self._apply_to_board(event)
        words = announce(event, muggins=self.muggins)
        if words.spoken and self.voice is not None:
            self.voice.say(words.spoken)
        if self.text is not None:
            if self.json_lines:
                line = {"seq": seq, "event": event.to_dict(), "spoken": words.spoken}
                if scores is not None:
                    line["scores"] = list(scores)
                self.text.write(json.dumps(line, sort_keys=True) + "\n")
            else:
                self.text.write(f"{words.shown}\n")
                if words.spoken:
                    self.text.write(f'    "{words.spoken}"\n')
                if moved and self.draw_board is not None:
                    self.text.write(self.draw_board(self.board) + "\n")
            self.text.flush()
        self.settle(self.board)
        if self.on_present is not None:
            self.on_present(seq, event)
