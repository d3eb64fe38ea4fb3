"""A long blob split into the cards of an overlapping row.  Of the ways a row may have been laid
(which way, where the top card ends), the one whose covered cards show an index at the corner it puts
them is preferred, each covered card's corner fitted to the edges beside it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np

from vision.finder.cues import whiteness
from vision.finder.covered_corner import fit_corner, index_shows
from vision.finder.quads import CARD_ASPECT, clockwise, index_orderings
from vision.finder.row_lines import CrossingLine, crossing_lines, lay_row

ROW_MIN_FILL = 0.7           # a row fills this much of its bounding rectangle (cards askew fill less)
ROW_INDEX_WEIGHT = 3.0       # weight of the share of covered cards showing print at their index corner


class RowCard(NamedTuple):
    """A card of a row: its quad (full-frame pixels; a covered card's starts at the index corner that
    shows, fitted to the edges there), whether it is covered, and whether print showed at that corner
    (True for the top card, and where it was not checked)."""
    quad: np.ndarray
    covered: bool
    index_seen: bool


class EdgeLine(NamedTuple):
    """A straight card edge across a turned row."""
    x: float     # at the row's mid-height
    tilt: float  # dx/dy


@dataclass(frozen=True, eq=False)
class TurnedRow:
    """A row's blob turned to run along x, in a patch cut from the frame."""
    image: np.ndarray      # the frame (BGR, full resolution)
    patch: np.ndarray      # its whiteness, turned
    mask: np.ndarray       # the blob filled in, turned
    outline: np.ndarray    # the blob's outline, turned (Nx2)
    rotation: np.ndarray   # frame to patch (2x3)
    start: float           # the blob's first and last columns ...
    end: float
    top: float             # ... and rows in the patch
    bottom: float


def split_row(image: np.ndarray, outline: np.ndarray, lo_side: float, hi_side: float,
              verify: bool = True) -> list[RowCard]:
    """Cards of an overlapping row.

    Works at full resolution on the blob's outline (Nx2, full-frame pixels).  The row is turned to
    run along x; every card edge that crosses it is a straight line across nearly its whole height,
    which pips and pictures are not.  Each card spans one card length from such a line, in the
    direction the cards were laid; that length is measured on the top card, the only one seen whole,
    and must agree with the card's shape (a card-shaped blob with a picture frame is not a row).
    """
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(outline)
    if rw < rh:
        rw, rh, angle = rh, rw, angle + 90.0
    area = cv2.contourArea(outline)
    if rw * rh <= 0 or area / (rw * rh) < ROW_MIN_FILL or not lo_side * CARD_ASPECT <= rh <= hi_side or rw > 12 * rh:
        return []
    options = [(h, rh * CARD_ASPECT if h else rh / CARD_ASPECT) for h in (True, False)]
    options = [(h, e) for h, e in options if rw >= 1.2 * e]
    if not options:
        return []
    pad = 6
    pw, ph = int(rw) + 2 * pad, int(rh) + 2 * pad
    rot = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    rot[:, 2] += (pw / 2 - cx, ph / 2 - cy)
    patch = whiteness(cv2.warpAffine(image, rot, (pw, ph), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))
    mpatch = np.zeros((ph, pw), np.uint8)
    cv2.fillPoly(mpatch, [np.round(cv2.transform(outline[None], rot)[0]).astype(np.int32)], 255)
    cols = np.nonzero(mpatch.max(axis=0))[0]
    rows = np.nonzero(mpatch.max(axis=1))[0]
    if len(cols) < 8 or len(rows) < 8:
        return []
    start, end = float(cols[0]), float(cols[-1] + 1)
    top, bottom = float(rows[0]), float(rows[-1] + 1)
    edges = crossing_lines(patch, mpatch, rh)
    layouts = [layout for _, expected in options for forward in (True, False)
               for layout in lay_row(edges, start, end, expected, forward, rh)]
    layouts.sort(key=lambda layout: -layout.score)
    turned = TurnedRow(image, patch, mpatch, cv2.transform(outline[None], rot)[0], rot, start, end, top, bottom)
    # The layout whose covered cards show an index where it puts them (weighed with its edges).
    best, best_score = [], -np.inf
    for layout in layouts:
        score = layout.score
        if score + ROW_INDEX_WEIGHT <= best_score:  # sorted: no later layout can win
            break
        if max(layout.card_length, rh) < lo_side:  # cards smaller than any card this finder looks for
            continue
        cards = _row_cards(turned, layout.forward, layout.card_length, layout.edges, verify)
        if not verify and cards:  # the best by its edges alone, its index corners unchecked
            return cards
        shows = [card.index_seen for card in cards if card.covered]
        if shows:
            score += ROW_INDEX_WEIGHT * float(np.mean(shows))
        if cards and score > best_score:
            best, best_score = cards, score
    return best


def _row_cards(row: TurnedRow, forward: bool, along: float, inner: list[CrossingLine],
               verify: bool = True) -> list[RowCard]:
    """The cards of a turned row laid one way (see split_row); [] if the covered cards show no print
    beside their edges."""
    image, patch, mpatch, turned, rot = row.image, row.patch, row.mask, row.outline, row.rotation
    start, end, top, bottom = row.start, row.end, row.top, row.bottom
    ph = patch.shape[0]
    # Each line: (x at mid-height, dx per unit y); the row's two outer ends are fitted to its outline.
    lines = [_end_line(turned, start, along, top, bottom)] + [EdgeLine(e.x, e.tilt) for e in inner] + \
        [_end_line(turned, end, along, top, bottom)]
    sign = 1.0 if forward else -1.0
    near = lines[:-1] if forward else lines[1:]
    mid = (top + bottom) / 2
    inverse = cv2.invertAffineTransform(rot)
    cards = []
    inked = 0
    for i, (x, tilt) in enumerate(near):
        is_top = (i == len(near) - 1) if forward else (i == 0)
        if is_top:
            x = end - along if forward else start + along
            tilt = lines[-2].tilt if forward and len(lines) > 2 else (lines[1].tilt if len(lines) > 2 else 0.0)
        # Where this card shows, just beside its near edge, the blob's top and bottom are the card's.
        c0, c1 = sorted((x + sign * 0.04 * along, x + sign * 0.2 * along))
        band = mpatch[:, max(int(c0), 0):max(int(c1), int(c0) + 1)] > 0
        filled = band.any(axis=0)
        if filled.sum() >= 2:
            tops = band[:, filled].argmax(axis=0)
            bottoms = ph - 1 - band[::-1, filled].argmax(axis=0)
            y0, y1 = float(np.median(tops)), float(np.median(bottoms)) + 1.0
        else:
            y0, y1 = top, bottom
        norm = np.hypot(tilt, 1.0)
        out = np.array([1.0, -tilt]) / norm * sign  # across the line, the way the card lies
        near_a = np.array([x + (y0 - mid) * tilt, y0])
        near_b = np.array([x + (y1 - mid) * tilt, y1])
        far_a, far_b = near_a + out * along, near_b + out * along
        quad = np.float32([near_a, far_a, far_b, near_b]) - 0.5
        quad = clockwise(cv2.transform(quad[None], inverse)[0])
        if is_top:
            cards.append(RowCard(quad, False, True))
            continue
        inked += _has_ink(patch, c0, c1, y0, y1)
        # The index corner that shows is the one nearer the part of the card beside its near edge.
        shown_at = (near_a + near_b) / 2 + out * 0.25 * along
        shown = cv2.transform(np.float32([[shown_at - 0.5]]), inverse)[0, 0]
        corner = index_orderings(quad, shown)[0]
        if verify:
            corner = fit_corner(image, corner)
        cards.append(RowCard(corner, True, not verify or index_shows(image, corner)))
    # Every covered card shows its index beside its edge: stripes of a cloth show nothing there.
    if inked < 0.5 * (len(cards) - 1):
        return []
    return cards


def _has_ink(patch: np.ndarray, c0: float, c1: float, y0: float, y1: float) -> bool:
    """Whether the strip [c0, c1] of a turned row holds print (an index) near either end."""
    x0, x1 = max(int(c0), 0), min(int(np.ceil(c1)), patch.shape[1])
    span = y1 - y0
    for a, b in ((y0 + 0.03 * span, y0 + 0.35 * span), (y1 - 0.35 * span, y1 - 0.03 * span)):
        region = patch[max(int(a), 0):max(int(b), 0), x0:x1]
        if region.size and float(region.min()) < 0.6 * float(np.median(region)):
            return True
    return False


def _end_line(points: np.ndarray, x_end: float, along: float, top: float,
              bottom: float) -> EdgeLine:
    """The straight outline at one end of a turned row.

    Fitted to the outline points near that end, away from the rounded corners; a vertical line at
    the end when too few points are there, or they lie along one line across and so give no slope.
    """
    mid, span = (top + bottom) / 2, bottom - top
    near = points[(np.abs(points[:, 0] - x_end) < 0.12 * along) &
                  (np.abs(points[:, 1] - mid) < 0.35 * span)]
    if len(near) < 6 or np.ptp(near[:, 1]) < 1.0:
        return EdgeLine(x_end, 0.0)
    slope, offset = np.polyfit(near[:, 1] - mid, near[:, 0], 1)
    if abs(slope) > 0.27 or abs(offset - x_end) > 0.1 * along:
        return EdgeLine(x_end, 0.0)
    return EdgeLine(float(offset), float(slope))
