"""The card classifier: index-corner crops in, (card or None, calibrated confidence) out.

It runs models/cards.onnx with onnxruntime on one thread (vision.onnx_session) and reads
models/labels.json for the class names, the temperature that calibrates the model's scores and the
threshold under which a read is refused. Refusing is the point: a card reported unreadable costs a
player a second to re-place it; a card read wrong is a false accusation of an over-claim.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from cribbage.cards import Card
from models import MODELS_DIR
from vision.errors import ModelError
from vision.onnx_session import open_session, read_settings

DEFAULT_MODEL = MODELS_DIR / "cards.onnx"
BACKGROUND = "background"


def labels_path_for(model_path: Path) -> Path:
    """labels.json lives beside the model it describes."""
    return model_path.with_name("labels.json")


def load_labels(path: Path) -> dict:
    """Read and check labels.json; a missing or malformed file is a ModelError saying which."""
    meta = read_settings(path, "card model labels")
    for key in ("labels", "temperature", "threshold"):
        if key not in meta:
            raise ModelError(f"card model labels {path} lack '{key}': rebuild with `make model`")
    if BACKGROUND not in meta["labels"]:
        raise ModelError(f"card model labels {path} have no '{BACKGROUND}' class")
    return meta


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


class CardClassifier:
    """Reads cards from index crops (H x W x 3 uint8 BGR, the size vision.crops cuts).

    classify(crops) -> [(Card | None, confidence)]: None both for "not a card" and for a card read
    with a calibrated confidence under the threshold; card_probability(...) tells those two apart.
    """

    def __init__(self, model_path: str | Path | None = None, *, threshold: float | None = None):
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        if not self.model_path.is_file():
            raise ModelError(f"card model {self.model_path} is missing: run `make model` to build it")
        meta = load_labels(labels_path_for(self.model_path))
        self.labels: list[str] = list(meta["labels"])
        self.cards: list[Card | None] = [None if name == BACKGROUND else Card.parse(name)
                                         for name in self.labels]
        self.background_index = self.labels.index(BACKGROUND)
        self.temperature = float(meta["temperature"])
        self.threshold = float(meta["threshold"] if threshold is None else threshold)
        self.meta = meta
        self._session = open_session(self.model_path, "card model")
        inp = self._session.get_inputs()[0]
        self._input_name = inp.name
        _, self.channels, self.height, self.width = inp.shape
        if len(self.labels) != self._session.get_outputs()[0].shape[1]:
            raise ModelError(f"{self.model_path} has {self._session.get_outputs()[0].shape[1]} outputs "
                             f"but labels.json names {len(self.labels)} classes")

    def probabilities(self, crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """Calibrated class probabilities, one row per crop (N x classes)."""
        if len(crops) == 0:
            return np.zeros((0, len(self.labels)), np.float32)
        batch = np.stack([self._check(c) for c in crops]).astype(np.float32)
        batch = batch.transpose(0, 3, 1, 2) / np.float32(255.0)
        logits = self._session.run(None, {self._input_name: batch})[0]
        return softmax(logits.astype(np.float64) / self.temperature)

    def _check(self, crop: np.ndarray) -> np.ndarray:
        if crop.shape != (self.height, self.width, self.channels):
            raise ValueError(f"crop of shape {crop.shape}: the model takes "
                             f"{(self.height, self.width, self.channels)} (cut it with vision.crops)")
        return crop

    def classify(self, crops: Sequence[np.ndarray] | np.ndarray) -> list[tuple[Card | None, float]]:
        """(card, confidence) per crop; card is None when not a card or not confident enough."""
        return [self.decide(row) for row in self.probabilities(crops)]

    def decide(self, probs: np.ndarray) -> tuple[Card | None, float]:
        """Turn one row of probabilities into a read: the best card if over the threshold, else None.

        The confidence of a None is the best card's probability (or, when "not a card" wins, the
        probability of that), so a caller can still rank refusals.
        """
        best = int(np.argmax(probs))
        confidence = float(probs[best])
        if best == self.background_index or confidence < self.threshold:
            return None, confidence
        return self.cards[best], confidence

    def card_probability(self, probs: np.ndarray) -> float:
        """Probability that the crop shows some card's index at all (1 - "not a card")."""
        return 1.0 - float(probs[self.background_index])
