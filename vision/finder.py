"""Find card-shaped things in a frame: whole cards, and cards half covered in an overlapping row.

Finding works on a copy shrunk to WORK_WIDTH pixels across (speed); the quads it returns are in the
full frame's pixels, for the index crop to cut at full resolution.  Two cues mark a card against any
table: its face is brighter than the table around it (found by comparing with a local mean, which
copes with coloured, dark and textured tables and uneven light), and its outline is a closed loop of
edges (which copes with a light table where the brightness differs little).  A blob that is one
card-shaped quad is a card; a long blob is split into the cards of a row by the card edges that cross
it.  Backs, phones and paper may be proposed too: the classifier rejects them.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

WORK_WIDTH = 640
# Card long side in the frame, as a share of the frame's shorter side.
MIN_CARD_SHARE, MAX_CARD_SHARE = 0.08, 0.6
CARD_ASPECT = 0.7            # short / long side of a card when nothing better is known
ASPECT_RANGE = (0.5, 0.88)   # accepted short / long ratio of a fitted quad (decks and tilt vary)
BRIGHTER_BY = 1.06           # a card is this much brighter than the local mean of the table ...
BRIGHTER_PLUS = 5            # ... plus this many grey levels
ROW_EDGE_COVERAGE = 0.6      # share of a row's height a card edge crosses (pips and pictures: less)


@dataclass(frozen=True, eq=False)
class Candidate:
    """A card-shaped region the classifier should read.

    quads: the card's whole-card quad (4x2 float32, full-frame pixels, clockwise) in each ordering
    worth reading, best first; each starts at an index corner (a corner whose clockwise next side is
    a short side).  A lone card has two (its two index corners); a card covered in a row only the one
    that shows.  quad: quads[0].  covered: part of the card lies under another card (in a row).
    score: how card-like the shape is (0..1).
    """

    quads: tuple[np.ndarray, ...]
    covered: bool = False
    score: float = 1.0

    @property
    def quad(self) -> np.ndarray:
        return self.quads[0]


def find_cards(image: np.ndarray) -> list[Candidate]:
    """Every card-like region of a BGR frame, as Candidates in full-frame pixels."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else image
    chan = _whiteness(small)
    sh, sw = chan.shape
    short = min(sh, sw)
    lo_side, hi_side = MIN_CARD_SHARE * short, MAX_CARD_SHARE * short
    found: list[tuple[np.ndarray, bool, float, np.ndarray | None]] = []
    blobs = _bright_blobs(chan, lo_side) + _edge_loops(chan, lo_side)
    fitted = [(contour, *_fit_card(contour, lo_side, hi_side)) for contour in blobs]
    typical = _typical_size([_to_full(q, scale) for _, q, _ in fitted if q is not None])
    for contour, quad, score in fitted:
        row = _split_row(image, _to_full(contour.reshape(-1, 2).astype(np.float32), scale), typical,
                         lo_side / scale, hi_side / scale)
        if len(row) >= 2:
            found.extend((q, covered, 0.6, shown) for q, covered, shown in row)
        elif quad is not None:
            found.append((_snap_to_edges(image, _to_full(quad, scale)), False, score, None))
    return [Candidate(tuple(q.astype(np.float32) for q in _index_orderings(quad, shown)), covered, float(score))
            for quad, covered, score, shown in _suppress(found)]


def _to_full(points: np.ndarray, scale: float) -> np.ndarray:
    """Working-resolution pixel coordinates to full-frame ones (pixel centres at integers in both)."""
    return (points + 0.5) / scale - 0.5


def _snap_to_edges(image: np.ndarray, quad: np.ndarray, samples: int = 16) -> np.ndarray:
    """Move each side of a full-frame quad onto the strongest edge across it, then re-intersect.

    Finding at reduced resolution leaves corners a pixel or two off; this looks at full resolution
    along a few short lines across each side and fits a line through the edge found on each.
    """
    sides = _sides(quad)
    reach = float(np.clip(0.06 * sides.mean(), 4.0, 14.0))
    offsets = np.arange(-reach, reach + 0.01, 0.5, dtype=np.float32)
    t = np.linspace(0.12, 0.88, samples, dtype=np.float32)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = (b - a) / max(sides[i], 1e-6)
        normal = np.float32([d[1], -d[0]])  # outward for a clockwise quad on screen
        base = a[None, :] + (b - a)[None, :] * t[:, None]
        pts = base[:, None, :] + normal[None, None, :] * offsets[None, :, None]
        sampled = cv2.remap(image, pts[:, :, 0], pts[:, :, 1], cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        value = sampled.min(axis=2) if sampled.ndim == 3 else sampled
        value = cv2.GaussianBlur(value, (3, 1), 0)
        # The card's edge is where its white face gives way, going outwards, to anything darker
        # (table, shadow, the card's own grey cut edge): the outermost strong fall in brightness.
        fall = np.maximum(-np.diff(value, axis=1), 0)
        peak = fall.max(axis=1, keepdims=True)
        strong = (fall >= 0.5 * peak) & (peak > 6)
        best = strong.shape[1] - 1 - np.argmax(strong[:, ::-1], axis=1)
        ok = strong.any(axis=1)
        if ok.sum() < samples // 3:
            lines.append((a, d))
            continue
        shift = (offsets[best] + offsets[best + 1]) / 2
        edge = base + normal[None, :] * shift[:, None]
        vx, vy, x0, y0 = cv2.fitLine(edge[ok], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    return _intersect(lines, quad)


def _intersect(lines, fallback: np.ndarray) -> np.ndarray:
    """Corners where consecutive side lines (point, direction) meet; fallback if any are parallel."""
    out = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return fallback
        k = np.linalg.solve(m, q - p)
        out.append(p + k[0] * u)
    result = np.float32(out)
    limit = 0.1 * float(np.hypot(*(fallback[1] - fallback[0]))) + 4
    return result if np.abs(result - fallback).max() < limit else fallback


def _whiteness(small: np.ndarray) -> np.ndarray:
    """The darkest channel: high on white card faces, lower on any coloured or dark table."""
    if small.ndim == 2:
        return small
    b, g, r = cv2.split(small)
    return cv2.min(cv2.min(b, g), r)


def _bright_blobs(chan: np.ndarray, lo_side: float) -> list[np.ndarray]:
    """Outlines of regions brighter than the surrounding table (local mean over ~a card's size)."""
    k = int(max(31, 2 * lo_side * 3)) | 1
    mean = cv2.blur(chan, (k, k))
    limit = cv2.convertScaleAbs(mean, alpha=BRIGHTER_BY, beta=BRIGHTER_PLUS)
    mask = cv2.compare(chan, limit, cv2.CMP_GT)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = 0.5 * CARD_ASPECT * lo_side * lo_side
    return [c for c in contours if cv2.contourArea(c) > min_area]


def _edge_loops(chan: np.ndarray, lo_side: float) -> list[np.ndarray]:
    """Outlines of closed loops of edges: cards on a table about as light as they are."""
    blurred = cv2.GaussianBlur(chan, (5, 5), 1.2)
    edges = cv2.Canny(blurred, 20, 50)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = 0.5 * CARD_ASPECT * lo_side * lo_side
    return [c for c in contours if cv2.contourArea(c) > min_area]


def _quad_from_hull(contour: np.ndarray) -> np.ndarray | None:
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
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        if length < 1:
            return quad
        u = d / length
        rel = points - a
        along = rel @ u
        across = np.abs(rel @ np.array([-u[1], u[0]]))
        near = points[(across < max(2.0, 0.04 * length)) & (along > 0.15 * length) & (along < 0.85 * length)]
        if len(near) < 4:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = []
    for i in range(4):
        (p, u), (q, v) = lines[i - 1], lines[i]
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        t = np.linalg.solve(m, q - p)
        out.append(p + t[0] * u)
    refined = np.float32(out)
    return refined if np.abs(refined - quad).max() < 0.15 * np.hypot(*(quad[1] - quad[0])) + 3 else quad


def _densify(contour: np.ndarray) -> np.ndarray:
    """Outline points every pixel or so (CHAIN_APPROX_SIMPLE keeps only the ends of straight runs)."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    nxt = np.roll(pts, -1, axis=0)
    out = [pts]
    for frac in (0.25, 0.5, 0.75):
        out.append(pts + (nxt - pts) * frac)
    seg = np.hypot(*(nxt - pts).T)
    long = seg > 8
    if long.any():
        for k in range(1, 16):
            out.append((pts + (nxt - pts) * (k / 16))[long])
    return np.concatenate(out)


def _sides(quad: np.ndarray) -> np.ndarray:
    return np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)


def _fit_card(contour: np.ndarray, lo_side: float, hi_side: float) -> tuple[np.ndarray | None, float]:
    """The card quad (clockwise) if the outline is one card; else (None, 0)."""
    quad = _quad_from_hull(contour)
    if quad is None:
        return None, 0.0
    quad = _clockwise(_refine(quad, _densify(contour)))
    sides = _sides(quad)
    long_side, short_side = max(sides[0] + sides[2], sides[1] + sides[3]) / 2, \
        min(sides[0] + sides[2], sides[1] + sides[3]) / 2
    if not lo_side <= long_side <= hi_side:
        return None, 0.0
    ratio = short_side / long_side
    if not ASPECT_RANGE[0] <= ratio <= ASPECT_RANGE[1]:
        return None, 0.0
    if min(sides[0], sides[2]) / max(sides[0], sides[2]) < 0.8 or \
            min(sides[1], sides[3]) / max(sides[1], sides[3]) < 0.8:
        return None, 0.0
    quad_area = cv2.contourArea(quad)
    fill = cv2.contourArea(contour) / max(quad_area, 1.0)
    if fill < 0.85 or fill > 1.1:
        return None, 0.0
    return quad, float(min(1.0, fill))


def _clockwise(quad: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise on screen (y down), starting from the one nearest the top-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0)


def _typical_size(quads: list[np.ndarray]) -> tuple[float, float] | None:
    """Median (long side, short side) of the whole cards found: the size of covered ones too."""
    if not quads:
        return None
    sides = np.array([sorted([(s[0] + s[2]) / 2, (s[1] + s[3]) / 2]) for s in map(_sides, quads)])
    return float(np.median(sides[:, 1])), float(np.median(sides[:, 0]))


def _split_row(image: np.ndarray, outline: np.ndarray, typical: tuple[float, float] | None,
               lo_side: float, hi_side: float) -> list[tuple[np.ndarray, bool, np.ndarray]]:
    """Cards of an overlapping row: (quad, covered, a point of the part that shows) for each.

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
    if rw * rh <= 0 or area / (rw * rh) < 0.7 or not lo_side * 0.5 <= rh <= hi_side or rw > 12 * rh:
        return []
    aspect = typical[0] / typical[1] if typical else CARD_ASPECT
    options = [(h, rh * aspect if h else rh / aspect) for h in (True, False)]
    options = [(h, e) for h, e in options if rw >= 1.2 * e]
    if not options:
        return []
    pad = 6
    pw, ph = int(rw) + 2 * pad, int(rh) + 2 * pad
    rot = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    rot[:, 2] += (pw / 2 - cx, ph / 2 - cy)
    patch = _whiteness(cv2.warpAffine(image, rot, (pw, ph), flags=cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE))
    mpatch = np.zeros((ph, pw), np.uint8)
    cv2.fillPoly(mpatch, [np.round(cv2.transform(outline[None], rot)[0]).astype(np.int32)], 255)
    cols = np.nonzero(mpatch.max(axis=0))[0]
    rows = np.nonzero(mpatch.max(axis=1))[0]
    if len(cols) < 8 or len(rows) < 8:
        return []
    start, end = float(cols[0]), float(cols[-1] + 1)
    top, bottom = float(rows[0]), float(rows[-1] + 1)
    edges = _crossing_lines(patch, mpatch, rh)
    best = None
    for horizontal, expected in options:
        inner = [e for e in edges if start + 0.15 * expected < e[0] < end - 0.15 * expected]
        if not inner:
            continue
        for forward in (True, False):
            measured = end - inner[-1][0] if forward else inner[0][0] - start
            error = abs(np.log(max(measured, 1.0) / expected))
            if error < np.log(1.3) and (best is None or error < best[0]):
                best = (error, forward, measured, inner)
    if best is None:
        return []
    _, forward, along, inner = best
    # Each line: (x at mid-height, dx per unit y); the row's two outer ends are plain vertical lines.
    lines = [(start, 0.0)] + [(x, t) for x, t, _ in inner] + [(end, 0.0)]
    sign = 1.0 if forward else -1.0
    near = lines[:-1] if forward else lines[1:]
    mid = (top + bottom) / 2
    inverse = cv2.invertAffineTransform(rot)
    cards = []
    for i, (x, tilt) in enumerate(near):
        is_top = (i == len(near) - 1) if forward else (i == 0)
        if is_top:
            x = end - along if forward else start + along
            tilt = lines[-2][1] if forward and len(lines) > 2 else (lines[1][1] if len(lines) > 2 else 0.0)
        half = (bottom - top) / 2
        # Near side along the line, far side one card length away, square to it.
        norm = np.hypot(tilt, 1.0)
        up = np.array([tilt, 1.0]) / norm           # along the line, downwards
        out = np.array([1.0, -tilt]) / norm * sign  # across the line, the way the card lies
        centre_near = np.array([x, mid])
        near_a, near_b = centre_near - up * half, centre_near + up * half
        far_a, far_b = near_a + out * along, near_b + out * along
        quad = np.float32([near_a, far_a, far_b, near_b]) - 0.5
        quad = cv2.transform(quad[None], inverse)[0]
        shown_at = centre_near + out * min(along, 0.25 * along if not is_top else 0.5 * along)
        shown = cv2.transform(np.float32([[shown_at - 0.5]]), inverse)[0, 0]
        cards.append((_clockwise(quad), not is_top, shown))
    return cards


def _crossing_lines(patch: np.ndarray, mask: np.ndarray, height: float) -> list[tuple[float, float, float]]:
    """Straight edges crossing most of a row's height: (x at mid-height, dx/dy, length), by x."""
    edges = cv2.Canny(cv2.GaussianBlur(patch, (5, 5), 1.0), 20, 45)
    edges[cv2.erode(mask, np.ones((5, 5), np.uint8)) == 0] = 0
    found = cv2.HoughLinesP(edges, 1, np.pi / 180, threshold=int(0.35 * height),
                            minLineLength=int(ROW_EDGE_COVERAGE * height), maxLineGap=int(0.08 * height) + 2)
    if found is None:
        return []
    mid = patch.shape[0] / 2
    lines = []
    for x1, y1, x2, y2 in found.reshape(-1, 4).astype(np.float64):
        if abs(y2 - y1) < 1 or abs(x2 - x1) > 0.27 * abs(y2 - y1):  # within 15 degrees of across
            continue
        tilt = (x2 - x1) / (y2 - y1)
        lines.append((x1 + (mid - y1) * tilt, tilt, float(np.hypot(x2 - x1, y2 - y1))))
    lines.sort()
    merged: list[tuple[float, float, float]] = []
    for line in lines:  # one edge gives several near-identical segments: keep the longest
        if merged and line[0] - merged[-1][0] < 0.06 * height:
            if line[2] > merged[-1][2]:
                merged[-1] = line
        else:
            merged.append(line)
    return merged


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return float(inter / union) if union > 0 else 0.0


def _suppress(found: list) -> list:
    """Drop duplicates (the same card from both cues): keep the best-scored of quads that overlap much."""
    kept: list = []
    for item in sorted(found, key=lambda f: -f[2]):
        if all(_iou(item[0], k[0]) < 0.7 for k in kept):
            kept.append(item)
    return kept


def _index_orderings(quad: np.ndarray, exposed: np.ndarray | None) -> list[np.ndarray]:
    """The quad started at each of its two index corners (clockwise next side short), the one nearest
    the exposed point first; a covered card gets only that one."""
    sides = _sides(quad)
    first = 0 if sides[0] + sides[2] <= sides[1] + sides[3] else 1
    a, b = np.roll(quad, -first, axis=0), np.roll(quad, -(first + 2), axis=0)
    if exposed is None:
        return [a, b]

    def index_centre(q: np.ndarray) -> np.ndarray:
        return q[0] + 0.14 * (q[1] - q[0]) + 0.18 * (q[3] - q[0])
    near_a = np.hypot(*(index_centre(a) - exposed))
    near_b = np.hypot(*(index_centre(b) - exposed))
    return [a] if near_a <= near_b else [b]
