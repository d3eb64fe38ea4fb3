"""Value types shared across the vision layer: what the recognizer reports for one card it sees."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cribbage.cards import Card


@dataclass(frozen=True, eq=False)
class Recognition:
    """One card seen in a frame.

    card: the card read, or None when a card is seen but not read with enough confidence.
    confidence: calibrated probability that `card` is right (for None: of the best guess, not reported;
                for a card its index almost read and its whole face confirmed: the whole-card network's).
    quad: 4x2 float32 image coordinates of the whole card's corners, clockwise, starting at the
          corner whose index was read (top-left of the upright card).
    refuted: for an unread card whose index was read, until its whole face (vision.whole_card) said
          it is not that card, the card its index showed: a learned deck does not read it again, and
          it still contradicts another card read across it (vision.one_card).
    """

    card: Card | None
    confidence: float
    quad: np.ndarray
    refuted: Card | None = None

    @property
    def face_refuted(self) -> bool:
        """Whether its whole face refused the card its index was read as."""
        return self.refuted is not None

    @property
    def index_read(self) -> Card | None:
        """The card its index was read as: the card reported, or the one its whole face refuted."""
        return self.card if self.card is not None else self.refuted

    @property
    def centre(self) -> tuple[float, float]:
        x, y = self.quad.mean(axis=0)
        return float(x), float(y)

    def to_dict(self) -> dict:
        """The JSON shape of docs/DESIGN.md's `muggins recognize` contract for one card."""
        return {
            "card": None if self.card is None else str(self.card),
            "confidence": round(float(self.confidence), 4),
            "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad],
        }
