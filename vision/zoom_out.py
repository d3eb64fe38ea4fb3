"""Cards too large for the finder's view: found again in the frame shrunk onto a canvas of the table.

The finder and the index-corner detector look for cards of the sizes a camera over a card table sees.
A card held close, or a phone photo of one card, may be larger than they find: its face wider than the
window the finder measures brightness in, its index larger than any the detector learned, its outline
cut by the frame's edge. Shrunk onto a canvas of the frame's shape, filled with the table's colour
round it, the same card is of a size they know. Its outlines are mapped back to the frame's pixels,
so the index crops are still cut at full resolution.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.one_card import long_side

SHRINKS = (0.35, 0.45, 0.55)  # the frame's shares of the canvases looked at: a card 0.8 of the frame
#                               high becomes 0.28, 0.36 and 0.44 of it
VIEW_SIZE = 1280     # pixels along the longer side of the views looked at, at most: the index crops
#                      are cut from the frame itself
KNOWN_SIZE = 0.3     # a calibrated card longer than this share of the frame's shorter side is shrunk to it
SCRAP = 0.8          # outlines all shorter than this share of the corners' cards are scraps of cards
BIG_CARD = 0.5       # a candidate this share of the frame's shorter side long may be a larger card's part
BIG_READ = 0.35      # cards read this share of the frame's shorter side long (median) may lie beside larger


def table_colour(image: np.ndarray) -> tuple[float, float, float]:
    """The median colour of the frame's border: the table, where a card does not fill the frame."""
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).reshape(-1, 3)
    return tuple(float(v) for v in np.median(border, axis=0))


def on_canvas(image: np.ndarray, shrink: float) -> tuple[np.ndarray, np.ndarray]:
    """The frame shrunk by `shrink` into the middle of a canvas of its own size, filled with the table's
    colour, and the offset (x, y) of the shrunk frame on the canvas."""
    h, w = image.shape[:2]
    sw, sh = max(1, round(w * shrink)), max(1, round(h * shrink))
    canvas = np.empty_like(image)
    canvas[:] = np.asarray(table_colour(image), np.float32).round().astype(image.dtype)
    x0, y0 = (w - sw) // 2, (h - sh) // 2
    canvas[y0:y0 + sh, x0:x0 + sw] = cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA)
    return canvas, np.float32([x0, y0])


class ZoomingOutFinder:
    """A finder (image -> Candidates) that looks at a frame of at most VIEW_SIZE pixels long (a
    phone's photo shrunk: its cards are found as well, in a fraction of the time), and again in that
    view shrunk onto canvases where its first look may have missed a large card (worth_zooming_out).

    The wider look shrinks the view to each of `shrinks` and offers every canvas's candidates: the
    index-corner detector finds a large card's corners, and guesses its size, differently at each
    scale (a blurred phone photo's index found at one is missed at the next), and the recognizer
    keeps one report per card of all they read."""

    def __init__(self, inner: Callable[[np.ndarray], Sequence], shrinks: Sequence[float] = SHRINKS,
                 card_length: float | None = None):
        """card_length: the long side of a card in the frame's pixels, where `muggins calibrate` measured
        it: a frame of such cards is looked at once, at the scale that makes them the size the finder
        knows best (KNOWN_SIZE), and never again."""
        self.inner = inner
        self.shrinks = tuple(shrinks)
        self.card_length = card_length

    def worth_zooming_out(self, image: np.ndarray, found: Sequence) -> bool:
        """Where no card was outlined (only index corners found, if anything: a large card's indices
        are found where its face is not), where every outline is shorter than the cards the index
        corners found stand for (scraps of a larger card's face), or where an outline is so large it
        may be part of a larger card."""
        short = min(image.shape[:2])
        outlined = [long_side(c.quad) for c in found if not getattr(c, "by_corner", False)]
        cornered = [long_side(c.quad) for c in found if getattr(c, "by_corner", False)]
        return not outlined or max(outlined) >= BIG_CARD * short or \
            bool(cornered) and max(outlined) < SCRAP * float(np.median(cornered))

    def __call__(self, image: np.ndarray) -> list:
        return self.look(image)[0]

    def look(self, image: np.ndarray) -> tuple[list, Callable[[], list] | None]:
        """The candidates of the first look, and how to look wider once they are read (the zoomed-out
        look's candidates), or None where the first look already did or the card size is calibrated."""
        h, w = image.shape[:2]
        fit = min(1.0, VIEW_SIZE / max(w, h))
        view = shrunk(image, fit)
        if self.card_length is not None:
            shrink = min(1.0, KNOWN_SIZE * min(view.shape[:2]) / (self.card_length * fit))
            if shrink >= 1.0:
                return in_frame(self.inner(view), np.float32([0, 0]), fit), None
            canvas, offset = on_canvas(view, shrink)
            return in_frame(self.inner(canvas), offset, shrink * fit), None
        found = in_frame(self.inner(view), np.float32([0, 0]), fit)

        def zoomed_out(every_scale: bool = True) -> list:
            """The candidates of every canvas, or (every_scale False) of the middle one only."""
            middle = len(self.shrinks) // 2
            more = []
            for shrink in self.shrinks if every_scale else self.shrinks[middle:middle + 1]:
                canvas, offset = on_canvas(view, shrink)
                more += in_frame(self.inner(canvas), offset, shrink * fit)
            return more

        if not self.worth_zooming_out(image, found):  # found: in the frame's pixels
            return found, zoomed_out
        return found + zoomed_out(), None


def worth_a_wider_look(image: np.ndarray, reports: Sequence) -> bool:
    """Whether a frame's reports (vision.types.Recognition) leave room for a card larger than the first
    look finds: none was read, or the cards read are large (a phone's photo, a camera close to the
    table), where a court card or an ace beside them may be too large for the index-corner detector.
    Frames of a camera over a card table, whose cards are read at a fifth of the frame, are not."""
    length = read_length(reports)
    return length is None or length >= BIG_READ * min(image.shape[:2])


def read_length(reports: Sequence) -> float | None:
    """The median long side of the cards read (vision.types.Recognition), or None where none was."""
    lengths = [long_side(r.quad) for r in reports if r.card is not None]
    return float(np.median(lengths)) if lengths else None


def shrunk(image: np.ndarray, fit: float) -> np.ndarray:
    """The image scaled by fit (at most 1): halved by pyramid steps (each blurs before it halves) while
    over twice the size wanted, then resized the rest of the way, less than twice, linearly: a phone's
    photo in a fifth of the time of one area-averaging resize."""
    if fit >= 1.0:
        return image
    h, w = image.shape[:2]
    size = (max(1, round(w * fit)), max(1, round(h * fit)))
    if image.shape[1] < 2 * size[0] or image.shape[0] < 2 * size[1]:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        image = cv2.pyrDown(image)
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


def in_frame(candidates: Sequence, offset: np.ndarray, scale: float) -> list:
    """Candidates found in a view of the frame (placed at offset, scaled by scale), in frame pixels."""
    return [replace(c, quads=tuple(((np.asarray(q, np.float32) - offset) / scale).astype(np.float32)
                                   for q in c.quads)) for c in candidates]
