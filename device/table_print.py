"""What the empty table shows that the recognizer takes for a card: cards printed on a playmat or a
felt, learnt once with `muggins calibrate --table`, and never taken for cards laid.

The recognizer has no notion of a card lying on the table rather than printed on it: a felt printed
with aces is read as aces in every frame. The players' own table tells them apart: whatever the camera
reads on it with no card laid is print. Each such read (a card, or an outline left unread) is kept as a
spot, where it lies and how long it is, as shares of the frame, so another camera resolution keeps it.
In play a read at a spot, within half the printed card's length of it, is dropped where it names the
printed card or is unread; any other card read there is a card laid on the print, and is kept.
A card laid squarely on a printed copy of itself, or left unread on the print, goes unseen: the players
are told so when the print is learnt.

The spots live in the state directory, `table_print.json`; a file that cannot be read is told once
and cards are read as if the table were plain.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from cribbage.cards import Card, InvalidCardError
from device.errors import DeviceError
from device.files import write_text_atomically
from device.learned_decks import state_folder
from vision.one_card import long_side

FILE_NAME = "table_print.json"
NEAR = 0.5  # a read within this share of a printed card's length of its spot is the print read again


class TablePrintError(DeviceError, ValueError):
    """A table print file that cannot be read; the message names the file and what is wrong."""


@dataclass(frozen=True)
class PrintedCard:
    """One thing the empty table shows read as a card: the card (None: an outline left unread), its
    centre (x, y as shares of the frame's width and height) and its length (a share of the height)."""

    card: Card | None
    centre: tuple[float, float]
    length: float

    def covers(self, card: Card | None, x: float, y: float, width: int, height: int) -> bool:
        """Whether a read of `card` centred at (x, y) pixels in a width x height frame is this print."""
        if card is not None and card != self.card:
            return False
        dx, dy = x - self.centre[0] * width, y - self.centre[1] * height
        return math.hypot(dx, dy) <= NEAR * self.length * height


@dataclass(frozen=True)
class TablePrint:
    """Every card the empty table shows."""

    cards: tuple[PrintedCard, ...] = ()

    @classmethod
    def from_recognitions(cls, recognitions: Iterable, width: int, height: int) -> "TablePrint":
        """The print of an empty table, from the recognizer's reads of one frame of it."""
        return cls(tuple(PrintedCard(rec.card, (rec.centre[0] / width, rec.centre[1] / height),
                                     long_side(np.asarray(rec.quad, np.float64)) / height) for rec in recognitions))

    def hides(self, recognition, width: int, height: int) -> bool:
        """Whether this read is the table's print read again."""
        x, y = recognition.centre
        return any(spot.covers(recognition.card, x, y, width, height) for spot in self.cards)

    def without_print(self, recognitions: Sequence, width: int, height: int) -> list:
        """The reads that are not the table's print."""
        return [rec for rec in recognitions if not self.hides(rec, width, height)]

    def to_dict(self) -> dict:
        return {"cards": [{"card": None if spot.card is None else str(spot.card),
                           "centre": [round(spot.centre[0], 5), round(spot.centre[1], 5)],
                           "length": round(spot.length, 5)} for spot in self.cards]}

    @classmethod
    def from_dict(cls, data, where: str) -> "TablePrint":
        """From to_dict's shape; a TablePrintError says what is wrong and where."""
        def fail(what: str) -> TablePrintError:
            return TablePrintError(f"{where}: {what}; learn the table again with `muggins calibrate --table`")

        if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
            raise fail("not a table print (a JSON object with a list of cards)")
        spots = []
        for n, item in enumerate(data["cards"], 1):
            try:
                card = None if item["card"] is None else Card.parse(item["card"])
                x, y = (float(v) for v in item["centre"])
                length = float(item["length"])
            except (InvalidCardError, KeyError, TypeError, ValueError):
                raise fail(f"its card {n} is not a card with a centre [x, y] and a length") from None
            if not (0 <= x <= 1 and 0 <= y <= 1 and 0 < length <= 2):
                raise fail(f"its card {n} lies outside the frame")
            spots.append(PrintedCard(card, (x, y), length))
        return cls(tuple(spots))


def print_path(config, state_dir: Path | None = None) -> Path:
    """The table print's file, in the state directory (device.learned_decks.state_folder)."""
    return state_folder(config, state_dir) / FILE_NAME


def save_print(path: Path, table_print: TablePrint) -> None:
    """Keep the print at path; a DeviceError says where it could not be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomically(path, json.dumps(table_print.to_dict(), indent=1) + "\n")
    except OSError as exc:
        raise DeviceError(f"cannot save the table's print to {path}: {exc.strerror or exc} (run as the "
                          "device's user, or set MUGGINS_STATE_DIR)") from None


def load_print(path: Path) -> TablePrint | None:
    """The table print kept at path; None where the table was never learnt (no file)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise TablePrintError(f"the table print {path} cannot be read: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise TablePrintError(f"the table print {path} is not JSON; learn the table again with "
                              "`muggins calibrate --table`") from None
    return TablePrint.from_dict(data, f"the table print {path}")


def print_in_play(path: Path, tell: Callable[[str], None]) -> TablePrint | None:
    """The table print to read past in play, or None after telling why it cannot be used."""
    try:
        return load_print(path)
    except TablePrintError as exc:
        tell(f"{exc}; reading cards as if the table were plain")
        return None


class ReadsPastPrint:
    """A recognizer whose reads of the table's print are dropped; everything else as `inner` reads."""

    def __init__(self, inner, table_print: TablePrint):
        self.inner = inner
        self.table_print = table_print

    def recognize(self, image) -> list:
        height, width = image.shape[:2]
        return self.table_print.without_print(self.inner.recognize(image), width, height)

    def __getattr__(self, name: str):  # only for names not set here: the inner recognizer's settings
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)


def plain_reader(recognizer):
    """The recognizer without the print it reads past: the empty table is learnt with it, never past
    an older print."""
    return recognizer.inner if isinstance(recognizer, ReadsPastPrint) else recognizer


def reading_past(recognizer, table_print: TablePrint | None):
    """The recognizer reading past this print (the plain one where the print holds nothing)."""
    plain = plain_reader(recognizer)
    return ReadsPastPrint(plain, table_print) if table_print is not None and table_print.cards else plain


def describe(table_print: TablePrint) -> str:
    """What the players are told once the empty table is learnt."""
    count = len(table_print.cards)
    if not count:
        return "the empty table shows nothing the device reads as a card: there is no print to read past"
    named = ", ".join("an outline left unread" if spot.card is None else f"the {spot.card.name}"
                      for spot in table_print.cards)
    return (f"the empty table shows {count} thing{'s' if count > 1 else ''} the device reads as a card "
            f"({named}): from now on {'they are' if count > 1 else 'it is'} the table's print, never a card "
            "laid. A card laid squarely on a printed copy of itself, or left unread on a printed card, is not "
            "seen: lay cards beside the print. Was a card left on the table? Clear it and learn the table again")
