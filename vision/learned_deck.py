"""A deck the players have taught the device: its index corners as photographed, and how a frame's
reads are checked against them.

Every deck prints its indices in its own font. The index classifier (vision.classifier) reads an
unknown font well, but where it is unsure of one, or leans the wrong way, it does so the same way every
time that card is seen: its 53 log-probabilities at a card's index are that deck's fingerprint of the
card, much alike from photo to photo of it (other light, table, camera, distance) and unlike the other
cards' (models/MODEL_CARD.md, "Learned decks"). So a learned deck keeps each card's index crops, cut
as the recognizer cuts them, and at read time compares the fingerprint of each card the recognizer
reports with the learned cards':
- a learned match is strong when its cosine reaches MATCH and beats every other learned card's by
  MARGIN;
- a card seen but not read, its index unsure, strongly matching a learned card, is read as that
  card, unless the classifier thinks more likely than not that it is another card the deck has not
  learned (where it has, the fingerprints have already chosen between the two);
- a card whose index was read surely but which the recognizer refused for reasons of its own (another
  corner, a neighbour's outline, its whole face) is read only where the learned card matching it still
  more strongly (OVERRULE) is the card its index shows;
- a learned read never names a card already read elsewhere in the frame;
- a read card matching another learned card still more strongly (OVERRULE) is left unread: the two
  disagree, and a wrong read costs more than an unread one;
- anything else (a card far from every learned card, a card of another deck) keeps the generic read.

The deck file keeps the crops, not the fingerprints: a new classifier fingerprints them anew on load.
"""

from __future__ import annotations

import base64
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import cv2
import numpy as np

from cribbage.cards import Card
from cribbage.errors import CribbageError
from vision.crops import INDEX_HEIGHT, INDEX_WIDTH
from vision.errors import VisionError
from vision.types import Recognition

FORMAT = "muggins learned deck"
VERSION = 1
SUFFIX = ".deck.json"
MAX_BYTES = 5 * 1024 * 1024        # a deck file is refused above this size, on save and on load
MAX_CROPS_PER_CARD = 8             # photos of one card beyond this add little and cost time
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
MATCH = 0.9                        # the cosine a learned card's fingerprint must reach ...
MARGIN = 0.1                       # ... beating every other learned card's by this much
OVERRULE = 0.95                    # the cosine at which a learned card overrules the recognizer: unreads a
#                                    confident read of another card, or reads a refused one its index shows
CONTRADICTION = 0.5                # an unread card is not read where another card is this likely
FLOOR = 1e-300                     # probabilities under this are taken as this before the logarithm


class DeckError(VisionError):
    """A learned deck that is missing, corrupt, foreign or badly named; the message names it."""


@dataclass
class LearnedDeck:
    """A deck's name and, for each card learned, its index crops (INDEX_HEIGHT x INDEX_WIDTH BGR)."""

    name: str
    crops: dict[Card, list[np.ndarray]] = field(default_factory=dict)

    @property
    def cards(self) -> list[Card]:
        return sorted(self.crops, key=lambda c: c.index)

    def add(self, card: Card, crops: Iterable[np.ndarray]) -> None:
        kept = self.crops.setdefault(card, [])
        for crop in crops:
            if len(kept) < MAX_CROPS_PER_CARD:
                kept.append(check_crop(crop, f"crop of {card}"))

    def to_json(self) -> str:
        cards = {str(card): [encode_crop(c) for c in self.crops[card]] for card in self.cards}
        return json.dumps({"format": FORMAT, "version": VERSION, "name": self.name,
                           "crop": [INDEX_WIDTH, INDEX_HEIGHT], "cards": cards}, indent=0)

    @classmethod
    def from_json(cls, text: str, where: str) -> "LearnedDeck":
        """Read a deck file's text; anything not a version-1 Muggins deck is a DeckError naming where."""
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise DeckError(f"{where}: not a learned deck (not JSON: {exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise DeckError(f"{where}: not a Muggins learned deck")
        if data.get("version") != VERSION:
            raise DeckError(f"{where}: a learned deck of version {data.get('version')!r}; this Muggins reads "
                            f"version {VERSION}: learn the deck again")
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
        return deck


def check_crop(crop: np.ndarray, what: str) -> np.ndarray:
    crop = np.asarray(crop)
    if crop.shape != (INDEX_HEIGHT, INDEX_WIDTH, 3) or crop.dtype != np.uint8:
        raise DeckError(f"{what}: {crop.shape} {crop.dtype}, not a {INDEX_WIDTH}x{INDEX_HEIGHT} BGR crop")
    return crop


def encode_crop(crop: np.ndarray) -> str:
    ok, png = cv2.imencode(".png", crop)
    if not ok:
        raise DeckError("cannot encode a crop as PNG")
    return base64.b64encode(png.tobytes()).decode("ascii")


def decode_crop(text: object, what: str) -> np.ndarray:
    try:
        raw = np.frombuffer(base64.b64decode(str(text), validate=True), np.uint8)
        crop = cv2.imdecode(raw, cv2.IMREAD_COLOR) if raw.size else None
    except (ValueError, cv2.error):
        crop = None
    if crop is None:
        raise DeckError(f"{what}: a crop that is no PNG")
    return check_crop(crop, what)


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


# ---- reading with a learned deck ---------------------------------------------------------------------

def fingerprints(probs: np.ndarray) -> np.ndarray:
    """Each row of classifier probabilities as a unit vector of centred log-probabilities."""
    logs = np.log(np.maximum(np.asarray(probs, np.float64), FLOOR))
    logs -= logs.mean(axis=-1, keepdims=True)
    return logs / np.maximum(np.linalg.norm(logs, axis=-1, keepdims=True), 1e-12)


@dataclass(frozen=True)
class Match:
    """The learned card most like a crop, its cosine, and the best other learned card's."""

    card: Card
    similarity: float
    runner_up: float

    @property
    def strong(self) -> bool:
        return self.similarity >= MATCH and self.similarity - self.runner_up >= MARGIN


class DeckReader:
    """Checks a frame's reports against a learned deck (see the module's docstring).

    classifier: vision.classifier.CardClassifier (probabilities, cards, background_index);
    cropper: (image, quad) -> index crop, the recognizer's own."""

    def __init__(self, deck: LearnedDeck, classifier, cropper: Callable[[np.ndarray, np.ndarray], np.ndarray]):
        self.deck = deck
        self.classifier = classifier
        self.cropper = cropper
        owners, crops = [], []
        for card in deck.cards:
            for crop in deck.crops[card]:
                owners.append(card)
                crops.append(crop)
        self.learned = deck.cards
        self._owner = np.array([self.learned.index(card) for card in owners], np.int64)
        self._prints = fingerprints(classifier.probabilities(crops)) if crops else np.zeros((0, 1))
        self._seen: dict[bytes, np.ndarray] = {}
        self._frame: np.ndarray | None = None

    def remember(self, image: np.ndarray, quads: Sequence[np.ndarray], rows: np.ndarray) -> None:
        """The classifier's rows for crops the recognizer has just read in this frame, by outline: the
        reports cut at those outlines need not be read again (reread forgets them)."""
        if image is not self._frame:
            self._seen.clear()
            self._frame = image
        for quad, row in zip(quads, rows):
            self._seen[np.asarray(quad, np.float32).tobytes()] = row

    def rows_for(self, image: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
        """The classifier's rows at each outline: remembered from this frame, else read now."""
        if image is not self._frame:
            self._seen.clear()
            self._frame = image
        keys = [np.asarray(quad, np.float32).tobytes() for quad in quads]
        missing = [n for n, key in enumerate(keys) if key not in self._seen]
        if missing:
            fresh = self.classifier.probabilities([self.cropper(image, quads[n]) for n in missing])
            for n, row in zip(missing, fresh):
                self._seen[keys[n]] = row
        return np.stack([self._seen[key] for key in keys])

    def matches(self, probs: np.ndarray) -> list[Match | None]:
        """For each row of probabilities, the nearest learned card (None with no learned card)."""
        probs = np.atleast_2d(probs)
        if not self.learned:
            return [None] * len(probs)
        cosines = fingerprints(probs) @ self._prints.T
        per_card = np.full((len(probs), len(self.learned)), -1.0)
        for column, owner in enumerate(self._owner):
            np.maximum(per_card[:, owner], cosines[:, column], out=per_card[:, owner])
        out = []
        for row in per_card:
            order = np.argsort(-row)
            runner_up = float(row[order[1]]) if len(order) > 1 else -1.0
            out.append(Match(self.learned[int(order[0])], float(row[order[0]]), runner_up))
        return out

    def reread(self, image: np.ndarray, reports: Sequence[Recognition]) -> list[Recognition]:
        """The reports, each kept, read, or left unread by its learned match."""
        try:
            if not reports or not self.learned:
                return list(reports)
            probs = self.rows_for(image, [rec.quad for rec in reports])
            read = {rec.card for rec in reports if rec.card is not None}
            out = []
            for rec, row, match in zip(reports, probs, self.matches(probs)):
                out.append(self.judge(rec, row, match, read))
                if out[-1].card is not None:
                    read.add(out[-1].card)
            return out
        finally:
            self._seen.clear()
            self._frame = None

    def judge(self, rec: Recognition, probs: np.ndarray, match: Match | None, read: set) -> Recognition:
        """One report checked against its learned match; `read`: the cards already read in the frame."""
        if match is None or not match.strong:
            return rec
        if rec.card is not None:
            if rec.card != match.card and match.similarity >= OVERRULE:
                return Recognition(None, rec.confidence, rec.quad)
            return rec
        if match.card in read:
            return rec
        index, _ = self.classifier.decide(probs)
        if index is not None:  # refused by the recognizer's own rules, not for an unsure index
            if index != match.card or match.similarity < OVERRULE:
                return rec
        elif self.contradicted(match.card, probs):
            return rec
        return Recognition(match.card, match.similarity, rec.quad)

    def contradicted(self, card: Card, probs: np.ndarray) -> bool:
        """Whether the classifier leans to another card, one not learned, more likely than not."""
        best = int(np.argmax(probs))
        other = self.classifier.cards[best]
        return other is not None and other != card and other not in self.deck.crops and \
            float(probs[best]) > CONTRADICTION
