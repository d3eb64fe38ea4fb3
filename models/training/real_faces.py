"""Whole faces for the whole-card network cut from real photographs of real cards.

The rendered scenes give the whole-card network (vision.whole_card) every design the project can
draw, lit and printed as a renderer does; a real card shows a camera's grain, gloss and blur, and
the pips and court pictures of a deck that was printed. The labels are the same as the
classifier's real crops (`models/training/real/corners.jsonl`, from photos whose licence allows
training; never the real set's report part), the photos rebuilt into `.cache/real` by
`python -m bench.real.build`.

A labelled card is cut whole only where both its index corners are shown: a card the labels call
covered or cut at a corner does not show its whole face. It is cut from each index corner (a lone
card is read from either), once at its outline and once with its corners moved a little, as the
rendered cards are (models/training/dataset.py). Every tenth photo is kept apart to report on, not
trained on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cribbage.cards import Card
from models.training.dataset import WHOLE_JITTER, card_height
from models.training.real_labels import CompletePhotos, LabelledPhoto, index_corners, load_corner_labels
from vision.whole_card import HEIGHT, WIDTH, class_of, face_of

HELD_APART = 10   # every HELD_APART-th usable photo is reported on, not trained on


@dataclass
class RealFaces:
    """N faces (N x HEIGHT x WIDTH x 3 uint8), their classes (vision.whole_card.class_of), and
    whether each comes from a photo held apart to report on."""

    faces: np.ndarray
    labels: np.ndarray
    held_apart: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)


def photo_faces(image: np.ndarray, photo: LabelledPhoto, rng: np.random.Generator) -> tuple[list, list]:
    """(faces, classes) of one labelled photo's cards whose two index corners both show."""
    faces, labels = [], []
    for card in photo.cards:
        if any(verdict != "shown" for verdict in card.corners):
            continue
        label = class_of(Card.parse(card.card))
        h = card_height(card.quad)
        for started in index_corners(card.quad):
            moved = started + rng.normal(0, WHOLE_JITTER * h, (4, 2)).astype(np.float32)
            for quad in (started, moved):
                faces.append(face_of(image, quad))
                labels.append(label)
    return faces, labels


def build_real_faces(photos_root: Path, seed: int, labels: list[LabelledPhoto] | None = None,
                     log=print) -> RealFaces:
    """The faces of every complete labelled photo found under photos_root."""
    labels = load_corner_labels() if labels is None else labels
    rng = np.random.default_rng(seed + 91_000_003)
    faces: list[np.ndarray] = []
    classes: list[int] = []
    apart: list[bool] = []
    complete = CompletePhotos(labels, photos_root)
    for n, photo, image in complete:
        here, kinds = photo_faces(image, photo, rng)
        faces += here
        classes += kinds
        apart += [n % HELD_APART == 0] * len(here)
    held = sum(apart)
    log(f"real faces: {len(classes)} from {complete.summary()}, {len(classes) - held} to train on and {held} "
        f"held apart to report on{complete.not_found()}")
    stacked = np.stack(faces) if faces else np.zeros((0, HEIGHT, WIDTH, 3), np.uint8)
    return RealFaces(stacked, np.asarray(classes, np.int64), np.asarray(apart, bool))
