"""A covered card's index corner: its outline moved onto the edges beside it, and whether an index
(a rank over a suit) shows there.  A covered card showing none is not proposed: a misplaced outline
would be read as another card."""

from __future__ import annotations

import cv2
import numpy as np

from vision.crops import card_to_image
from vision.finder.cues import whiteness

CORNER_REACH = 8.0           # full-frame pixels either side of a covered card's sides searched for its edge
CORNER_SPAN = (0.06, 0.3)    # stretch of each side, from the index corner, in shares of that side's length
CORNER_MIN_FALL = 5          # median fall over that stretch marking the card's edge

INDEX_BOX = (0.3, 0.4)        # share of the card's width and height cut at an index corner to check for print
RANK_AREA = (0.025, 0.14, 0.025, 0.19)   # where the rank glyph lies (y0, y1, x0, x1 in card shares) ...
SUIT_AREA = (0.15, 0.29, 0.025, 0.19)    # ... and the suit sign below it
INK_SHARE = (0.04, 0.02)      # least share of dark print in each
INDEX_COLUMN = (0.02, 0.16)   # the index's column, in shares of the card's width from its edge ...
INDEX_GAP_ROWS = (0.08, 0.25)  # ... and a pale row (at most this share dark) between rank and suit lies
INDEX_GAP_INK = 0.3           # ... this far down, with print above and below (least mean shares):
INDEX_MARK_INK = (0.08, 0.05)


def fit_corner(image: np.ndarray, quad: np.ndarray, samples: int = 8) -> np.ndarray:
    """A covered card's quad moved onto the edges beside its index corner (quad[0]), where they show.

    Each side is sampled across over the stretch beside the corner that shows in any row; the edge is
    the offset where the median (over the stretch) fall in brightness going outwards peaks: a card's
    edge runs the whole stretch, an index glyph or a pip beside it only part of it.
    """
    corner = quad[0]
    lines = []
    offsets = np.arange(-CORNER_REACH, CORNER_REACH + 0.01, 0.5, dtype=np.float32)
    for end, sign in ((quad[1], 1.0), (quad[3], -1.0)):
        length = float(np.hypot(*(end - corner)))
        d = (end - corner) / max(length, 1e-6)
        normal = sign * np.array([d[1], -d[0]], np.float32)  # outwards, for a clockwise quad
        s = np.linspace(CORNER_SPAN[0], CORNER_SPAN[1], samples, dtype=np.float32) * length
        base = corner[None, :] + d[None, :] * s[:, None]
        pts = (base[:, None, :] + normal[None, None, :] * offsets[None, :, None]).astype(np.float32)
        sampled = cv2.remap(image, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        value = whiteness(sampled).astype(np.float32)
        fall = np.maximum(value[:, :-2] - value[:, 2:], 0)
        typical = np.median(fall, axis=0)
        peak = int(np.argmax(typical))
        if typical[peak] < CORNER_MIN_FALL:
            lines.append((corner, d))
            continue
        # Each sample's own edge near the common one, then a straight line through them.
        lo, hi = max(peak - 3, 0), min(peak + 4, fall.shape[1])
        own = lo + np.argmax(fall[:, lo:hi], axis=1)
        edge = base + normal[None, :] * offsets[own + 1][:, None]
        vx, vy, x0, y0 = cv2.fitLine(edge.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        direction = np.array([vx, vy]) * (1.0 if np.dot([vx, vy], d) >= 0 else -1.0)
        lines.append((np.array([x0, y0]), direction))
    (p, u), (q, v) = lines
    m = np.array([u, -v]).T
    if abs(np.linalg.det(m)) < 1e-3:
        return quad
    k = np.linalg.solve(m, q - p)
    new = (p + k[0] * u).astype(np.float32)
    if np.hypot(*(new - corner)) > 1.5 * CORNER_REACH:
        return quad
    width, height = float(np.hypot(*(quad[1] - quad[0]))), float(np.hypot(*(quad[3] - quad[0])))
    a, b = u / np.hypot(*u), v / np.hypot(*v)
    return np.float32([new, new + a * width, new + a * width + b * height, new + b * height])


def index_shows(image: np.ndarray, quad: np.ndarray) -> bool:
    """Whether print lies where a card's index would be, at the corner quad[0]: a rank glyph and a
    suit sign below it, darker than the corner's white, apart.  A layout that puts a covered card the
    wrong way round or on a neighbour's edge puts that corner on a blank margin, a pip or a picture."""
    bw, bh = INDEX_BOX
    size = (48, 64)
    box = cv2.perspectiveTransform(np.float32([[[0, 0], [bw, 0], [bw, bh], [0, bh]]]), card_to_image(quad))[0]
    to_box = cv2.getPerspectiveTransform(box, np.float32([[0, 0], [size[0], 0], size, [0, size[1]]]))
    crop = cv2.warpPerspective(image, to_box, size, flags=cv2.INTER_AREA)
    grey = whiteness(crop).astype(np.float32)
    dark = grey < 0.6 * float(np.percentile(grey, 90))
    shares = []
    for y0, y1, x0, x1 in (RANK_AREA, SUIT_AREA):
        rows = slice(int(y0 / bh * size[1]), int(y1 / bh * size[1]))
        cols = slice(int(x0 / bw * size[0]), int(x1 / bw * size[0]))
        shares.append(float(dark[rows, cols].mean()))
    if not (shares[0] >= INK_SHARE[0] and shares[1] >= INK_SHARE[1]):
        return False
    # A rank over a suit: two marks with a pale row between them, where a pip or a picture is one.
    per_row = dark[:, int(INDEX_COLUMN[0] / bw * size[0]):int(INDEX_COLUMN[1] / bw * size[0])].mean(axis=1)
    rows_per_height = size[1] / bh
    above, below = int(INDEX_COLUMN[0] * rows_per_height), int(0.15 * rows_per_height)  # top margin; a suit
    for g in range(int(INDEX_GAP_ROWS[0] * rows_per_height), int(INDEX_GAP_ROWS[1] * rows_per_height)):
        if per_row[g] <= INDEX_GAP_INK and per_row[above:g].mean() >= INDEX_MARK_INK[0] and \
                per_row[g + 1:g + 1 + below].mean() >= INDEX_MARK_INK[1]:
            return True
    return False
