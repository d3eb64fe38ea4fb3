"""A card's quad fitted to an outline, where the outline is one card: corners exact despite the
card's rounded ones, sides of a card's proportions, the outline filling the quad.  Fits are
remembered per frame, as several stages ask about the same outlines."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.finder.quads import NEXT, clockwise, intersect, sides

# Accepted short / long ratio of a fitted quad.  A card (0.64 bridge to 0.71 poker) lying any way in a
# frame seen 45 degrees off vertical by a camera 53 degrees across shows down to 0.38 (1 in 100 of
# them less); squarer than 0.86 is more often two cards side by side than one seen along its length.
ASPECT_RANGE = (0.38, 0.86)


class CardFit(NamedTuple):
    """An outline's card quad (clockwise, at the outline's resolution; None if the outline is no one
    card) and how card-like it is (its solidity, 0..1; 0 for none)."""
    quad: np.ndarray | None
    score: float


class CardFits:
    """_fit_card of one frame's outlines, each worked out once: distinct, the blob loop and
    best_snap ask about the same outlines (about a third of a frame's fits were repeats)."""

    def __init__(self, lo_side: float, hi_side: float):
        self.lo_side, self.hi_side = lo_side, hi_side
        self._done: dict[int, tuple[np.ndarray, CardFit]] = {}

    def __call__(self, contour: np.ndarray) -> CardFit:
        # Keyed by identity: the outline is held here too, so its id is not reused within the frame.
        key = id(contour)
        if key not in self._done:
            self._done[key] = (contour, _fit_card(contour, self.lo_side, self.hi_side))
        return self._done[key][1]


def _fit_card(contour: np.ndarray, lo_side: float, hi_side: float) -> CardFit:
    """The card quad (clockwise) if the outline is one card; else (None, 0)."""
    quad = _quad_from_hull(contour)
    if quad is None:
        return CardFit(None, 0.0)
    quad = clockwise(_refine(quad, contour.reshape(-1, 2).astype(np.float32)))
    lengths = sides(quad)
    long_side, short_side = max(lengths[0] + lengths[2], lengths[1] + lengths[3]) / 2, \
        min(lengths[0] + lengths[2], lengths[1] + lengths[3]) / 2
    if not lo_side <= long_side <= hi_side:
        return CardFit(None, 0.0)
    ratio = short_side / long_side
    if not ASPECT_RANGE[0] <= ratio <= ASPECT_RANGE[1]:
        return CardFit(None, 0.0)
    if min(lengths[0], lengths[2]) / max(lengths[0], lengths[2]) < 0.8 or \
            min(lengths[1], lengths[3]) / max(lengths[1], lengths[3]) < 0.8:
        return CardFit(None, 0.0)
    # The quad joins points of the rounded corners, so it is a little smaller than the outline.
    area = cv2.contourArea(contour)
    fill = area / max(cv2.contourArea(quad), 1.0)
    solidity = area / max(cv2.contourArea(cv2.convexHull(contour)), 1.0)
    if not 0.85 <= fill <= 1.2 or solidity < 0.88:
        return CardFit(None, 0.0)
    return CardFit(quad, float(solidity))


def _quad_from_hull(contour: np.ndarray) -> np.ndarray | None:
    """Four corners of the outline's convex hull, simplified no further than needed; None if it has
    no four-cornered simplification."""
    hull = cv2.convexHull(contour)
    perimeter = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045, 0.06, 0.08):
        poly = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(poly) == 4:
            return poly.reshape(4, 2).astype(np.float32)
        if len(poly) < 4:
            return None
    return None


def _refine(quad: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Fit a line to the outline points along each side's middle, intersect neighbours: exact corners
    despite the card's rounded corners."""
    steps = quad[NEXT] - quad
    lengths = np.hypot(steps[:, 0], steps[:, 1])
    if (lengths < 1).any():
        return quad
    units = steps / lengths[:, None]
    # All four sides at once (this runs on every outline of every cue): each point's distance along
    # and across each side, compared in float32 as the points are.
    rel = points[None, :, :] - quad[:, None, :]
    along = np.matmul(rel, units[:, :, None])[:, :, 0]
    across = np.abs(np.matmul(rel, np.stack([-units[:, 1], units[:, 0]], axis=1)[:, :, None])[:, :, 0])
    reach = np.maximum(2.0, 0.04 * lengths.astype(np.float64)).astype(np.float32)
    low, high = (0.15 * lengths.astype(np.float64)).astype(np.float32), \
        (0.85 * lengths.astype(np.float64)).astype(np.float32)
    chosen = (across < reach[:, None]) & (along > low[:, None]) & (along < high[:, None])
    lines = []
    for i in range(4):
        near = points[chosen[i]]
        if len(near) < 4:
            lines.append((quad[i], units[i]))
            continue
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32, copy=False), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    return intersect(lines, quad, slack=0.15, pad=3)
