"""Cards too large for the finder's view: found again in the frame shrunk onto a canvas of the table.

The finder and the index-corner detector look for cards of the sizes a camera over a card table sees.
A card held close, or a phone photo of one card, may be larger than they find: its face wider than the
window the finder measures brightness in, its index larger than any the detector learned, its outline
cut by the frame's edge. Shrunk onto a canvas of the frame's
shape, filled with the table's colour round it, the same card is of a size they know. Its outlines are
mapped back to the frame's pixels, so the index crops are still cut at full resolution.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.one_card import long_side

SHRINK = 0.45        # the frame's share of the canvas: a card 0.8 of the frame high becomes 0.36
CANVAS_WIDTH = 1280  # pixels across the canvas at most: the index crops are cut from the frame itself
BIG_CARD = 0.5       # a candidate this share of the frame's shorter side long may be a larger card's part


def table_colour(image: np.ndarray) -> tuple[float, float, float]:
    """The median colour of the frame's border: the table, where a card does not fill the frame."""
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).reshape(-1, 3)
    return tuple(float(v) for v in np.median(border, axis=0))


def on_canvas(image: np.ndarray, shrink: float = SHRINK, width: int = CANVAS_WIDTH) \
        -> tuple[np.ndarray, np.ndarray, float]:
    """The frame shrunk by `shrink` into the middle of a canvas of its own shape (at most `width`
    across), filled with the table's colour; the offset (x, y) of the shrunk frame on the canvas, and
    the scale from frame to canvas pixels."""
    h, w = image.shape[:2]
    fit = min(1.0, width / w)
    cw, ch = max(1, round(w * fit)), max(1, round(h * fit))
    scale = shrink * fit
    sw, sh = max(1, round(w * scale)), max(1, round(h * scale))
    canvas = np.empty((ch, cw, 3), image.dtype)
    canvas[:] = np.asarray(table_colour(image), np.float32).round().astype(image.dtype)
    x0, y0 = (cw - sw) // 2, (ch - sh) // 2
    canvas[y0:y0 + sh, x0:x0 + sw] = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    return canvas, np.float32([x0, y0]), scale


class ZoomingOutFinder:
    """A finder (image -> Candidates) that looks again in the shrunk frame where its first look may
    have missed a large card (worth_zooming_out)."""

    def __init__(self, inner: Callable[[np.ndarray], Sequence], shrink: float = SHRINK):
        self.inner = inner
        self.shrink = shrink

    def worth_zooming_out(self, image: np.ndarray, found: Sequence) -> bool:
        """Where no card was outlined (only index corners found, if anything: a large card's indices
        are found where its face is not), or an outline is so large it may be part of a larger card."""
        short = min(image.shape[:2])
        outlined = [c for c in found if not getattr(c, "by_corner", False)]
        return not outlined or any(long_side(c.quad) >= BIG_CARD * short for c in outlined)

    def __call__(self, image: np.ndarray) -> list:
        found = list(self.inner(image))
        if not self.worth_zooming_out(image, found):
            return found
        canvas, offset, scale = on_canvas(image, self.shrink)
        for candidate in self.inner(canvas):
            quads = tuple(((np.asarray(q, np.float32) - offset) / scale).astype(np.float32)
                          for q in candidate.quads)
            found.append(replace(candidate, quads=quads))
        return found
