"""`muggins test-hardware`: light every LED hole by hole, then report each button as it is pressed.

On the Pi it drives the real strip and reads the real pins; a builder watches the light walk along
each track (a wrong hole shows at once) and presses every button. With --simulate it runs the same
walk on a simulated strip and plays a scripted set of presses on gpiozero's MockFactory, so the whole
path can be checked anywhere.
"""

from __future__ import annotations

import argparse
import time

from device.board import Board
from device.config import load_config
from device.leds import power
from device.leds.layout import Layout
from device.leds.output import open_output
from device.leds.picture import save_png
from device.panel import Panel, PanelEvent

WALK_LEVEL = 0.6  # of the side's colour: bright enough to see, well inside any budget for one LED


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE", help="configuration file (default: built-in defaults)")
    parser.add_argument("--simulate", action="store_true",
                        help="simulated strip and mock pins with scripted presses: no hardware needed")
    parser.add_argument("--delay", type=float, default=None, metavar="S",
                        help="seconds each LED stays lit in the walk (default 0.05; 0 with --simulate)")
    parser.add_argument("--timeout", type=float, default=None, metavar="S",
                        help="stop after S seconds without a press (default 60; 0 with --simulate)")
    parser.add_argument("--png", metavar="FILE", help="also save a picture of the last frame (PNG)")


def run(args) -> int:
    config = load_config(args.config)
    delay = args.delay if args.delay is not None else (0.0 if args.simulate else 0.05)
    timeout = args.timeout if args.timeout is not None else (0.0 if args.simulate else 60.0)
    layout = Layout.from_config(config.board, config.game.sides)
    board = Board.from_config(config, layout)
    out = open_output(config.board, layout, simulate=args.simulate)
    kind = "simulated" if args.simulate or config.board.driver == "simulated" else "WS2812 over SPI"
    print(f"LEDs: {layout.size} on {len(layout.strip_sizes)} strip(s), {kind}")
    with out:
        walk_leds(board, out, delay)
        report_power(layout, config.board)
        print("buttons: press each one, turn and press the dial"
              + (" (scripted presses on mock pins)" if args.simulate else "; Ctrl-C to end"))
        count = report_buttons(config, board, out, args.simulate, timeout)
        print(f"buttons: {count} event(s) seen")
        if args.png:
            print(f"picture: {save_png(layout, board.render(), args.png)}")
    return 0


def walk_leds(board: Board, out, delay: float) -> None:
    """Light each hole of each track alone, in hole order, saying which LED it is."""
    layout = board.layout
    for side in range(board.sides):
        colour = tuple(round(c * WALK_LEVEL) for c in board.colours[side])
        stops = [(h, layout.index(side, h), layout.spot(side, h)) for h in layout.holes_of(side)]
        if layout.dealer_index(side) is not None:
            stops.append(("dealer", layout.dealer_index(side), layout.dealer_spot(side)))
        print(f"track {side} ({board.names[side]}): {len(stops)} LEDs")
        for hole, flat, spot in stops:
            frame = layout.blank()
            frame[flat] = colour
            out.show(frame)
            name = {0: "start hole", layout.game_hole: "game hole", "dealer": "dealer LED"}.get(hole, f"hole {hole}")
            print(f"  {board.names[side]} {name}: strip {spot.strip} LED {spot.index}")
            if delay:
                time.sleep(delay)
    out.show(layout.blank())


def report_power(layout: Layout, board_config) -> None:
    white = [(255, 255, 255)] * layout.size
    capped = power.limit(white, board_config.brightness, board_config.current_budget_ma)
    print(f"power: all {layout.size} LEDs full white would draw about {power.estimate_ma(white) / 1000:.1f} A; "
          f"brightness {board_config.brightness} and the {board_config.current_budget_ma} mA budget "
          f"hold it to {power.estimate_ma(capped) / 1000:.1f} A")


def describe(event: PanelEvent, config, sides: list[str]) -> str:
    """One line for a panel event, naming the side or seat and the GPIO it came from."""
    panel = config.panel
    if event.kind == "dial":
        return f"dial turned: {event.value}"
    if event.kind == "claim":
        return f"dial pressed (GPIO{panel.encoder_button}): claim {event.value}"
    if event.kind == "muggins":
        return f"Muggins for {sides[event.player]} (GPIO{panel.muggins[event.player]})"
    if event.kind == "go":
        return f"Go for {config.game.players[event.player]} (GPIO{panel.go[event.player]})"
    if event.kind == "dispute":
        return f"Dispute (GPIO{panel.dispute})"
    if event.kind == "undo":
        return f"Dispute held: undo (GPIO{panel.dispute})"
    return "both Muggins held: new game"


def show_event(board: Board, event: PanelEvent) -> None:
    """Make each press visible on the board too, as the game would."""
    if event.kind == "dial":
        board.preview(0, event.value)
    elif event.kind == "claim":
        board.peg(0, event.value)
    elif event.kind == "muggins":
        board.flash(event.player, "muggins")
    elif event.kind == "dispute":
        board.flash(0, "overclaim")
    elif event.kind in ("undo", "new_game"):
        board.new_game()


def report_buttons(config, board: Board, out, simulate: bool, timeout: float) -> int:
    """Print each panel event until `timeout` seconds pass without one; returns how many were seen."""
    clock = _ScriptClock() if simulate else time.monotonic
    factory = None
    if simulate:
        from gpiozero.pins.mock import MockFactory  # noqa: PLC0415
        factory = MockFactory()
    panel = Panel(config.panel, pin_factory=factory, clock=clock)
    seen = 0
    with panel:
        if simulate:
            _script(factory, config.panel, clock)
        while True:
            event = panel.get(timeout=timeout if timeout > 0 else 0.01)
            if event is None:
                break
            seen += 1
            print(f"  {describe(event, config, board.names)}")
            show_event(board, event)
            for frame in board.frames(fps=30):
                out.show(frame)
                if not simulate:
                    time.sleep(1 / 30)
    return seen


class _ScriptClock:
    """The clock the scripted presses run on: moved by the script, so long presses take no time."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _script(factory, panel, clock: _ScriptClock) -> None:
    """Every input once: dial three steps and press, each Muggins, each Go, Dispute short and long."""
    def press(pin, hold=0.1):
        factory.pin(pin).drive_low()
        clock.now += hold
        factory.pin(pin).drive_high()
        clock.now += 1.0

    a, b = factory.pin(panel.encoder_a), factory.pin(panel.encoder_b)
    for _ in range(3):
        a.drive_low(), b.drive_low(), a.drive_high(), b.drive_high()
    press(panel.encoder_button)
    for pin in (*panel.muggins, *panel.go):
        press(pin)
    press(panel.dispute)
    press(panel.dispute, hold=panel.long_press_s + 0.5)
    m0, m1 = factory.pin(panel.muggins[0]), factory.pin(panel.muggins[1])
    m0.drive_low(), m1.drive_low()
    clock.now += panel.new_game_hold_s + 0.5
    m0.drive_high(), m1.drive_high()
