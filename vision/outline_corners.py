"""Index corners guessed from a bright patch's outline, where neither an outline nor the detector
explains the patch.

Two cards laid overlapping make one bright blob that is no card's shape, and the index-corner
detector, which learned its corners from rendered decks, misses the indices of some real decks (a
Bicycle deck's court cards and aces above all). The blob's outline still runs along the cards' own
edges: each nearly square corner of it is a card's corner, and from there the card runs along the
two edges that meet there. Each such corner is offered as an index corner of a card of the frame's
card length (or of its longer edge's length where no other card tells it), the card's short side
along the edge that follows clockwise; the classifier reads it or refuses it, as it does any corner.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.crops import parallelogram
from vision.finder.quads import CARD_ASPECT

SIMPLIFY = 0.015      # the outline's hull is simplified to within this share of its perimeter
SQUARE_COS = 0.34     # a corner is nearly square where its edges' cosine is at most this (70-110 degrees)


def square_corners(outline: np.ndarray, card_length: float | None) -> list[np.ndarray]:
    """Whole-card quads (4x2 float32, clockwise from the corner) at each nearly square corner of the
    convex hull of `outline` (Nx2 frame pixels): the short side along the edge leaving the corner
    clockwise, the long side along the other, card_length long (or the longer edge's length)."""
    hull = cv2.convexHull(np.asarray(outline, np.float32).reshape(-1, 1, 2))
    poly = cv2.approxPolyDP(hull, SIMPLIFY * cv2.arcLength(hull, True), True).reshape(-1, 2)
    quads = []
    for i, corner in enumerate(poly):
        before, after = poly[i - 1] - corner, poly[(i + 1) % len(poly)] - corner
        lengths = float(np.hypot(*before)), float(np.hypot(*after))
        if min(lengths) < 1.0 or abs(float(before @ after)) > SQUARE_COS * lengths[0] * lengths[1]:
            continue
        length = card_length if card_length else max(lengths)
        for across, down in ((after / lengths[1], before / lengths[0]), (before / lengths[0], after / lengths[1])):
            if across[0] * down[1] - across[1] * down[0] > 0:  # clockwise on screen
                quads.append(parallelogram(corner.astype(np.float32), (across * CARD_ASPECT * length).astype(np.float32),
                                           (down * length).astype(np.float32)))
    return quads
