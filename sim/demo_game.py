"""`muggins demo` put together: a seeded game on a simulated table, played by the device itself.

The device (device/app.py) is built as `muggins run` builds it, with simulated parts: a camera filming
the table (sim/parts.py: rendered frames of a held-out deck, or of a folder's faces, --faces,
sim/face_folder.py), the config's simulated LED strip (its frames drawn in the terminal), a panel
the script presses and a voice (espeak-ng, or quiet). Script
(rules engine autoplay) → camera → recognizer → tracker → controller → journal → board and voice.
With a state directory the journal survives a kill, and the next run resumes where it stopped.
Every variant plays (--variant): its players, seats, zones and board tracks come from its config.
The final line says what it took to see the game (sim/seeing.py), and whether every count landed as
the script's shadow game pegged it.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TextIO

from cribbage.variants import VARIANTS
from device.app import Device, Display
from device.config import BoardConfig, CameraConfig, Config, GameConfig, VoiceConfig
from device.controller import Controller
from device.errors import DeviceError
from device.leds.picture import wants_colour
from device.parts import Parts
from sim.parts import ScriptedPanel, SimulatedCamera
from sim.seeing import SEEING_NAME, Seeing, plain_line
from sim.simulation import FPS, Pace, Simulation
from sim.table_script import build_script, pegs_of

SPEEDS = {
    "max": Pace(0.0, False),      # no pauses, nothing spoken (printed only): for tests and timing
    "fast": Pace(0.08, False),    # a brisk show; speech as it keeps up
    "normal": Pace(0.3, True),    # each announcement spoken before the next step
}


# Seats in play order, clockwise: four players are two partnerships, North & South against East & West.
PLAYERS = {2: ("North", "South"), 3: ("North", "East", "West"), 4: ("North", "East", "South", "West")}


@dataclass
class DemoOptions:
    seed: int = 1
    speed: str = "normal"
    json: bool = False
    mute: bool = False
    state_dir: Path | None = None
    new_game: bool = False
    deck: str | None = None   # a held-out deck on the table; with faces: the learned deck read with
    variant: str = "six-card"
    web: str | None = None  # [HOST:]PORT: the table's web page shows the game (device/web/)
    faces: Path | None = None      # a folder of 52 faces named by card, laid instead of a held-out deck
    decks_dir: Path | None = None  # where the learned deck is kept (default: as `muggins deck learn`)
    printed_table: str | None = None  # "learnt" or "unlearnt": a mat printed with cards (sim/frames.py)


def demo_rules(variant: str) -> GameConfig:
    """The game the demo plays: the variant's players, everything else as a new config has it."""
    if variant not in VARIANTS:
        raise DeviceError(f"--variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    return GameConfig(variant=variant, players=PLAYERS[VARIANTS[variant].players])


def has_crib_zone(rules: GameConfig) -> bool:
    """Six-card for two turns the crib up beside the dealer's hand (the device's default zones); the
    other variants' tables have a crib zone, as a calibrated table may (more cards, or narrower seats)."""
    return rules.variant != "six-card"


def demo_config(rules: GameConfig, painter, state_dir: Path, speak: bool) -> Config:
    """The device's config for the simulated table: its camera's picture size and rate, its zones when
    they are not the default layout (as `muggins calibrate` would save them), a simulated LED strip,
    and a voice that speaks (espeak-ng) or stays quiet (the lines are printed anyway)."""
    zones = {} if not has_crib_zone(rules) else {
        name: tuple(tuple(point) for point in points) for name, points in painter.zones.to_config().items()}
    return Config(game=rules, board=BoardConfig(driver="simulated"),
                  voice=VoiceConfig(engine="espeak-ng" if speak else "none"),
                  camera=CameraConfig(resolution=painter.size, fps=FPS), zones=MappingProxyType(zones),
                  state_dir=state_dir)


def default_recognizer(deck=None):
    """The real recognizer with the committed model (a clear error when the model is missing), reading
    with a learned deck where one is given."""
    from vision.recognizer import Recognizer

    return Recognizer(deck=deck)


def table_deck(options: DemoOptions):
    """What lies on the table: a held-out deck's name, or a folder's faces (--faces), checked whole
    before anything is played (a user error naming each fault)."""
    from sim.frames import DEFAULT_DECK
    from sim.render.decks import HELD_OUT_DECKS

    if options.faces is not None:
        from sim.face_folder import read_face_folder

        return read_face_folder(options.faces)
    deck = options.deck or DEFAULT_DECK
    if deck not in HELD_OUT_DECKS:
        raise DeviceError(f"--deck must be a deck held out of the card model's training: "
                          f"{', '.join(HELD_OUT_DECKS)} (not {deck!r}); or give --faces DIR")
    return deck


def learned_deck(options: DemoOptions):
    """With --faces, the learned deck --deck names (`muggins deck learn NAME DIR`), kept where that
    command keeps it; None without --deck. A deck that cannot be used is an error: nothing is played."""
    from device.errors import UsageError

    if options.faces is None or options.deck is None:
        if options.decks_dir is not None:
            raise UsageError("--decks-dir needs --faces DIR and --deck NAME")
        return None
    from device.config import load_config
    from device.learned_decks import config_path, decks_folder
    from vision.learned_deck import check_name, load_deck

    check_name(options.deck)
    return load_deck(decks_folder(load_config(config_path(None)), options.decks_dir), options.deck)


def run_demo(options: DemoOptions, out: TextIO | None = None, err: TextIO | None = None,
             recognizer=None, painter_for=None) -> int:
    """Play (or resume) the demo game; the exit status: 0 when the game reached its end.

    recognizer: the device's (default: the real one); painter_for: what the camera draws with, given
    the table's painter (tests: a sketch that draws no cards, with a recognizer that knows them)."""
    out, err = out or sys.stdout, err or sys.stderr  # the streams of this call, not of the import
    if options.speed not in SPEEDS:
        raise DeviceError(f"--speed must be one of {', '.join(SPEEDS)}, not {options.speed!r}")
    deck, learned = table_deck(options), learned_deck(options)
    page = None
    if options.web is not None:  # said first: with --json its line is the first
        from device.web.table import open_page

        page = open_page(options.web, json_lines=options.json, out=out, takes_presses=False, mode="demo")
    temporary = options.state_dir is None
    state_dir = Path(tempfile.mkdtemp(prefix="muggins-demo-")) if temporary else Path(options.state_dir)
    try:
        code = _run(options, deck, learned, state_dir, out, err, recognizer, painter_for, page)
        if page is not None:
            print(f"muggins demo: the demo has ended; {page.url} shows its board until interrupted (Ctrl-C)",
                  file=err, flush=True)
            page.wait_until_interrupted()
        return code
    finally:
        if page is not None:
            page.close()
        if temporary:
            shutil.rmtree(state_dir, ignore_errors=True)


def _run(options: DemoOptions, deck, learned, state_dir: Path, out: TextIO, err: TextIO, recognizer,
         painter_for, page=None) -> int:
    from sim.frames import SIZE, TablePainter, table_zones

    rules = demo_rules(options.variant)
    crib = has_crib_zone(rules)
    painter = TablePainter(options.seed, len(rules.players), deck=deck,
                           zones=table_zones(SIZE, len(rules.players), crib=crib),
                           printed=options.printed_table is not None)
    script = build_script(options.seed, rules, crib_zone=crib)
    config = demo_config(rules, painter, state_dir, _speaks(options))
    drawn = painter if painter_for is None else painter_for(painter)
    recognizer = recognizer if recognizer is not None else default_recognizer(learned)
    if options.printed_table == "learnt":
        recognizer = _past_the_print(config, drawn, recognizer, state_dir, None if options.json else out)
    parts = Parts(source=SimulatedCamera(drawn), panel=ScriptedPanel(), recognizer=recognizer)
    display = Display(json_lines=options.json, board_pictures=not options.json, colour=wants_colour(out),
                      live_board=False)  # each step's animations are over before the next step
    if not options.json:
        sides = [" & ".join(rules.players[i::rules.sides]) for i in range(rules.sides)]
        out.write(f"Muggins demo, game {options.seed}: {' against '.join(sides)}, {rules.variant} to "
                  f"{rules.target}; {painter.deck} cards on a {painter.texture} table under the camera\n")
    header = {"demo_seed": options.seed, "deck": deck if isinstance(deck, str) else f"faces:{deck}"}
    if learned is not None:
        header["learned_deck"] = learned.name
    device = Device(config, new_game=options.new_game, out=out, err=err, parts=parts, display=display,
                    header=header)
    try:
        if page is not None:
            page.attach(device)
        simulation = Simulation(script, device, pace=SPEEDS[options.speed])
        simulation.seeing = Seeing.resumed(state_dir / SEEING_NAME, simulation.resume_index)
        if device.resumed:
            _say_resumed(device.controller, simulation.resume_index, options, out)
        finished = simulation.run()
        final = device.controller.final()
        final["expected"] = script.expected
        # every count as the shadow game pegged it, in order: the end alone could hide two wrong counts
        final["as_scripted"] = final["scores"] == script.expected["scores"] and \
            final["winner"] == script.expected["winner"] and pegs_of(device.controller.game.events) == script.pegs
        final["seeing"] = simulation.seeing.totals()
        if options.json:
            out.write(json.dumps({"final": final}, sort_keys=True) + "\n")
        else:
            out.write(device.board_picture() + "\n")
            out.write(plain_line(final["seeing"]) + ("" if final["as_scripted"] else "; not as scripted") + "\n")
            scores = ", ".join(f"{name} {score}" for name, score in final["scores"].items())
            out.write(f"final: {scores}; winner {final['winner']} ({simulation.steps_run} steps, "
                      f"{simulation.frames} camera frames, {simulation.extra_looks} second looks)\n")
        out.flush()
        if not finished:
            print("muggins demo: the simulated table ran out before the game ended: the device read "
                  "the table differently from the script", file=err)
            return 1
        return 0
    finally:
        voice = device.parts.voice
        if voice is not None and hasattr(voice, "close"):
            voice.close(drain=options.speed == "normal")
        device.close()


def _past_the_print(config: Config, painter, recognizer, state_dir: Path, out: TextIO | None):
    """The empty table learnt as `muggins calibrate --table` learns it (device/table_print.py), kept in
    the state directory, and the recognizer that reads past its print."""
    from device.calibration import table_print_of
    from device.table_print import describe, print_path, reading_past, save_print
    from sim.table_script import TableStep

    table_print, _ = table_print_of(config, painter.draw(TableStep(zones=()), -1), recognizer)
    save_print(print_path(config, state_dir), table_print)
    if out is not None:
        out.write(f"the empty table learnt: {describe(table_print)}\n")
    return reading_past(recognizer, table_print)


def _speaks(options: DemoOptions) -> bool:
    """espeak-ng when it is installed, not muted and not at --speed max; else quiet (lines are printed)."""
    return not options.mute and options.speed != "max" and shutil.which("espeak-ng") is not None


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
