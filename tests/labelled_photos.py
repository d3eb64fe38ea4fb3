"""A labelled real photo for the training-data tests: one white card with a red 7 in its top-left
corner on a dark, grainy table, and its label (a box-fitted outline with each index corner's verdict)."""

from __future__ import annotations

import cv2
import numpy as np

from models.training.real_labels import LabelledCard, LabelledPhoto

CARD = np.float32([[100, 80], [200, 80], [200, 220], [100, 220]])


def table_photo() -> np.ndarray:
    rng = np.random.default_rng(3)
    image = rng.integers(40, 90, (480, 640, 3), dtype=np.uint8)
    cv2.fillConvexPoly(image, CARD.astype(np.int32), (245, 245, 245))
    cv2.putText(image, "7", (106, 108), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 200), 2)
    return image


def labelled_seven(corners=("shown", "shown"), path: str = "p.jpg") -> LabelledPhoto:
    """The photo's label: the 7♥ at CARD, its two index corners judged `corners`."""
    return LabelledPhoto("a/source", path, (640, 480), ["7H"], [LabelledCard("7H", CARD, "box", list(corners))])
