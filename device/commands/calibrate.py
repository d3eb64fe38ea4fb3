"""`muggins calibrate`: the camera view with the table zones drawn; adjust them and save them in the config.

With a screen: an OpenCV window. Drag a zone's corner with the mouse (or a zone's middle to move it
whole); keys: s save into the config, r back to the default layout, q or Esc quit.
Without one (a Pi over ssh): says so, writes the annotated picture as a PNG and prints the zones.
`--card`: measures the card size the camera sees from one card laid face up, and saves it.
`--table`: learns what the empty table shows that reads as a card (a playmat's or a felt's printed
cards), so that the device never takes it for a card laid (device/table_print.py).
`--deck NAME`: learns the players' own deck from the camera, suit by suit (the thirteen cards of a suit
laid in a row, ace to king, left to right), saying what it sees aloud and on the terminal; Enter goes
on, q (or the end of input) stops without saving; with --buttons a Go button or the dial's press goes
on and Dispute stops, so no keyboard or screen is needed. Learning a name again replaces that deck.
"""

from __future__ import annotations

import argparse
from pathlib import Path

KEYS = "drag corners or zones with the mouse | s: save  r: reset  q: quit"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", type=Path, default=None, help="the TOML config to read and save into")
    parser.add_argument("--png", type=Path, default=None,
                        help="write the camera view with the zones drawn to this PNG (default without a "
                             "screen: calibrate.png)")
    parser.add_argument("--no-window", action="store_true", help="do not open a window even with a screen")
    parser.add_argument("--card", action="store_true",
                        help="measure the card size the camera sees, from one card laid face up, and save it "
                             "as [camera] card_length (the recognizer then looks for cards of that size)")
    parser.add_argument("--table", action="store_true",
                        help="learn what the empty table shows that reads as a card (cards printed on a mat "
                             "or felt), so that the device reads past it; clear the table first")
    parser.add_argument("--deck", metavar="NAME",
                        help="learn the players' own deck from the camera, suit by suit, and save it as NAME "
                             "(then set [camera] deck = \"NAME\")")
    parser.add_argument("--decks-dir", metavar="D", type=Path, default=None,
                        help="where learned decks are kept (default: the state directory's decks/ folder)")
    parser.add_argument("--buttons", action="store_true",
                        help="with --deck: go on with a Go button or the dial's press, stop with Dispute "
                             "(the button panel in place of Enter)")


def run(args) -> int:
    from device.calibration import draw_zones, grab_frame, has_screen, zones_from_config, zones_toml
    from device.config import load_config

    config = load_config(args.config)
    if args.deck is not None:
        return _learn_deck(config, args.deck, args.decks_dir, args.buttons)
    image = grab_frame(config.camera.source, config.camera.resolution, config.camera.fps)
    if args.card:
        return _measure_card(config, image)
    if args.table:
        return _learn_table(config, image, args.png)
    height, width = image.shape[:2]
    zones = zones_from_config(config, width, height)
    players = config.game.players
    window = not args.no_window and has_screen()
    if not window:
        png = args.png or Path("calibrate.png")
        if not args.no_window:
            print("muggins calibrate: no screen here (DISPLAY is not set), so no window: "
                  f"the camera view with the zones drawn is written to {png}")
        _write_png(png, draw_zones(image, zones, players))
        print(f"wrote {png} ({width}x{height}); the zones in use:")
        print(zones_toml(zones), end="")
        return 0
    zones = _interactive(config, image, zones, players)
    if args.png:
        _write_png(args.png, draw_zones(image, zones, players))
    return 0


def _measure_card(config, image) -> int:
    """Measure the one card laid down and save its length into the config (or print it)."""
    from device.calibration import card_length, save_setting, small_card_advice

    length = round(card_length(image))
    height, width = image.shape[:2]
    print(f"a card laid down is {length} pixels long in the camera's {width}x{height} view "
          f"({100 * length / height:.0f} % of its height)")
    advice = small_card_advice(length, width, height)
    if advice is not None:
        print(advice)
    if config.path is None:
        print(f"no --config file to save into; add to its [camera] table:\ncard_length = {length}")
    else:
        save_setting(config.path, "camera", "card_length", length)
        print(f"saved [camera] card_length = {length} into {config.path}")
    return 0


def _learn_table(config, image, png: Path | None) -> int:
    """Read the empty table as the device would, keep what reads as a card as its print, and say so."""
    from device.calibration import table_print_of
    from device.table_print import describe, print_path, save_print

    table_print, recognitions = table_print_of(config, image)
    path = print_path(config)
    save_print(path, table_print)
    print(describe(table_print))
    print(f"saved {path}")
    if png is not None:
        from vision.overlay import draw_recognitions

        _write_png(png, draw_recognitions(image, recognitions))
        print(f"wrote {png}: what the empty table shows, outlined")
    return 0


def _learn_deck(config, name: str, decks_dir: Path | None, buttons: bool = False) -> int:
    """Learn a deck from the camera, suit by suit, and save it (device.calibration.learn_deck_by_suits)."""
    from device.calibration import learn_deck_by_suits, panel_answer
    from device.learned_decks import decks_folder
    from device.voice import Voice
    from vision.learned_deck import check_name, save_deck
    from vision.recognizer import Recognizer
    from vision.sources import open_source, parse_source_spec

    check_name(name)
    folder = decks_folder(config, decks_dir)
    live = parse_source_spec(config.camera.source)["kind"] != "replay"
    panel = None
    if buttons:
        from device.panel import Panel

        panel = Panel(config.panel)
    voice = Voice(config.voice)

    def say(text: str) -> None:
        print(text, flush=True)
        voice.say(text)

    def ask_keyboard(prompt: str) -> bool:
        try:
            answer = input(f"{prompt} Enter to look, q to stop: ")
        except EOFError:
            return False
        return answer.strip().lower() not in ("q", "quit")

    def ask_panel(prompt: str) -> bool:
        say(f"{prompt} Press Go to look, Dispute to stop.")
        return panel_answer(panel)

    try:
        with open_source(config.camera.source, size=tuple(config.camera.resolution),
                         fps=config.camera.fps) as source:
            def frame():
                image = source.read().image
                for _ in range(4 if live else 0):  # a live camera's queued frames are older than the table
                    image = source.read().image
                return image

            deck = learn_deck_by_suits(name, Recognizer(card_length=config.camera.card_length), frame,
                                       ask_keyboard if panel is None else ask_panel, say)
    finally:
        voice.close()
        if panel is not None:
            panel.close()
    if deck is None:
        print("stopped: no deck saved")
        return 1
    path = save_deck(folder, deck)
    print(f"learned {len(deck.cards)} cards; saved {path}; set [camera] deck = \"{name}\" in the config to play with it")
    return 0


def _write_png(path: Path, picture) -> None:
    import cv2

    from device.errors import DeviceError

    if not cv2.imwrite(str(path), picture):
        raise DeviceError(f"cannot write {path}")


def _interactive(config, image, zones, players):
    """The OpenCV window: drag corners or whole zones; s saves, r resets, q quits."""
    import cv2

    from device.calibration import (draw_zones, move_corner, move_zone, nearest_corner, save_zones,
                                    zones_toml)
    from vision.sources import open_source, parse_source_spec
    from vision.zones import default_zones

    height, width = image.shape[:2]
    state = {"zones": zones, "drag": None, "last": None, "selected": None}

    def on_mouse(event, x, y, flags, param):
        z = state["zones"]
        if event == cv2.EVENT_LBUTTONDOWN:
            corner = nearest_corner(z, x, y)
            if corner is not None:
                state["drag"], state["selected"] = ("corner", corner), corner[0]
            else:
                inside = z.zone_of((x, y))
                state["drag"], state["selected"] = (("zone", inside), inside) if inside else (None, None)
            state["last"] = (x, y)
        elif event == cv2.EVENT_MOUSEMOVE and state["drag"] is not None:
            kind, what = state["drag"]
            if kind == "corner":
                state["zones"] = move_corner(z, what[0], what[1], x, y)
            else:
                lx, ly = state["last"]
                state["zones"] = move_zone(z, what, x - lx, y - ly)
            state["last"] = (x, y)
        elif event == cv2.EVENT_LBUTTONUP:
            state["drag"] = None

    name = "muggins calibrate"
    live = None
    if parse_source_spec(config.camera.source)["kind"] != "replay":
        live = open_source(config.camera.source, size=tuple(config.camera.resolution), fps=config.camera.fps)
    cv2.namedWindow(name, cv2.WINDOW_NORMAL)
    cv2.setMouseCallback(name, on_mouse)
    try:
        while True:
            if live is not None:  # a live view while the camera keeps giving frames
                try:
                    image = live.read().image
                except Exception:
                    pass
            cv2.imshow(name, draw_zones(image, state["zones"], players, state["selected"], KEYS))
            key = cv2.waitKey(50) & 0xFF
            if key in (ord("q"), 27):
                break
            if key == ord("r"):
                state["zones"] = default_zones(width, height, len(players))
            if key == ord("s"):
                if config.path is None:
                    print("no --config file to save into; the zones are:")
                    print(zones_toml(state["zones"]), end="")
                else:
                    save_zones(config.path, state["zones"])
                    print(f"saved the zones into {config.path}")
    finally:
        cv2.destroyWindow(name)
        if live is not None:
            live.close()
    return state["zones"]
