"""A whole card's outline snapped to the full-resolution edges beside it, and the checks that it is a
card there: an edge nearly all round, corners nearly square, a margin of another tone than the table
outside, and (for a lone card) sides lying straight on those edges, which an outline round a shadow's
far side or a court card's frame seldom do.  Table texture is not proposed."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.crops import card_to_image
from vision.finder.cues import whiteness
from vision.finder.fitting import CardFits
from vision.finder.quads import NEXT, PREVIOUS, clockwise, intersect, sides, to_full

EDGE_MIN_FALL = 6            # grey levels a card's edge falls by over a pixel, going outwards ...
MIN_EDGE_SUPPORT = 0.4       # ... along at least this share of its outline
SNAP_INWARD, SNAP_OUTWARD = 1.5, 2.0  # edge snapping looks this many reaches in and out from a side
MAX_SKEW = 34.0             # degrees a whole card's corners may depart from square (see _skew)
MIN_STRAIGHT = 0.4           # share of each side of a lone card lying on one straight edge once snapped
MIN_FACE_CONTRAST = 4        # a card's margin differs at least this much from the table around it


class Snap(NamedTuple):
    """A quad snapped to the card's edges (see snap)."""
    quad: np.ndarray
    support: float   # share of the sampled places showing an edge
    straight: float  # least share, over the four sides, of places whose edge lies on the side's line


class OtherOutlines(NamedTuple):
    """Other outlines of the same card (another cue's), and the card quad fitted to the outline kept,
    at working resolution."""
    outlines: list[np.ndarray]
    working_quad: np.ndarray


def best_snap(image: np.ndarray, quad: np.ndarray, alternates: OtherOutlines | None, fit: CardFits,
              scale: float, min_straight: float = 0.0) -> np.ndarray | None:
    """The quad, or the card quad of another outline of the same card (alternates) whose sides lie
    straighter on edges, snapped to the card's edges; None if none shows an edge nearly all round and
    a margin of another tone than the table."""
    best, best_straight = None, -1.0
    for i in range(1 + (len(alternates.outlines) if alternates else 0)):
        if best_straight >= 0.75:  # the sides already lie on the card's edges
            break
        if i:
            other = fit(alternates.outlines[i - 1]).quad
            if other is None or np.abs(clockwise(other) - clockwise(alternates.working_quad)).max() <= 1.0:
                continue
            quad = to_full(other, scale)
        snapped, support, straight = snap(image, quad)
        if straight > max(best_straight, min_straight - 1e-6) and support >= MIN_EDGE_SUPPORT and \
                _skew(snapped) <= MAX_SKEW and abs(_face_contrast(image, snapped)) >= MIN_FACE_CONTRAST:
            best, best_straight = snapped, straight
    return best


def snap(image: np.ndarray, quad: np.ndarray, samples: int = 16) -> Snap:
    """Move each side of a full-frame quad onto the card's edge next to it, then re-intersect.

    Finding at reduced resolution leaves corners a pixel or two off; this samples the full frame along
    short lines across each side and fits a line through the edge found on each.  The edge is the
    outermost strong fall in brightness going outwards: white face to table, shadow or grey cut edge.
    Also returns the share of the sampled places where such an edge was found, and the least share,
    over the four sides, of places whose edge lies on the side's straight line (a side cut short by
    a faint margin, or drawn across the face, has few).
    """
    lengths = sides(quad)
    # Look further outwards than inwards: a blob found by brightness often misses the card's
    # shaded side, and the edge lies outside it.  Yet an edge loop may run round the far side of a
    # card's shadow, a reach and more outside its edge, on a light table above all.
    reach = float(np.clip(0.06 * lengths.mean(), 4.0, 14.0))
    offsets = np.arange(-SNAP_INWARD * reach, SNAP_OUTWARD * reach + 0.01, 0.5, dtype=np.float32)
    t = np.linspace(0.12, 0.88, samples, dtype=np.float32)
    a = quad
    b = quad[NEXT]
    d = (b - a) / np.maximum(lengths, 1e-6)[:, None]
    normal = np.stack([d[:, 1], -d[:, 0]], axis=1)  # outward for a clockwise quad on screen
    base = a[:, None, :] + (b - a)[:, None, :] * t[None, :, None]                      # 4 x S x 2
    pts = base[:, :, None, :] + normal[:, None, None, :] * offsets[None, None, :, None]  # 4 x S x O x 2
    pts = pts.reshape(4 * samples, len(offsets), 2)
    sampled = cv2.remap(image, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    value = whiteness(sampled).astype(np.float32)
    value = cv2.GaussianBlur(value, (3, 1), 0)
    fall = np.maximum(value[:, :-2] - value[:, 2:], 0)  # over one pixel (samples are half a pixel apart)
    peak = fall.max(axis=1, keepdims=True)
    strong = (fall >= 0.5 * peak) & (peak > EDGE_MIN_FALL)
    support = float(strong.any(axis=1).mean())
    strong = strong.reshape(4, samples, -1)
    lines = []
    straight = 1.0
    for i in range(4):
        shift, agree = _outermost_edges(strong[i], offsets)
        straight = min(straight, float(agree.mean()))
        if agree.sum() < samples // 2:
            lines.append((a[i], d[i]))
            continue
        edge = base[i] + normal[i][None, :] * shift[:, None]
        vx, vy, x0, y0 = cv2.fitLine(edge[agree], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    return Snap(intersect(lines, quad), support, straight)


def _outermost_edges(strong: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One side's edge at each sample (strong: samples x shifts): the outermost strong fall, and which
    samples agree with the median of those within 1.5 pixels (a glyph or a shadow beside the edge
    moves a few elsewhere)."""
    ok = strong.any(axis=1)
    shift = offsets[strong.shape[1] - np.argmax(strong[:, ::-1], axis=1)]
    agree = ok & (np.abs(shift - (_median(shift[ok]) if ok.any() else 0.0)) <= 1.5)
    return shift, agree


def _skew(quad: np.ndarray) -> float:
    """Largest departure of the quad's corner angles from square, in degrees: a card seen by a camera
    over the table stays nearly square (under 8 degrees in the rendered views from above; seen 45 degrees
    off vertical by a camera 53 degrees across, 99 in 100 cards anywhere in the frame under 34), a patch
    of glare snapped to the grain of a wood table need not."""
    before, after = quad[PREVIOUS] - quad, quad[NEXT] - quad
    cos = (before * after).sum(axis=1) / np.maximum(np.hypot(*before.T) * np.hypot(*after.T), 1e-6)
    return float(np.degrees(np.arcsin(np.clip(np.abs(cos), 0.0, 1.0))).max())


def _margin_points(inset: float) -> np.ndarray:
    """Points along the four sides of the unit card, `inset` in from them (outside where negative)."""
    t = np.linspace(0.3, 0.7, 6, dtype=np.float32)
    near, far = np.full_like(t, inset), np.full_like(t, 1 - inset)
    return np.concatenate([np.stack([t, near], 1), np.stack([t, far], 1),
                           np.stack([near, t], 1), np.stack([far, t], 1)])


# Where _face_contrast samples a card (unit square): on its margin, and on the table just outside.
_MARGIN, _OUTSIDE = _margin_points(0.045), _margin_points(-0.12)
_MARGIN_AND_OUTSIDE = np.concatenate([_MARGIN, _OUTSIDE])[None]


def _face_contrast(image: np.ndarray, quad: np.ndarray) -> float:
    """How much whiter the card's margin is than the table just outside it, in grey levels.

    Every deck prints its faces inside a margin of one tone: medians of points on that margin and of
    points a little outside, so a picture filling the card or a shadow beside it does not decide.
    Negative where a grey-faced card lies on a lighter table; table texture gives about zero.
    """
    pts = cv2.perspectiveTransform(_MARGIN_AND_OUTSIDE, card_to_image(quad))[0]
    sampled = cv2.remap(image, pts[None, :, 0].copy(), pts[None, :, 1].copy(), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    white = whiteness(sampled)[0].astype(np.float32)
    return float(_median(white[:len(_MARGIN)]) - _median(white[len(_MARGIN):]))


def _median(values: np.ndarray):
    """np.median of a few values (1-D, not empty), the same number at a tenth of its cost: it runs
    on every side of every outline snapped, a few hundred times a frame."""
    ordered = np.sort(values)
    n = len(ordered)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2
