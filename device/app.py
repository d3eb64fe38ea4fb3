"""`muggins run`: the device itself — camera, eyes, controller, journal, LED board, panel and voice.

This is the one place they are put together: `muggins run` with the config's hardware, `muggins demo`
with simulated parts (a rendered camera, a simulated strip, a scripted panel, a quiet or spoken
voice: sim/demo_game.py), the tests and the benchmarks with theirs. A part not given is opened as the
config says. What is missing is said once, clearly, and the device carries on with what it has: no
LED strip → a simulated board; no GPIO → no buttons; no espeak-ng → printed words; a camera that
fails is retried (the players are told). A replay camera source runs the whole device on a laptop.
The journal brings the game back after a power cut.
"""

from __future__ import annotations

import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from device.board import Board
from device.controller import Controller
from device.eyes import Eyes, Look
from device.journal import JOURNAL_NAME, Journal
from device.parts import Parts
from device.presenter import Presenter
from vision.zone_names import CENTRE, CRIB, seat


@dataclass(frozen=True)
class Display:
    """How the device writes what it shows and says as text (to `out`), beside the board and the voice.

    json_lines: each event as one JSON line; board_pictures: the board drawn as text after each peg
    (colour: in ANSI colours); live_board: the loop's tick() plays the board's animations in time
    (`muggins run`), else each event's animation is finished at once (a simulation's steps)."""

    json_lines: bool = False
    board_pictures: bool = False
    colour: bool = False
    live_board: bool = True


class Device:
    """One running device. `run()` returns when a replay ends, on SIGTERM/SIGINT, or after max_frames.

    `step()` is one turn of the loop; its parts (`see` a frame, `act_on` what was seen, `poll_panel`,
    `show_board`) are also what a simulation drives step by step (sim/simulation.py).
    header: more settings for the journal's header, which a journal must match to be resumed.
    """

    def __init__(self, config, *, state_dir: Path | None = None, new_game: bool = False,
                 out: TextIO | None = None, err: TextIO | None = None, parts: Parts | None = None,
                 on_present: Callable[[int, object], None] | None = None,
                 display: Display | None = None, header: dict | None = None):
        self.config = config
        # The streams of the moment the device starts, not of the moment this module was imported.
        self.out, self.err = out or sys.stdout, err or sys.stderr
        self.rules = config.game
        self.display = display or Display()
        self.state_dir = Path(state_dir if state_dir is not None else config.state_dir)
        self.parts = parts or Parts()
        self.stopping = False
        self.frames = 0
        self.warming = 0
        self.ready_at: float | None = None
        self.on_present = on_present
        self.journal = Journal.open(self.state_dir / JOURNAL_NAME, {**self.rules.to_dict(), **(header or {})},
                                    new_game=new_game)
        for notice in self.journal.notices:
            self._tell(notice)
        self.resumed = len(self.journal) > 0
        self.board = Board.from_config(config)
        self._open_parts()
        names = [seat(i) for i in range(len(self.rules.players))] + [CENTRE]
        if config.zones and CRIB in config.zones:
            names.append(CRIB)
        side = config.game.side_of
        shown = self.display
        presenter = Presenter(self.board, self.parts.voice,
                              lambda player: side(self.rules.players.index(player)),
                              text=self.out, json_lines=shown.json_lines, muggins=self.rules.muggins,
                              draw_board=self.board_picture if shown.board_pictures else None,
                              # live: the loop's tick() plays the animations; else each at once
                              settle=(lambda board: None) if shown.live_board else None,
                              on_present=on_present)
        self.controller = Controller(self.rules, self.journal, presenter, zones=names)
        self.controller.start()
        self.eyes: Eyes | None = None

    # ---- opening the hardware, or saying why not ---------------------------------------------

    def _open_parts(self) -> None:
        p, c = self.parts, self.config
        if p.leds is None:
            from device.leds.output import open_output

            try:
                p.leds = open_output(c.board, self.board.layout)
            except Exception as exc:  # no SPI, no permission, no library: the game goes on
                self._tell(f"no LED strip ({exc}); the board is simulated")
                p.leds = open_output(c.board, self.board.layout, simulate=True)
        if p.voice is None:
            from device.voice import Voice

            p.voice = Voice(c.voice)
        if p.panel is None:
            try:
                from device.panel import Panel

                p.panel = Panel(c.panel)
            except Exception as exc:  # no GPIO here: play on without buttons
                self._tell(f"no button panel ({exc}); claims cannot be made from buttons")
                p.panel = None
        if p.source is None:
            from vision.sources import open_resilient, parse_source_spec

            spec = parse_source_spec(c.camera.source)
            if spec["kind"] == "replay" and not Path(spec["path"]).exists():
                from device.errors import ConfigError

                raise ConfigError(f"{c.path or 'config'}: [camera] source: no such file or folder "
                                  f"{spec['path']!r} to replay")

            p.source = open_resilient(c.camera.source, size=tuple(c.camera.resolution), fps=c.camera.fps,
                                      on_notice=self._camera_notice)
        if p.recognizer is None:
            from device.eyes import recognizer_for
            from device.learned_decks import decks_folder
            from device.table_print import print_path

            p.recognizer = recognizer_for(c.camera, decks_folder(c, state_dir=self.state_dir), self._tell,
                                          print_path(c, self.state_dir))

    def _camera_notice(self, notice) -> None:
        if notice.kind == "failed":
            self.controller.on_camera_trouble(notice.message)
        else:
            self._tell(notice.message)

    def _tell(self, text: str) -> None:
        print(f"muggins: {text}", file=self.err, flush=True)

    # ---- running -----------------------------------------------------------------------------

    def _zones_for(self, frame):
        from vision.zones import zones_for_game

        width, height = frame.size
        return zones_for_game(dict(self.config.zones) or None, width, height, len(self.rules.players),
                              crib=False)

    def board_picture(self, board: Board | None = None) -> str:
        """The board as the LEDs show it now, drawn as text (the presenter prints it after a peg)."""
        from device.leds.picture import text_picture

        board = self.board if board is None else board
        frame = board.render()
        self.parts.leds.show(frame)
        return text_picture(board.layout, frame, board.names, self.display.colour)

    @property
    def hold_frames(self) -> int:
        """Frames a still table must be filmed before the eyes report all of it."""
        if self.eyes is not None:
            return self.eyes.hold_frames
        from vision.tracker import TrackerConfig

        return TrackerConfig().hold_frames

    def see(self, frame, repeat: int = 1) -> Look:
        """What the eyes make of one frame (filmed `repeat` times over); nothing is acted on yet.
        The eyes open on the first frame, for its size: the config's zones, or the default layout."""
        return self._eyes_for(frame).look(frame.image, frame.timestamp, repeat=repeat)

    def _eyes_for(self, frame) -> Eyes:
        if self.eyes is None:
            self.eyes = Eyes(self.parts.recognizer, self._zones_for(frame), tell=self._tell)
        return self.eyes

    def act_on(self, look: Look) -> None:
        """Hand what the eyes saw to the controller: a table too dark to see, or the table's changes."""
        if look.dark:
            self.controller.on_dark()
        else:
            self.controller.on_table(look.changes, look.table)

    def adopt(self, look: Look) -> None:
        """After a restart: the table as it lies is what the journal already has; nothing is acted on."""
        self.controller.adopt(look.table)

    def poll_panel(self) -> None:
        """The presses since the last poll, each to the controller."""
        if self.parts.panel is not None:
            for event in self.parts.panel.poll():
                self.controller.on_panel(event)

    def show_board(self, dt: float) -> None:
        """The board's animations moved on by dt seconds, and its frame shown on the LEDs."""
        self.board.tick(dt)
        self.parts.leds.show(self.board.render())

    def step(self) -> bool:
        """One turn of the loop: a frame (if the camera gives one), the panel, the board. False at the end."""
        from vision.sources import SourceExhausted

        try:
            frame = self.parts.source.read()
        except SourceExhausted:
            return False
        if frame is not None:
            self._camera_step(frame)
            self.frames += 1
        else:
            time.sleep(0.05)
        self.poll_panel()
        self.show_board(1.0 / max(1.0, self.config.camera.fps))
        return True

    def _camera_step(self, frame) -> None:
        warm_up = self._eyes_for(frame).hold_frames if self.resumed else 0
        if self.ready_at is None and self.warming >= warm_up:
            self.ready_at = time.monotonic()
            self._tell(f"ready: {len(self.rules.players)} players, {self.rules.variant}, "
                       f"{self.rules.mode} mode, {'resumed' if self.resumed else 'new game'}; "
                       f"journal {self.journal.path}")
        look = self.see(frame)
        if self.warming < warm_up:
            # After a restart the first frames only show what lies there already: the journal
            # has it, so it is taken as it lies, not acted on again.
            self.adopt(look)
            self.warming += 1
        elif look.dark or look.changes:
            self.act_on(look)

    def run(self, max_frames: int | None = None) -> int:
        previous = {}
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                previous[sig] = signal.signal(sig, self._stop)
            except ValueError:  # not the main thread (tests)
                pass
        try:
            while not self.stopping and (max_frames is None or self.frames < max_frames):
                if not self.step():
                    break
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self.close()
        return 0

    def _stop(self, *_):
        self.stopping = True

    def close(self) -> None:
        p = self.parts
        for part in (p.source, p.panel, p.leds):
            if part is not None and hasattr(part, "close"):
                try:
                    part.close()
                except Exception:
                    pass
        if p.voice is not None and hasattr(p.voice, "close"):
            p.voice.close()
        self.journal.close()
