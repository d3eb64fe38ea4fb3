"""A deck of card faces from a folder, one image a card, named as `muggins deck learn` names photos.

`muggins demo --faces DIR` lays these faces on the simulated table exactly as it lays a held-out
rendered deck's (sim/render/table.py's compose: the same tables, light, camera angle and overlap), so
faces cut from photographs of a real deck bring their own light, print and wear to the game. Each file
is named by its card (`5C.png`, `qs.jpg`, `10h.jpg`: vision/deck_learning.py's card_named reads the
names, so one folder serves both commands), holds the face upright, at any size, its width a card's
share of its height. A folder with a card missing, a file that is no image or names no card, or two
faces of one card is refused whole, each fault named: no game is played with a deck that is not one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

import cv2
import numpy as np

from cribbage.cards import FULL_DECK, Card
from device.errors import UsageError
from sim.render.faces import FACE_HEIGHT, load_face
from vision.deck_learning import IMAGE_SUFFIXES, PhotoRefused, card_named, photos_in
from vision.images import read_image

# A face's width over its height: playing cards are 0.64 (bridge) to 0.72 (poker); a face cut by
# hand from a photograph may be a little off, a landscape picture or a strip is no face.
ASPECTS = (0.55, 0.85)
# The rounded corners' radius, a share of the face's height: the held-out decks' masks round
# 12-14 of 350 pixels. A face cut from a photo is a rectangle; its corners are rounded as a card's.
CORNER_SHARE = 0.037
BACK_DECK = "greywyvern"  # whose back lies face down under a folder's faces: the held-out decks ship theirs


class FaceFolderError(UsageError):
    """A folder of faces that is not one whole deck; the message names every file or card at fault."""


@dataclass(frozen=True)
class FaceFolder:
    """The 52 faces of a folder, each BGRA (its corners rounded), FACE_HEIGHT rows high, upright, and
    the back laid face down under them (the stock under the starter): a held-out deck's, the faces' shape,
    since a folder holds faces only.

    What sim.render.table.compose draws a card from (`face(card)`, None: the back), as it draws a named
    deck's."""

    folder: Path
    faces: Mapping[Card, np.ndarray]
    back: np.ndarray

    def face(self, card: Card | None) -> np.ndarray:
        return self.back if card is None else self.faces[card]

    def __str__(self) -> str:
        return str(self.folder)


def read_face_folder(folder: Path) -> FaceFolder:
    """Every face in the folder, checked as one deck; FaceFolderError naming each fault at once."""
    folder = Path(folder)
    problems: list[str] = []
    paths: dict[Card, list[Path]] = {}
    for path in photos_in(folder):  # DeckError (exit 2) where there is no such folder
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            problems.append(f"{path.name}: not a face image (give {', '.join(IMAGE_SUFFIXES)})")
            continue
        try:
            paths.setdefault(card_named(path), []).append(path)
        except PhotoRefused as exc:
            problems.append(f"{path.name}: {exc}")
    faces: dict[Card, np.ndarray] = {}
    for card in FULL_DECK:
        found = paths.get(card, [])
        if len(found) > 1:
            problems.append(f"{len(found)} faces of {card}: {', '.join(p.name for p in found)}")
        elif found:
            face, problem = _face_in(found[0])
            if problem is not None:
                problems.append(f"{found[0].name}: {problem}")
            else:
                faces[card] = face
    missing = [str(card) for card in FULL_DECK if card not in paths]
    if missing:
        problems.append(f"no face of {' '.join(missing)}")
    if problems:
        raise FaceFolderError(f"{folder} is not a whole deck of faces, nothing is played: {'; '.join(problems)}")
    shape = next(iter(faces.values())).shape
    back = cv2.resize(load_face(BACK_DECK, None)[:, :, :3], (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
    return FaceFolder(folder, MappingProxyType(faces), face_sprite(back))


def _face_in(path: Path) -> tuple[np.ndarray | None, str | None]:
    """(the face as compose draws it, None), or (None, why the file is no face)."""
    image = read_image(path)
    if image is None:
        return None, "not an image OpenCV can read"
    h, w = image.shape[:2]
    if not ASPECTS[0] <= w / h <= ASPECTS[1]:
        return None, (f"{w}x{h} pixels is not an upright card's shape (its width must be "
                      f"{ASPECTS[0]:.2f}-{ASPECTS[1]:.2f} of its height)")
    return face_sprite(image), None


def face_sprite(image: np.ndarray) -> np.ndarray:
    """A BGR face as the renderer's faces are: FACE_HEIGHT rows high, with a rounded-corner alpha."""
    h, w = image.shape[:2]
    width = max(1, round(FACE_HEIGHT * w / h))
    shrink = cv2.INTER_AREA if h > FACE_HEIGHT else cv2.INTER_CUBIC
    bgr = cv2.resize(image, (width, FACE_HEIGHT), interpolation=shrink)
    face = np.dstack([bgr, rounded_mask(FACE_HEIGHT, width)])
    face.setflags(write=False)
    return face


def rounded_mask(height: int, width: int) -> np.ndarray:
    """An opaque card of this size with rounded corners (uint8, 255 inside), anti-aliased."""
    r = max(1, round(CORNER_SHARE * height))
    scale = 4  # drawn four times larger and shrunk, for smooth corners
    big = np.zeros((height * scale, width * scale), np.uint8)
    R = r * scale
    W, H = width * scale - 1, height * scale - 1
    cv2.rectangle(big, (R, 0), (W - R, H), 255, -1)
    cv2.rectangle(big, (0, R), (W, H - R), 255, -1)
    for cx, cy in ((R, R), (W - R, R), (R, H - R), (W - R, H - R)):
        cv2.circle(big, (cx, cy), R, 255, -1)
    return cv2.resize(big, (width, height), interpolation=cv2.INTER_AREA)
