"""Setting up the camera view: the table zones drawn on a camera picture, adjusted, saved in the config.

The drawing and the config writing live here; the OpenCV window (mouse and keys) is in
commands/calibrate.py, so everything but the window can be used and tested without a screen.
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Mapping

import cv2
import numpy as np

from device.files import write_text_atomically
from vision.zone_names import CENTRE, seat_number
from vision.zones import Zones

COLOURS = [(0, 140, 255), (255, 120, 0), (60, 200, 60), (200, 60, 200)]
CENTRE_COLOUR = (0, 220, 220)
CRIB_COLOUR = (220, 220, 220)


def has_screen() -> bool:
    """True when a window can be opened (X11 or Wayland display present)."""
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def zone_colour(name: str) -> tuple[int, int, int]:
    n = seat_number(name)
    if n is not None:
        return COLOURS[n % len(COLOURS)]
    return CENTRE_COLOUR if name == CENTRE else CRIB_COLOUR


def label(name: str, players) -> str:
    n = seat_number(name)
    if n is not None and n < len(players):
        return f"{name} ({players[n]})"
    return name


def draw_zones(image: np.ndarray, zones: Zones, players=(), selected: str | None = None,
               help_text: str | None = None) -> np.ndarray:
    """A copy of the camera picture with every zone outlined, named, and its corners marked."""
    out = image.copy()
    overlay = out.copy()
    for name, poly in zones.polygons.items():
        colour = zone_colour(name)
        pts = np.round(poly).astype(np.int32)
        cv2.fillPoly(overlay, [pts], colour)
        cv2.polylines(out, [pts], True, colour, 3 if name == selected else 2, cv2.LINE_AA)
        for x, y in pts:
            cv2.circle(out, (int(x), int(y)), 7 if name == selected else 5, colour, -1, cv2.LINE_AA)
        x, y = pts.min(axis=0)
        text = label(name, players)
        cv2.putText(out, text, (int(x) + 8, int(y) + 26), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 4,
                    cv2.LINE_AA)
        cv2.putText(out, text, (int(x) + 8, int(y) + 26), cv2.FONT_HERSHEY_SIMPLEX, 0.8, colour, 2,
                    cv2.LINE_AA)
    out = cv2.addWeighted(overlay, 0.15, out, 0.85, 0)
    if help_text:
        for i, line in enumerate(help_text.splitlines()):
            cv2.putText(out, line, (12, out.shape[0] - 14 - 24 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                        (255, 255, 255), 2, cv2.LINE_AA)
    return out


def nearest_corner(zones: Zones, x: float, y: float, reach: float = 20.0) -> tuple[str, int] | None:
    """The zone corner within `reach` pixels of (x, y), if any."""
    best, best_d = None, reach
    for name, poly in zones.polygons.items():
        for i, (px, py) in enumerate(poly):
            d = float(np.hypot(px - x, py - y))
            if d <= best_d:
                best, best_d = (name, i), d
    return best


def move_corner(zones: Zones, name: str, index: int, x: float, y: float) -> Zones:
    """The same zones with one corner moved (kept only if the zone is still a proper polygon)."""
    config = zones.to_config()
    config[name][index] = [round(float(x), 1), round(float(y), 1)]
    try:
        return Zones.from_config(config)
    except ValueError:
        return zones


def move_zone(zones: Zones, name: str, dx: float, dy: float) -> Zones:
    config = zones.to_config()
    config[name] = [[round(px + dx, 1), round(py + dy, 1)] for px, py in config[name]]
    return Zones.from_config(config)


def zones_toml(zones: Zones) -> str:
    """The [zones] table of the config, in TOML."""
    lines = ["[zones]", "# drawn by `muggins calibrate`: polygons in camera pixels"]
    for name, points in zones.to_config().items():
        key = f'"{name}"' if ":" in name else name
        pts = ", ".join(f"[{x:g}, {y:g}]" for x, y in points)
        lines.append(f"{key} = [{pts}]")
    return "\n".join(lines) + "\n"


_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\"-]+)\s*\]\]?\s*(#.*)?$")


def save_zones(path: Path, zones: Zones) -> None:
    """Write the zones into the config file: its [zones] table replaced, everything else kept as it was."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    out, skipping = [], False
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            skipping = header.group(1).strip('"') == "zones" or header.group(1).startswith("zones.")
        if not skipping:
            out.append(line)
    body = "\n".join(out).rstrip()
    new = (body + "\n\n" if body else "") + zones_toml(zones)
    write_text_atomically(path, new)


def _recognize(recognizer, image: np.ndarray) -> list:
    """The cards in a calibration picture; a fault in reading it is a UsageError, so the players are
    told and can try again."""
    from device.errors import UsageError
    from vision.errors import RecognitionFault
    from vision.faults import recognize_picture

    try:
        return recognize_picture(recognizer, image)
    except RecognitionFault as exc:
        raise UsageError(str(exc)) from exc


def card_length(image: np.ndarray, recognizer=None) -> float:
    """The long side, in pixels, of the one card laid face up in the picture: the size the recognizer
    then looks for (`[camera] card_length`). A picture with no card or several is refused, saying so."""
    from device.errors import UsageError
    from vision.one_card import long_side

    if recognizer is None:
        from vision.recognizer import Recognizer

        recognizer = Recognizer()
    cards = _recognize(recognizer, image)
    if len(cards) != 1:
        found = "no card" if not cards else f"{len(cards)} cards"
        raise UsageError(f"the camera sees {found}: lay one card face up in the middle of the table, "
                         "nothing else on it, and measure again")
    return long_side(np.asarray(cards[0].quad, np.float64))


def table_print_of(config, image: np.ndarray, recognizer=None):
    """What the empty table in `image` shows that reads as a card (device.table_print), read as the
    device reads in play (the calibrated card length, the learned deck; never past an older print),
    and those reads."""
    from device.table_print import TablePrint

    if recognizer is None:
        from device.eyes import recognizer_for
        from device.learned_decks import decks_folder

        recognizer = recognizer_for(config.camera, decks_folder(config), lambda text: print(f"muggins: {text}"))
    recognitions = _recognize(recognizer, image)
    height, width = image.shape[:2]
    return TablePrint.from_recognitions(recognitions, width, height), recognitions


# The shortest card the models have learnt to read: the training scenes' smallest, 17 % of a 1280 x 720
# frame. Shorter, the index is a dozen pixels tall and often a smudge: the validation decks' cards 10-16 %
# of that frame read 83 %, against 98 % at 30-40 % (models/HISTORY.md, section 23).
READABLE_CARD_LENGTH = 122


def small_card_advice(length: float, width: int, height: int) -> str | None:
    """What to change when the card measured is too short to read surely (None when it is not): the
    camera resolution that would make it READABLE_CARD_LENGTH long, or the camera brought closer."""
    if length >= READABLE_CARD_LENGTH:
        return None
    scale = READABLE_CARD_LENGTH / max(length, 1.0)
    wide, high = (2 * math.ceil(side * scale / 2) for side in (width, height))
    return (f"a card {round(length)} pixels long is too small to read surely (at least {READABLE_CARD_LENGTH}): "
            f"set [camera] resolution = [{wide}, {high}] or the camera's nearest mode above it, or bring the "
            f"camera closer to the table, and measure again")


def save_setting(path: Path, table: str, key: str, value: float | int) -> None:
    """Write `key = value` into the config file's [table]: the key's line replaced, or added at the
    table's start (the table added at the end where there is none); everything else kept as it was."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    lines, inside, placed, header_at = text.splitlines(), False, False, None
    setting = re.compile(rf"^\s*{re.escape(key)}\s*=")
    out = []
    for line in lines:
        header = _HEADER.match(line)
        if header:
            inside = header.group(1).strip('"') == table
            if inside:
                header_at = len(out)
        elif inside and setting.match(line):
            if not placed:
                out.append(f"{key} = {value}")
                placed = True
            continue
        out.append(line)
    if not placed:
        if header_at is None:
            out += ([""] if out and out[-1].strip() else []) + [f"[{table}]", f"{key} = {value}"]
        else:
            out.insert(header_at + 1, f"{key} = {value}")
    write_text_atomically(path, "\n".join(out) + "\n")


def grab_frame(source_spec: str, size, fps) -> np.ndarray:
    """One picture from the configured camera (the first frame of a replay)."""
    from vision.sources import open_source

    with open_source(source_spec, size=tuple(size), fps=fps) as source:
        last_error = None
        for _ in range(20):  # a camera's first frames may be black while it adjusts
            try:
                frame = source.read()
            except Exception as exc:  # a camera that fails: tell the caller below
                last_error = exc
                break
            if not frame.dark:
                return frame.image
            image = frame.image
        if last_error is not None:
            raise last_error
        return image


def zones_from_config(config, width: int, height: int) -> Zones:
    from vision.zones import zones_for_game

    zones: Mapping = dict(config.zones) or None
    return zones_for_game(zones, width, height, len(config.game.players))


SUIT_ORDER = "CDHS"


def suit_row(recognizer, image: np.ndarray, suit: str) -> dict:
    """The thirteen cards of one suit laid face up in a row, ace to king from left to right: each card
    with what its photo teaches (vision.learned_deck.CardPhoto). A UsageError says what is wrong (how
    many cards the camera sees, or which card does not look like the one its place calls for) so the
    players can lay the row again."""
    from cribbage.cards import SUIT_NAMES, Card
    from device.errors import UsageError
    from vision.deck_learning import PhotoRefused, report_photo

    reports = _recognize(recognizer, image)
    if len(reports) != 13:
        raise UsageError(f"I see {len(reports)} cards, not thirteen: lay the thirteen {SUIT_NAMES[suit]} face up "
                         "in a row, a little apart, ace to king from left to right, nothing else on the table")
    learned = {}
    for rank, rec in enumerate(sorted(reports, key=lambda r: r.centre[0]), start=1):
        card = Card(rank, suit)
        try:
            learned[card] = report_photo(recognizer, image, rec, card)
        except PhotoRefused as exc:
            raise UsageError(f"card {rank} from the left should be the {card.name}, but {exc}: lay the "
                             f"{SUIT_NAMES[suit]} in order, ace to king") from None
    return learned


def learn_deck_by_suits(name: str, recognizer, frame, ask, say, suits: str = SUIT_ORDER):
    """Learn a deck from the camera, one suit at a time: say what to lay down, ask() to go on (it
    returns False to stop), take frame(), and say how many cards the camera sees and which suit it
    learned, or what is wrong and ask again. Returns the LearnedDeck, or None when stopped."""
    from cribbage.cards import SUIT_NAMES
    from device.errors import UsageError
    from vision.learned_deck import LearnedDeck, check_name

    deck = LearnedDeck(check_name(name))
    for suit in suits:
        say(f"Lay the thirteen {SUIT_NAMES[suit]} face up in a row, a little apart, ace to king from left to right.")
        while True:
            if not ask(f"{SUIT_NAMES[suit]} laid out?"):
                return None
            try:
                row = suit_row(recognizer, frame(), suit)
            except UsageError as exc:
                say(str(exc))
                continue
            for card, photo in row.items():
                deck.learn(card, photo)
            say(f"I see thirteen cards: the {SUIT_NAMES[suit]} are learned.")
            break
    return deck


def panel_answer(panel) -> bool:
    """Wait at the button panel: a Go button or the dial's press goes on (True), Dispute stops (False);
    other presses are ignored. A panel that closes stops too."""
    while True:
        event = panel.get()
        if event is None or event.kind in ("dispute", "undo"):
            return False
        if event.kind in ("go", "claim"):
            return True
