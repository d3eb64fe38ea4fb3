"""`muggins demo` put together: a seeded game on a simulated table, through the whole real device.

Script (rules engine autoplay) → frames (held-out deck, the renderer's compositor) → recognizer →
tracker → controller → journal → board (simulated LED strip, drawn in the terminal) and voice. With a
state directory the journal survives a kill, and the next run resumes where it stopped.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from device.board import Board
from device.config import BoardConfig, GameConfig, VoiceConfig
from device.controller import Controller
from device.errors import DeviceError
from device.eyes import Eyes
from device.journal import JOURNAL_NAME, Journal
from device.leds.output import open_output
from device.leds.picture import wants_colour
from device.presenter import Presenter
from sim.simulation import Pace, Simulation
from sim.table_script import build_script

SPEEDS = {
    "max": Pace(0.0, False),      # no pauses, nothing spoken (printed only): for tests and timing
    "fast": Pace(0.08, False),    # a brisk show; speech as it keeps up
    "normal": Pace(0.3, True),    # each announcement spoken before the next step
}


@dataclass
class DemoOptions:
    seed: int = 1
    speed: str = "normal"
    json: bool = False
    mute: bool = False
    state_dir: Path | None = None
    new_game: bool = False
    deck: str | None = None


def default_recognizer():
    """The real recognizer with the committed model (a clear error when the model is missing)."""
    from vision.recognizer import Recognizer

    return Recognizer()


def run_demo(options: DemoOptions, out: TextIO = sys.stdout, err: TextIO = sys.stderr,
             recognizer=None) -> int:
    """Play (or resume) the demo game; the exit status: 0 when the game reached its end."""
    if options.speed not in SPEEDS:
        raise DeviceError(f"--speed must be one of {', '.join(SPEEDS)}, not {options.speed!r}")
    temporary = options.state_dir is None
    state_dir = Path(tempfile.mkdtemp(prefix="muggins-demo-")) if temporary else Path(options.state_dir)
    try:
        return _run(options, state_dir, out, err, recognizer)
    finally:
        if temporary:
            shutil.rmtree(state_dir, ignore_errors=True)


def _run(options: DemoOptions, state_dir: Path, out: TextIO, err: TextIO, recognizer) -> int:
    from sim.frames import DEFAULT_DECK, TablePainter
    from sim.render.decks import HELD_OUT_DECKS

    deck = options.deck or DEFAULT_DECK
    if deck not in HELD_OUT_DECKS:
        raise DeviceError(f"--deck must be a deck held out of the card model's training: "
                          f"{', '.join(HELD_OUT_DECKS)} (not {deck!r})")
    rules = GameConfig()
    header = {**rules.to_dict(), "demo_seed": options.seed, "deck": deck}
    journal = Journal.open(state_dir / JOURNAL_NAME, header, new_game=options.new_game)
    for notice in journal.notices:
        print(f"muggins demo: {notice}", file=err)
    resumed = len(journal) > 0
    painter = TablePainter(options.seed, len(rules.players), deck=deck)
    script = build_script(options.seed, rules)
    eyes = Eyes(recognizer if recognizer is not None else default_recognizer(), painter.zones)

    board = Board(list(rules.players), target=121)
    layout = board.layout
    echo = None if options.json else out
    leds = open_output(BoardConfig(driver="simulated"), layout, simulate=True, echo=None,
                       names=list(rules.players))
    colour = wants_colour(out)

    def draw(board_now: Board) -> str:
        from device.leds.picture import text_picture

        frame = board_now.render()
        leds.show(frame)
        return text_picture(layout, frame, board_now.names, colour)

    voice = _voice(options)
    presenter = Presenter(board, voice, lambda player: rules.players.index(player) % 2, text=out,
                          json_lines=options.json, draw_board=draw if echo is not None else None,
                          muggins=rules.muggins)
    try:
        controller = Controller(rules, journal, presenter, zones=painter.zones.names)
        simulation = Simulation(script, painter, eyes, controller, pace=SPEEDS[options.speed], voice=voice)
        if not options.json:
            out.write(f"Muggins demo, game {options.seed}: {' against '.join(rules.players)}, six-card to 121; "
                      f"{painter.deck} cards on a {painter.texture} table under the camera\n")
        if resumed:
            _say_resumed(controller, simulation.resume_index, options, out)
        else:
            controller.start()
        finished = simulation.run()
        final = controller.final()
        final["expected"] = script.expected
        final["as_scripted"] = final["scores"] == script.expected["scores"] and \
            final["winner"] == script.expected["winner"]
        if options.json:
            out.write(json.dumps({"final": final}, sort_keys=True) + "\n")
        else:
            if echo is not None:
                out.write(draw(board) + "\n")
            scores = ", ".join(f"{name} {score}" for name, score in final["scores"].items())
            out.write(f"final: {scores}; winner {final['winner']} ({simulation.steps_run} steps, "
                      f"{eyes.frames} camera frames, {simulation.extra_looks} second looks)\n")
        out.flush()
        if not finished:
            print("muggins demo: the simulated table ran out before the game ended: the device read "
                  "the table differently from the script", file=err)
            return 1
        return 0
    finally:
        if voice is not None:
            voice.close(drain=options.speed == "normal")
        leds.close()
        journal.close()


def _voice(options: DemoOptions):
    """espeak-ng when it is installed, not muted and not at --speed max; else nothing (lines are printed)."""
    if options.mute or options.speed == "max" or shutil.which("espeak-ng") is None:
        return None
    from device.voice import Voice

    return Voice(VoiceConfig(engine="espeak-ng"))


def _say_resumed(controller: Controller, index: int, options: DemoOptions, out: TextIO) -> None:
    g = controller.game
    state = {"seq": controller.seq, "step": index, "scores": {" & ".join(s): v for s, v in zip(g.sides, g.scores)},
             "phase": g.phase, "round": g.round_no, "dealer": g.dealer}
    if options.json:
        out.write(json.dumps({"resumed": state}, sort_keys=True) + "\n")
    else:
        scores = ", ".join(f"{k} {v}" for k, v in state["scores"].items())
        out.write(f"resumed from the journal after event {controller.seq}: {scores}\n")
    out.flush()
