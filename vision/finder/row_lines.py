"""The straight card edges that cross a row, and the ways of laying the row that explain them: every
card edge in a row runs straight across nearly its whole height, which pips and pictures do not, and
cards are laid evenly, one card length from the row's end to the top card's edge."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

ROW_EDGE_VOTES = 0.25        # edge pixels on a line crossing a row, per unit of its height
ROW_EDGE_STEP = 6            # grey levels of step or dip that mark a card edge at one point ...
ROW_EDGE_CONTINUITY = 0.5    # ... along at least this share of the row's height
ROW_EDGE_REACH = 0.12        # ... and reach to within this share of the row's height of both sides
ROW_MAX_LINES = 40           # crossing-line candidates examined per row
ROW_SPACING_WEIGHT = 1.0     # penalty per unit of |log(gap / median gap)| between a row's card edges
ROW_MIN_STEP = 0.28          # cards in a row are laid at least this share of a card length apart
ROW_TOP_CHOICES = 2          # lines near where the top card's edge should be, each tried as that edge
ROW_CANNY = (10, 30)         # edge thresholds inside a row: a white card edge on a white card is faint


class CrossingLine(NamedTuple):
    """A straight edge across a turned row (ordered by x, as the row runs)."""
    x: float        # at the row's mid-height
    tilt: float     # dx/dy
    support: float  # how much of its length shows an edge: continuity x the row's height


class Layout(NamedTuple):
    """One way a row may have been laid, and how well its crossing lines bear it out."""
    score: float
    forward: bool                 # each new card laid on the far side (larger x) of the last
    card_length: float            # measured on the top card, the only one seen whole
    edges: list[CrossingLine]     # the covered cards' near edges and the top card's, by x


def lay_row(edges: list[CrossingLine], start: float, end: float, expected: float, forward: bool,
            height: float) -> list[Layout]:
    """Which crossing lines are card edges, if the cards were laid forward (each new card on the far
    side) or backward: one Layout per line that may be the top card's edge (the best supported is
    not always it: a faint edge loses to a picture's).

    The top card is whole: its near edge lies about one card length from the row's end, and lines
    inside it are its pictures.  Covered cards' edges must be spaced apart (evenly, best) and tilted
    like their neighbours.
    """
    target = end - expected if forward else start + expected
    near_top = sorted((e for e in edges if abs(e.x - target) < 0.3 * expected), key=lambda e: -e.support)
    return [_lay_row_from(edges, start, end, expected, forward, height, top) for top in near_top[:ROW_TOP_CHOICES]]


def _lay_row_from(edges: list[CrossingLine], start: float, end: float, expected: float, forward: bool,
                  height: float, top: CrossingLine) -> Layout:
    """lay_row's layout given the top card's edge."""
    along = end - top.x if forward else top.x - start
    error = abs(np.log(max(along, 1.0) / expected))
    if forward:
        pool = [e for e in edges if start + ROW_MIN_STEP * along < e.x < top.x - ROW_MIN_STEP * along]
    else:
        pool = [e for e in edges if top.x + ROW_MIN_STEP * along < e.x < end - ROW_MIN_STEP * along]
    tilts = [e.tilt for e in pool] + [top.tilt]
    median_tilt = float(np.median(tilts)) if tilts else 0.0
    chosen: list[CrossingLine] = []
    for e in sorted(pool, key=lambda e: -e.support):
        if abs(e.tilt - median_tilt) < 0.15 and all(abs(e.x - c.x) >= ROW_MIN_STEP * along for c in chosen):
            chosen.append(e)
    inner = sorted(chosen + [top])
    # Every edge explained is evidence for this way of laying the row; a card length far from the
    # expected shape is evidence against (the expected aspect is only a typical deck's).
    score = top.support / height + sum(min(e.support / height, 1.0) for e in chosen) - 1.5 * error
    # Cards in a row are laid evenly: edges picked from pictures and pips space themselves unevenly.
    xs = [start] + [e.x for e in inner] if forward else [e.x for e in inner] + [end]
    gaps = np.diff(xs)
    if len(gaps) >= 2:
        score -= ROW_SPACING_WEIGHT * float(np.abs(np.log(np.maximum(gaps, 1.0) / np.median(gaps))).sum())
    return Layout(score, forward, along, inner)


def crossing_lines(patch: np.ndarray, mask: np.ndarray, height: float) -> list[CrossingLine]:
    """Straight edges crossing a row, sorted by x.

    A full Hough transform (not the segment one) proposes lines within 15 degrees of square to the
    row, so that an edge broken by the index glyphs beside it still collects its votes.  A card edge
    then shows all along its length — a step in brightness (its shadow) or a thin grey line (its cut
    edge) — while a column of pips only shows where the pips are: lines with too little of their
    length showing an edge are dropped.
    """
    smooth = cv2.GaussianBlur(patch, (5, 5), 1.0)
    edges = cv2.Canny(smooth, ROW_CANNY[0], ROW_CANNY[1])
    inner = cv2.erode(mask, np.ones((5, 5), np.uint8))
    edges[inner == 0] = 0
    votes = int(ROW_EDGE_VOTES * height)
    spread = np.deg2rad(15)
    found = []
    for lo, hi in ((0.0, spread), (np.pi - spread, np.pi)):
        lines = cv2.HoughLinesWithAccumulator(edges, 1, np.pi / 180, votes, min_theta=lo, max_theta=hi)
        if lines is not None:
            found.extend(lines.reshape(-1, 3).tolist())
    ph, pw = patch.shape
    mid = ph / 2
    rows_in = np.nonzero(inner.max(axis=1))[0]
    if len(rows_in) < 4:
        return []
    ys = np.arange(rows_in[0], rows_in[-1] + 1)
    if not found:
        return []
    params = np.array(found, np.float64)
    cos, sin = np.cos(params[:, 1]), np.sin(params[:, 1])
    x_mid, tilt = (params[:, 0] - mid * sin) / cos, -sin / cos
    # Near-identical lines from one edge: keep the best voted within a few pixels (by x at mid-height).
    order = np.argsort(-params[:, 2], kind="stable")
    _, first = np.unique(np.round(x_mid[order] / 3.0), return_index=True)
    chosen = order[np.sort(first)[:ROW_MAX_LINES]]
    x_mid, tilt = x_mid[chosen], tilt[chosen]
    xs = np.round(x_mid[:, None] + (ys[None, :] - mid) * tilt[:, None]).astype(np.int64)   # L x Y
    yy = np.broadcast_to(ys[None, :], xs.shape)
    valid = (xs >= 3) & (xs < pw - 3)
    xc = np.clip(xs, 3, pw - 4)
    valid &= inner[yy, xc] > 0
    values = smooth.astype(np.int16)
    left, right = values[yy, xc - 3], values[yy, xc + 3]
    centre = np.minimum(np.minimum(values[yy, xc - 1], values[yy, xc]), values[yy, xc + 1])
    edgeness = np.maximum(np.abs(left - right), np.minimum(left, right) - centre)
    marked = (edgeness > ROW_EDGE_STEP) & valid
    showing = marked.sum(axis=1) / max(len(ys), 1)
    # A card edge runs right across, through the white margins; a column of pips or a picture's
    # frame stops short of them.
    count = marked.shape[1]
    first = np.where(marked.any(axis=1), marked.argmax(axis=1), count)
    last = np.where(marked.any(axis=1), count - 1 - marked[:, ::-1].argmax(axis=1), -1)
    reach = ROW_EDGE_REACH * height
    across = (first <= reach) & (last >= count - 1 - reach)
    lines = [CrossingLine(float(x), float(t), float(c) * height) for x, t, c, n, a in
             zip(x_mid, tilt, showing, valid.sum(axis=1), across)
             if c >= ROW_EDGE_CONTINUITY and n >= 0.5 * height and a]
    lines.sort(key=lambda line: -line.support)
    kept: list[CrossingLine] = []
    for line in lines:  # one edge gives several near-identical lines: keep the best supported
        if all(abs(line.x - k.x) >= 0.08 * height for k in kept):
            kept.append(line)
    return sorted(kept)
