"""A second opinion on a lone card from its whole face: how many pips, one big pip or a picture, and
in which suit.

The index classifier's wrong reads come from index fonts it never saw (a Bookman Q read as a 9, a
club beside a small rank read as a spade); the face's pips do not depend on the font. A small network
reads the whole card, warped upright, as suit x {A, 2..10, court}, and its opinion may refuse a read
or read a lone card its index leaves unread, only where it is sure of itself (or, to refuse a number
card, sure the face is a picture) and only about number cards, whose pips stay legible on a card too
small for its index to be read: held-out decks' court pictures and ornate aces are new to it, their
pips are not (models/MODEL_CARD.md, "The whole-card network"). Trained by `make model` (models/training/whole_card.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from cribbage.cards import Card
from models import MODELS_DIR
from vision.crops import warp_card
from vision.errors import ModelError
from vision.onnx_session import open_session

DEFAULT_MODEL = MODELS_DIR / "whole_card.onnx"
SUITS = "CDHS"
GROUPS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "court")
COURT = len(GROUPS) - 1
WIDTH, HEIGHT = 48, 68        # the whole card as the network reads it (its aspect about a card's)
SURE_OF_ITSELF = 0.9          # the opinion counts only where its own rank group is this likely
REFUSE_UNDER = 0.001          # a read number card is refused where its rank group or suit is less likely
ANOTHER_NUMBER = 0.999        # any read is refused where the face is surely another number card
READ_AT = 0.99                # an unread lone number card is read where the face is surely that card


def group_of(card: Card) -> int:
    """The card's rank group: 0 for an ace, 1..9 for 2..10, COURT for J, Q, K."""
    return COURT if card.rank > 10 else card.rank - 1


def class_of(card: Card) -> int:
    """The card's class among the network's outputs (suit-major)."""
    return SUITS.index(card.suit) * len(GROUPS) + group_of(card)


def is_number(group: int) -> bool:
    """Number cards (2-10) are told by their pips; aces and courts by pictures that vary by deck."""
    return 0 < group < COURT


def by_group(probs: np.ndarray) -> np.ndarray:
    return np.asarray(probs, np.float64).reshape(len(SUITS), len(GROUPS)).sum(axis=0)


def by_suit(probs: np.ndarray) -> np.ndarray:
    return np.asarray(probs, np.float64).reshape(len(SUITS), len(GROUPS)).sum(axis=1)


def sure_of_itself(probs: np.ndarray) -> bool:
    """A badly fitted outline warps to a face the network cannot read: its opinion spreads."""
    return float(by_group(probs).max()) >= SURE_OF_ITSELF


def sure_of_a_picture(probs: np.ndarray) -> bool:
    """An ace and a court are both pictures to a face it never saw (a foreign deck's boer or valet):
    its opinion may split between the two and still be sure the card is no number card."""
    groups = by_group(probs)
    return float(groups[0] + groups[COURT]) >= SURE_OF_ITSELF


def refutes(card: Card, probs: np.ndarray) -> bool:
    """Whether the whole face says the card read at its index is not that card."""
    group = group_of(card)
    if is_number(group) and (sure_of_itself(probs) or sure_of_a_picture(probs)) and \
            (by_group(probs)[group] < REFUSE_UNDER or by_suit(probs)[SUITS.index(card.suit)] < REFUSE_UNDER):
        return True
    if not sure_of_itself(probs):
        return False
    best = int(np.argmax(probs))
    return best != class_of(card) and is_number(best % len(GROUPS)) and float(probs[best]) >= ANOTHER_NUMBER


def surely_shows(probs: np.ndarray) -> Card | None:
    """The number card the whole face surely shows, or None (a court or an ace is never read from it)."""
    best = int(np.argmax(probs))
    group = best % len(GROUPS)
    if not (is_number(group) and sure_of_itself(probs) and float(probs[best]) >= READ_AT):
        return None
    return Card(group + 1, SUITS[best // len(GROUPS)])


def face_of(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The whole card at an outline (starting at an index corner), upright, as the network reads it:
    HEIGHT x WIDTH BGR."""
    return warp_card(image, np.asarray(quad, np.float32), (WIDTH, HEIGHT))


class WholeCardReader:
    """probabilities(image, quads) -> N x 44: the whole card at each outline (starting at an index
    corner, as vision.recognizer's orderings do), warped upright and read."""

    def __init__(self, model_path: str | Path | None = None):
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        if not self.model_path.is_file():
            raise ModelError(f"whole-card model {self.model_path} is missing: run `make model` to build it")
        self._session = open_session(self.model_path, "whole-card model")
        inp = self._session.get_inputs()[0]
        self._input_name = inp.name
        classes = self._session.get_outputs()[0].shape[1]
        if list(inp.shape[1:]) != [3, HEIGHT, WIDTH] or classes != len(SUITS) * len(GROUPS):
            raise ModelError(f"{self.model_path} reads {inp.shape[1:]} into {classes} classes; "
                             f"this reader wants [3, {HEIGHT}, {WIDTH}] into {len(SUITS) * len(GROUPS)}")

    def probabilities(self, image: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
        return self.read_faces([face_of(image, quad) for quad in quads])

    def read_faces(self, faces: Sequence[np.ndarray]) -> np.ndarray:
        """N x 44 for faces already warped upright (face_of): a learned deck's stored faces."""
        if len(faces) == 0:
            return np.zeros((0, len(SUITS) * len(GROUPS)))
        batch = np.stack(faces).astype(np.float32).transpose(0, 3, 1, 2) / np.float32(255.0)
        logits = self._session.run(None, {self._input_name: batch})[0].astype(np.float64)
        logits -= logits.max(axis=1, keepdims=True)
        exp = np.exp(logits)
        return exp / exp.sum(axis=1, keepdims=True)
