"""A deck the players have taught the device (`muggins deck learn`, `muggins calibrate --deck`): each
card's index crops as photographed, cut as the recognizer cuts them, and its whole face as the
whole-card network reads it (vision.whole_card.face_of); and where its file lives.

The deck file (`NAME.deck.json` in the state directory's decks/ folder) is versioned JSON holding the
crops and faces as PNG: a corrupt or foreign file is refused, naming it. It keeps the pictures, not what
the networks make of them, so a new model needs no relearning (vision.deck_reader fingerprints them
when a deck is loaded into the recognizer). A version-1 file, from before faces were kept, still
reads: its deck is read by its indices alone.
"""

from __future__ import annotations

import base64
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import cv2
import numpy as np

from cribbage.cards import Card
from cribbage.errors import CribbageError
from vision.crops import INDEX_HEIGHT, INDEX_WIDTH
from vision.errors import VisionError
from vision.images import decode_image
from vision.whole_card import HEIGHT as FACE_HEIGHT, WIDTH as FACE_WIDTH

FORMAT = "muggins learned deck"
VERSION = 2
READS = (1, 2)                     # the versions this Muggins reads (1: no faces)
SUFFIX = ".deck.json"
MAX_BYTES = 5 * 1024 * 1024        # a deck file is refused above this size, on save and on load
MAX_CROPS_PER_CARD = 8             # photos of one card beyond this add little and cost time
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


class DeckError(VisionError):
    """A learned deck that is missing, corrupt, foreign or badly named; the message names it."""


@dataclass(frozen=True)
class CardPhoto:
    """What one photo of a card teaches: its index crops, best first, and its whole face upright."""

    crops: list[np.ndarray]
    face: np.ndarray


@dataclass
class LearnedDeck:
    """A deck's name and, for each card learned, its index crops (INDEX_HEIGHT x INDEX_WIDTH BGR) and
    whole faces (FACE_HEIGHT x FACE_WIDTH BGR; none in a deck read from a version-1 file)."""

    name: str
    crops: dict[Card, list[np.ndarray]] = field(default_factory=dict)
    faces: dict[Card, list[np.ndarray]] = field(default_factory=dict)

    @property
    def cards(self) -> list[Card]:
        return sorted(self.crops, key=lambda c: c.index)

    @property
    def has_faces(self) -> bool:
        """Whether every learned card has a face: only then can faces tell the learned cards apart."""
        return bool(self.crops) and all(self.faces.get(card) for card in self.crops)

    def add(self, card: Card, crops: Iterable[np.ndarray], faces: Iterable[np.ndarray] = ()) -> None:
        kept = self.crops.setdefault(card, [])
        for crop in crops:
            if len(kept) < MAX_CROPS_PER_CARD:
                kept.append(check_crop(crop, f"crop of {card}"))
        kept_faces = self.faces.setdefault(card, [])
        for face in faces:
            if len(kept_faces) < MAX_CROPS_PER_CARD:
                kept_faces.append(check_face(face, f"face of {card}"))

    def learn(self, card: Card, photo: CardPhoto) -> None:
        self.add(card, photo.crops, [photo.face])

    def to_json(self) -> str:
        cards = {str(card): [encode_png(c) for c in self.crops[card]] for card in self.cards}
        faces = {str(card): [encode_png(f) for f in self.faces[card]] for card in self.cards if self.faces.get(card)}
        return json.dumps({"format": FORMAT, "version": VERSION, "name": self.name,
                           "crop": [INDEX_WIDTH, INDEX_HEIGHT], "cards": cards,
                           "face": [FACE_WIDTH, FACE_HEIGHT], "faces": faces}, indent=0)

    @classmethod
    def from_json(cls, text: str, where: str) -> "LearnedDeck":
        """Read a deck file's text; anything not a Muggins deck of a version in READS is a DeckError
        naming where."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise DeckError(f"{where}: not a learned deck (not JSON: {exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise DeckError(f"{where}: not a Muggins learned deck")
        if data.get("version") not in READS:
            raise DeckError(f"{where}: a learned deck of version {data.get('version')!r}; this Muggins reads "
                            f"versions {', '.join(map(str, READS))}: learn the deck again")
        if data.get("crop") != [INDEX_WIDTH, INDEX_HEIGHT]:
            raise DeckError(f"{where}: its crops are {data.get('crop')!r}, not {INDEX_WIDTH}x{INDEX_HEIGHT}: "
                            "learn the deck again")
        name, cards = data.get("name"), data.get("cards")
        if not isinstance(name, str) or not isinstance(cards, dict):
            raise DeckError(f"{where}: a learned deck without a name or cards")
        deck = cls(name)
        for text_card, crops in cards.items():
            try:
                card = Card.parse(text_card)
            except CribbageError:
                raise DeckError(f"{where}: {text_card!r} is no card") from None
            if not isinstance(crops, list) or not crops:
                raise DeckError(f"{where}: {text_card} has no crops")
            deck.add(card, (decode_crop(c, f"{where}: {text_card}") for c in crops))
        if data["version"] >= 2:
            read_faces(deck, data, where)
        return deck


def read_faces(deck: LearnedDeck, data: dict, where: str) -> None:
    """A version-2 file's faces into deck; DeckError naming where for anything malformed."""
    if data.get("face") != [FACE_WIDTH, FACE_HEIGHT]:
        raise DeckError(f"{where}: its faces are {data.get('face')!r}, not {FACE_WIDTH}x{FACE_HEIGHT}: "
                        "learn the deck again")
    faces = data.get("faces")
    if not isinstance(faces, dict):
        raise DeckError(f"{where}: a learned deck without faces")
    for text_card, pictures in faces.items():
        try:
            card = Card.parse(text_card)
        except CribbageError:
            raise DeckError(f"{where}: {text_card!r} is no card") from None
        if card not in deck.crops:
            raise DeckError(f"{where}: a face of {text_card}, a card it has not learned")
        if not isinstance(pictures, list):
            raise DeckError(f"{where}: {text_card}'s faces are no list")
        deck.add(card, (), (decode_face(f, f"{where}: {text_card}'s face") for f in pictures))


def check_picture(picture: np.ndarray, width: int, height: int, kind: str, what: str) -> np.ndarray:
    picture = np.asarray(picture)
    if picture.shape != (height, width, 3) or picture.dtype != np.uint8:
        raise DeckError(f"{what}: {picture.shape} {picture.dtype}, not a {width}x{height} BGR {kind}")
    return picture


def check_crop(crop: np.ndarray, what: str) -> np.ndarray:
    return check_picture(crop, INDEX_WIDTH, INDEX_HEIGHT, "crop", what)


def check_face(face: np.ndarray, what: str) -> np.ndarray:
    return check_picture(face, FACE_WIDTH, FACE_HEIGHT, "face", what)


def encode_png(picture: np.ndarray) -> str:
    ok, png = cv2.imencode(".png", picture)
    if not ok:
        raise DeckError("cannot encode a picture as PNG")
    return base64.b64encode(png.tobytes()).decode("ascii")


def decode_png(text: object, what: str, kind: str) -> np.ndarray:
    try:
        picture = decode_image(np.frombuffer(base64.b64decode(str(text), validate=True), np.uint8))
    except ValueError:
        picture = None
    if picture is None:
        raise DeckError(f"{what}: a {kind} that is no PNG")
    return picture


def decode_crop(text: object, what: str) -> np.ndarray:
    return check_crop(decode_png(text, what, "crop"), what)


def decode_face(text: object, what: str) -> np.ndarray:
    return check_face(decode_png(text, what, "face"), what)


# ---- where decks live --------------------------------------------------------------------------------

def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name or ""):
        raise DeckError(f"{name!r} is no deck name: use 1-40 letters, digits, '-' or '_', starting with a "
                        "letter or digit")
    return name


def deck_path(decks_dir: Path, name: str) -> Path:
    return Path(decks_dir) / (check_name(name) + SUFFIX)


def deck_names(decks_dir: Path) -> list[str]:
    """The names of the deck files in decks_dir (readable or not), sorted."""
    folder = Path(decks_dir)
    if not folder.is_dir():
        return []
    return sorted(p.name[:-len(SUFFIX)] for p in folder.glob("*" + SUFFIX) if p.is_file())


def load_deck(decks_dir: Path, name: str) -> LearnedDeck:
    """The learned deck `name`; DeckError naming the file where it is missing, too big or not a deck."""
    path = deck_path(decks_dir, name)
    if not path.is_file():
        known = deck_names(decks_dir)
        raise DeckError(f"no learned deck {name!r} in {decks_dir}" +
                        (f" (known: {', '.join(known)})" if known else " (no deck learned there yet)"))
    return read_deck_file(path)


def read_deck_file(path: Path) -> LearnedDeck:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise DeckError(f"{path}: {path.stat().st_size} bytes, over the {MAX_BYTES} a deck may hold")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(f"{path}: cannot read the learned deck ({exc})") from None
    return LearnedDeck.from_json(text, str(path))


def save_deck(decks_dir: Path, deck: LearnedDeck) -> Path:
    """Write the deck (replacing one of that name) atomically; returns its path."""
    path = deck_path(decks_dir, deck.name)
    text = deck.to_json()
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise DeckError(f"deck {deck.name!r} would take {len(text)} bytes, over the {MAX_BYTES} a deck may hold")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise DeckError(f"cannot save the deck into {path.parent} ({exc}): give --decks-dir") from None
    return path


def forget_deck(decks_dir: Path, name: str) -> Path:
    path = deck_path(decks_dir, name)
    if not path.is_file():
        known = deck_names(decks_dir)
        raise DeckError(f"no learned deck {name!r} in {decks_dir}" + (f" (known: {', '.join(known)})" if known else ""))
    try:
        path.unlink()
    except OSError as exc:
        raise DeckError(f"cannot remove {path} ({exc})") from None
    return path
