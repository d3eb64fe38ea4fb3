"""The geometry of a card's quad that every part of the finder uses: its corners turned and put in
order, its sides, where side lines meet, how much two quads overlap, and working-resolution points
taken to the full frame."""

from __future__ import annotations

import cv2
import numpy as np

CARD_ASPECT = 0.7            # short / long side of a card when nothing better is known

# A quad's corners taken from each corner on, as np.roll(quad, -k, axis=0) would, by indexing (a
# tenth of the cost: quads are turned some hundred times a frame).
FROM = np.array([[(k + i) % 4 for i in range(4)] for k in range(4)])
NEXT, PREVIOUS = FROM[1], FROM[3]


def sides(quad: np.ndarray) -> np.ndarray:
    """The lengths of the quad's four sides, each from its corner to the next."""
    step = quad[NEXT] - quad
    return np.hypot(step[:, 0], step[:, 1])


def clockwise(quad: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise on screen (y down), starting from the one nearest the top-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(axis=1)))
    return quad[FROM[start]]


def index_orderings(quad: np.ndarray, exposed: np.ndarray | None) -> list[np.ndarray]:
    """The quad started at each of its two index corners (clockwise next side short), the one nearest
    the exposed point first; a covered card gets only that one."""
    lengths = sides(quad)
    first = 0 if lengths[0] + lengths[2] <= lengths[1] + lengths[3] else 1
    a, b = quad[FROM[first]], quad[FROM[first + 2]]
    if exposed is None:
        return [a, b]

    def index_centre(q: np.ndarray) -> np.ndarray:
        return q[0] + 0.14 * (q[1] - q[0]) + 0.18 * (q[3] - q[0])
    near_a = np.hypot(*(index_centre(a) - exposed))
    near_b = np.hypot(*(index_centre(b) - exposed))
    return [a] if near_a <= near_b else [b]


def intersect(lines, fallback: np.ndarray, *, slack: float = 0.1, pad: float = 4) -> np.ndarray:
    """Corners where consecutive side lines (point, direction) meet; the fallback if any are parallel
    or a corner moves more than slack x the first side's length + pad pixels from it."""
    out = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        # p + k u = q + j v, solved for k by Cramer's rule (numpy's solver costs ten times as much
        # for two unknowns, and this runs some hundred times a frame)
        (ux, uy), (vx, vy), (wx, wy) = (map(float, u), map(float, v), map(float, q - p))
        det = vx * uy - ux * vy
        if abs(det) < 1e-6:
            return fallback
        out.append(p + np.float64((vx * wy - wx * vy) / det) * u)
    result = np.float32(out)
    limit = slack * float(np.hypot(*(fallback[1] - fallback[0]))) + pad
    return result if np.abs(result - fallback).max() < limit else fallback


def iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def to_full(points: np.ndarray, scale: float) -> np.ndarray:
    """Working-resolution pixel coordinates to full-frame ones (pixel centres at integers in both)."""
    return (points + 0.5) / scale - 0.5
