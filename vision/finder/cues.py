"""The two cues that mark a card against any table, as outlines at working resolution: its face is
brighter than the table around it (compared with a local mean, which copes with coloured, dark and
textured tables and uneven light), and its outline is a closed loop of edges (which copes with a light
table where the brightness differs little).  Also the bright patches of about a card's size, outlined
as cards or not, for the index-corner detector to read again enlarged."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.finder.quads import CARD_ASPECT, to_full

BRIGHTER_BY = (1.06, 1.2, 1.4)  # a card is this much brighter than the local mean of the table ...
BRIGHTER_PLUS = 5            # ... plus this many grey levels (the strictest level parts a white card
#                              from the pale streaks of wood grain or carpet that touch it)
PATCH_LEVEL = 1              # the level whose blobs are the bright patches read again (find_cards_and_patches)
PATCH_MIN = 0.5              # a bright patch (find_cards_and_patches) spans at least this share of the
#                              smallest card's long side (a card's face cut by shade or glare is smaller),
PATCH_ASPECT = 0.4           # and its box is at least this share as wide as long (a card's, however
#                              turned, over 0.55; a stripe of the cloth far less)


def whiteness(pixels: np.ndarray) -> np.ndarray:
    """The darkest channel (a grey image as it is): high on white card faces, lower on any coloured
    or dark table. Of a frame, and of pixels sampled along a card's sides: numpy's min over a last
    axis of three takes ten times as long as OpenCV's split, and this runs on every side snapped."""
    if pixels.ndim == 2:
        return pixels
    b, g, r = cv2.split(pixels)
    return cv2.min(cv2.min(b, g), r)


def local_mean(chan: np.ndarray, lo_side: float) -> np.ndarray:
    """The table's brightness round each pixel: its mean over about a card's size."""
    k = int(max(31, 2 * lo_side * 3)) | 1
    return cv2.blur(chan, (k, k))


def bright_blobs(chan: np.ndarray, mean: np.ndarray, lo_side: float, brighter_by: float) -> list[np.ndarray]:
    """Outlines of regions brighter than the surrounding table (its local mean, `local_mean`)."""
    limit = cv2.convertScaleAbs(mean, alpha=brighter_by, beta=BRIGHTER_PLUS)
    mask = cv2.compare(chan, limit, cv2.CMP_GT)
    # Close first: an index printed near the card's edge leaves only a sliver of white outside it,
    # which opening alone would cut off, and the card's corner with it.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = 0.5 * CARD_ASPECT * lo_side * lo_side
    return [c for c in contours if cv2.contourArea(c) > min_area]


def edge_loops(chan: np.ndarray, lo_side: float) -> list[np.ndarray]:
    """Outlines of closed loops of edges: cards on a table about as light as they are."""
    blurred = cv2.GaussianBlur(chan, (5, 5), 1.2)
    edges = cv2.Canny(blurred, 20, 50)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = 0.5 * CARD_ASPECT * lo_side * lo_side
    return [c for c in contours if cv2.contourArea(c) > min_area]


def patch_sized(contour: np.ndarray, lo_side: float, hi_side: float) -> bool:
    """Whether a bright blob's box could hold a card's face, or most of it."""
    long, short = sorted(cv2.boundingRect(contour)[2:], reverse=True)
    return PATCH_MIN * lo_side <= long <= hi_side and short >= PATCH_ASPECT * long


class Patch(NamedTuple):
    """A bright patch of about a card's size: its box (x0, y0, x1, y1) and its outline (Nx2), both in
    full-frame pixels."""
    box: tuple[float, float, float, float]
    outline: np.ndarray


def to_patch(contour: np.ndarray, scale: float) -> Patch:
    """A working-resolution contour as a Patch in full-frame pixels."""
    return Patch(to_full_box(contour, scale), to_full(contour.reshape(-1, 2).astype(np.float32), scale))


def to_full_box(contour: np.ndarray, scale: float) -> tuple[float, float, float, float]:
    """A working-resolution contour's bounding box (x0, y0, x1, y1) in full-frame pixels."""
    x, y, w, h = cv2.boundingRect(contour)
    (x0, y0), (x1, y1) = to_full(np.float32([[x, y], [x + w, y + h]]), scale)
    return float(x0), float(y0), float(x1), float(y1)
