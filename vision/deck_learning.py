"""Learning a deck from photos, one card face up in each, every file named by its card.

`5C.jpg`, `10h.png`, `qs-2.jpg` (a second photo of the queen of spades): the name before an optional
`-N` or `_N` is any notation cribbage.cards reads, in any case. Each photo is read by the generic
recognizer, which must find exactly one card (a phone photo of a card filling the frame, its edges cut,
is looked at again inside a dark border); its index crop is kept at the corner where the classifier
finds the named card likeliest (and the diagonal index corner too, where that one looks like an index),
and its whole face, upright from that corner.
A photo that cannot be used is refused with its reason, and the others are still learned; a card the
classifier reads surely as another is refused too, unless the names are trusted (`--trust-names`: a
deck whose card the generic reader misreads; that card is then left unread rather than misread).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from cribbage.cards import FULL_DECK, Card
from cribbage.errors import CribbageError
from vision.errors import RecognitionFault
from vision.faults import recognize_picture
from vision.images import read_image
from vision.learned_deck import CardPhoto, DeckError, LearnedDeck, check_name
from vision.whole_card import face_of

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
SECOND_PHOTO = re.compile(r"^(.+?)[-_]\d+$")
INDEX_LIKE = 0.9       # the diagonal corner is kept too where the classifier is this sure it shows an index
BORDER = 0.15          # a photo where no card is found is looked at again inside a dark border this share
BORDER_COLOUR = (40, 40, 40)  # of its longer side wide, this colour (BGR)


class PhotoRefused(DeckError):
    """One learning photo that cannot be used; the message says why."""


@dataclass
class LearnReport:
    """What learning from a folder did: the photos each card was learned from, the photos refused
    (file, reason), and the cards of a full deck still missing."""

    learned: dict[Card, list[str]] = field(default_factory=dict)
    refused: list[tuple[str, str]] = field(default_factory=list)

    @property
    def missing(self) -> list[Card]:
        return [card for card in FULL_DECK if card not in self.learned]


def card_named(path: Path) -> Card:
    """The card a photo's file name names (`qs-2.jpg`: the queen of spades); PhotoRefused if none."""
    stem = path.stem
    match = SECOND_PHOTO.match(stem)
    text = match.group(1) if match else stem
    try:
        return Card.parse(text)
    except CribbageError as exc:
        raise PhotoRefused(f"the name {text!r} is no card ({exc})") from None


def read_photo(path: Path) -> np.ndarray:
    image = read_image(path)
    if image is None:
        raise PhotoRefused("not an image OpenCV can read")
    return image


def card_photo(recognizer, image: np.ndarray, card: Card, trust_name: bool = False) -> CardPhoto:
    """What the one card in a learning photo teaches (its index crops, best first, and its face);
    PhotoRefused saying why not (no card, several, or a card the classifier reads surely as another:
    see report_photo). A card filling the photo, its edges cut by the frame, has no outline or corner
    to find: where none is found, the photo is looked at again inside a dark border (bordered)."""
    try:
        reports = recognize_picture(recognizer, image)
        if not reports:
            image = bordered(image)
            reports = recognize_picture(recognizer, image)
    except RecognitionFault as exc:
        raise PhotoRefused(str(exc)) from exc
    if not reports:
        raise PhotoRefused("no card found")
    if len(reports) > 1:
        raise PhotoRefused(f"{len(reports)} cards found: one card a photo")
    return report_photo(recognizer, image, reports[0], card, trust_name)


def bordered(image: np.ndarray) -> np.ndarray:
    """The photo inside a dark border (BORDER): a card cut by the photo's edges becomes a bright card
    on a dark table, with edges and corners where the photo's are."""
    width = int(round(BORDER * max(image.shape[:2])))
    return cv2.copyMakeBorder(image, width, width, width, width, cv2.BORDER_CONSTANT, value=BORDER_COLOUR)


def looks_like(recognizer, rec, card: Card, probs: np.ndarray) -> str | None:
    """'the card looks like 9S (0.999), not QS' where the recognizer or the classifier at the kept
    corner (probs) reads it surely as another card; None where it does not."""
    seen, confidence = rec.card, rec.confidence
    if seen is None or seen == card:
        seen, confidence = recognizer.classifier.decide(probs)
    if seen is None or seen == card:
        return None
    return f"the card looks like {seen} ({confidence:.3f}), not {card}"


def report_photo(recognizer, image: np.ndarray, rec, card: Card, trust_name: bool = False) -> CardPhoto:
    """The index crops of one reported card said to be `card`, best first, and its whole face upright
    from the best crop's corner (vision.whole_card.face_of). Where the classifier reads
    it surely as another card, PhotoRefused; unless trust_name: then the name is taken as right (the
    generic reader misreads this deck's card), and the card, once learned, is left unread where the
    generic reader would read it as that other card."""
    classifier = recognizer.classifier
    quads = [np.roll(np.asarray(rec.quad, np.float32), -k, axis=0) for k in range(4)]
    crops = [recognizer.cropper(image, quad) for quad in quads]
    probs = classifier.probabilities(crops)
    named = classifier.cards.index(card)
    best = int(np.argmax(probs[:, named]))
    if probs[best, named] < 1e-6:  # read nowhere as itself: its most index-like corner
        best = int(np.argmax([classifier.card_probability(row) for row in probs]))
    doubt = looks_like(recognizer, rec, card, probs[best])
    if doubt is not None and not trust_name:
        raise PhotoRefused(doubt)
    kept = [crops[best]]
    far = (best + 2) % 4
    other, _ = classifier.decide(probs[far])
    if classifier.card_probability(probs[far]) >= INDEX_LIKE and \
            other in (None, card, classifier.decide(probs[best])[0]):
        kept.append(crops[far])
    return CardPhoto(kept, face_of(image, quads[best]))


def photos_in(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise DeckError(f"{folder}: no such folder of photos")
    return sorted((p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")),
                  key=lambda p: p.name.lower())


def learn_folder(name: str, folder: Path, recognizer, log=None,
                 trust_names: bool = False) -> tuple[LearnedDeck, LearnReport]:
    """Learn deck `name` from every photo in folder; log(file, card or None, reason) after each photo.
    trust_names: a card the classifier reads surely as another is learned by its name all the same."""
    check_name(name)
    deck, report = LearnedDeck(name), LearnReport()
    for path in photos_in(Path(folder)):
        try:
            if path.suffix.lower() not in IMAGE_SUFFIXES:
                raise PhotoRefused(f"not a photo ({path.suffix or 'no suffix'}; give {', '.join(IMAGE_SUFFIXES)})")
            card = card_named(path)
            deck.learn(card, card_photo(recognizer, read_photo(path), card, trust_names))
        except PhotoRefused as exc:
            report.refused.append((path.name, str(exc)))
            if log is not None:
                log(path.name, None, str(exc))
            continue
        report.learned.setdefault(card, []).append(path.name)
        if log is not None:
            log(path.name, card, None)
    return deck, report
