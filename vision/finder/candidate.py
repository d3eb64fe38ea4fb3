"""What the finder hands the classifier: a card-shaped region and the orderings of it worth reading."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class Candidate:
    """A card-shaped region the classifier should read.

    quads: the card's whole-card quad (4x2 float32, full-frame pixels, clockwise) in each ordering
    worth reading, best first; each starts at an index corner (a corner whose clockwise next side is
    a short side).  A lone card has two (its two index corners); a card covered in a row only the one
    that shows.  quad: quads[0].  covered: part of the card lies under another card (in a row).
    score: how card-like the shape is (0..1).  by_corner: found by the index-corner detector
    (vision.corners), not by its outline.
    """

    quads: tuple[np.ndarray, ...]
    covered: bool = False
    score: float = 1.0
    by_corner: bool = False

    @property
    def quad(self) -> np.ndarray:
        return self.quads[0]
