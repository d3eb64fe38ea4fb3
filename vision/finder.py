"""Find card-shaped things in a frame: whole cards, and cards half covered in an overlapping row.

Finding works on a copy shrunk to WORK_WIDTH pixels across (speed); the quads it returns are in the
full frame's pixels, for the index crop to cut at full resolution.  Two cues mark a card against any
table: its face is brighter than the table around it (found by comparing with a local mean, which
copes with coloured, dark and textured tables and uneven light), and its outline is a closed loop of
edges (which copes with a light table where the brightness differs little).  A blob that is one
card-shaped quad is a card; a long blob is split into the cards of a row by the straight card edges
that cross it.  Of the ways a row may have been laid (which way, where the top card ends), the one
whose covered cards show an index (a rank over a suit) at the corner it puts them is preferred, each
covered card's corner fitted to the edges beside it; a covered card showing none is not proposed, as
a misplaced outline would be read as another card.  A whole card is kept only if its sides,
snapped to the full-resolution edges, show an edge nearly all round, its corners are nearly square
and its margin differs in tone from the table outside: table texture is not proposed; a lone card's
sides must also lie straight on those edges (an outline round a shadow's far side or a court card's
frame does not).  Where two cues outline one card differently (a blob by brightness cutting off a
faint margin), the outline whose sides lie straightest on the edges is kept.  Backs, phones and
paper may be proposed too: the classifier rejects them.  The bright patches of about a card's size
are reported too, outlined or not (find_cards_and_patches): the index-corner detector reads again,
enlarged, those no card explains (vision.corners).  Where the detector has measured the frame's card
length, a card-shaped blob of that length is taken for one card without looking for a row in it (a
short row with a card's outline holds cards as long as its short side): nearly half the finder's
time went on that look, and a court card's picture frame could be taken for a row's edges.

Known limits: a light, grey table under grey-faced cards, blurred above all (their snapped sides
seldom lie straight: they go unproposed rather than misplaced); rows whose card edges are too faint
to see (white on white with the shadow on the far side); blobs running out of view across the frame;
short rows, which read about as well laid either way (the top card shows both its indices).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.crops import card_to_image

WORK_WIDTH = 640
# Card long side in the frame, as a share of the frame's shorter side.
MIN_CARD_SHARE, MAX_CARD_SHARE = 0.08, 0.9
CARD_ASPECT = 0.7            # short / long side of a card when nothing better is known
ASPECT_RANGE = (0.56, 0.86)  # accepted short / long ratio of a fitted quad (decks and tilt vary)
BRIGHTER_BY = (1.06, 1.2)     # a card is this much brighter than the local mean of the table ...
BRIGHTER_PLUS = 5            # ... plus this many grey levels
EDGE_MIN_FALL = 6            # grey levels a card's edge falls by over a pixel, going outwards ...
MIN_EDGE_SUPPORT = 0.4       # ... along at least this share of its outline
SNAP_INWARD, SNAP_OUTWARD = 1.5, 2.0  # edge snapping looks this many reaches in and out from a side
MAX_SKEW = 14.0             # degrees a whole card's corners may depart from square
MIN_STRAIGHT = 0.4           # share of each side of a lone card lying on one straight edge once snapped
MIN_FACE_CONTRAST = 4        # a card's margin differs at least this much from the table around it
ROW_EDGE_VOTES = 0.25        # edge pixels on a line crossing a row, per unit of its height
ROW_EDGE_STEP = 6            # grey levels of step or dip that mark a card edge at one point ...
ROW_EDGE_CONTINUITY = 0.5    # ... along at least this share of the row's height
ROW_EDGE_REACH = 0.12        # ... and reach to within this share of the row's height of both sides
ROW_MIN_FILL = 0.7           # a row fills this much of its bounding rectangle (cards askew fill less)
ROW_MAX_LINES = 40           # crossing-line candidates examined per row
ROW_SPACING_WEIGHT = 1.0     # penalty per unit of |log(gap / median gap)| between a row's card edges
ROW_MIN_STEP = 0.28          # cards in a row are laid at least this share of a card length apart
ROW_INDEX_WEIGHT = 3.0       # weight of the share of covered cards showing print at their index corner
ROW_TOP_CHOICES = 2          # lines near where the top card's edge should be, each tried as that edge
ROW_SIZE_SLACK = 0.35        # |log| of a row card's short side over the lone cards' beyond which it is no row
ONE_CARD_LONG = 0.1          # a card-shaped blob whose long side is within this |log| of the frame's card
ROW_CARD_OFF = 0.2           # length (where known), and whose short side is at least this far off it, is one
#                              card: not checked for a row (whose cards would be as long as its short side)
ROW_CANNY = (10, 30)         # edge thresholds inside a row: a white card edge on a white card is faint
PATCH_MIN = 0.5              # a bright patch (find_cards_and_patches) spans at least this share of the
#                              smallest card's long side (a card's face cut by shade or glare is smaller),
PATCH_ASPECT = 0.4           # and its box is at least this share as wide as long (a card's, however
#                              turned, over 0.55; a stripe of the cloth far less)

# A quad's corners taken from each corner on, as np.roll(quad, -k, axis=0) would, by indexing (a
# tenth of the cost: quads are turned some hundred times a frame).
_FROM = np.array([[(k + i) % 4 for i in range(4)] for k in range(4)])
_NEXT, _PREVIOUS = _FROM[1], _FROM[3]


@dataclass(frozen=True, eq=False)
class Candidate:
    """A card-shaped region the classifier should read.

    quads: the card's whole-card quad (4x2 float32, full-frame pixels, clockwise) in each ordering
    worth reading, best first; each starts at an index corner (a corner whose clockwise next side is
    a short side).  A lone card has two (its two index corners); a card covered in a row only the one
    that shows.  quad: quads[0].  covered: part of the card lies under another card (in a row).
    score: how card-like the shape is (0..1).  by_corner: found by the index-corner detector
    (vision.corners), not by its outline.
    """

    quads: tuple[np.ndarray, ...]
    covered: bool = False
    score: float = 1.0
    by_corner: bool = False

    @property
    def quad(self) -> np.ndarray:
        return self.quads[0]


def find_cards(image: np.ndarray, card_length: float | None = None) -> list[Candidate]:
    """Every card-like region of a BGR frame, as Candidates in full-frame pixels (card_length: see
    find_cards_and_patches)."""
    return find_cards_and_patches(image, card_length)[0]


def find_cards_and_patches(image: np.ndarray, card_length: float | None = None) \
        -> tuple[list[Candidate], list[tuple[float, float, float, float]]]:
    """The Candidates (find_cards), and the boxes (x0, y0, x1, y1, full-frame pixels) of the patches
    clearly brighter than the table round them and about a card's size, whether or not a card was
    fitted to them: on a fine check cloth a card's bright face frays into the cloth's light squares,
    too ragged for a card's outline, and the index-corner detector may still find it read enlarged
    (vision.corners).

    card_length: the long side of this frame's cards in full-frame pixels, where something else has
    measured it (the index-corner detector's sure corners): a card-shaped blob of that length is one
    card, and the row check, nearly half the finder's time, is spared it (`_one_card`)."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else image
    chan = _whiteness(small)
    sh, sw = chan.shape
    short = min(sh, sw)
    lo_side, hi_side = MIN_CARD_SHARE * short, MAX_CARD_SHARE * short
    found: list[tuple[np.ndarray, bool, float, np.ndarray | None, int]] = []
    mean = _local_mean(chan, lo_side)
    cues = [_bright_blobs(chan, mean, lo_side, by) for by in BRIGHTER_BY] + [_edge_loops(chan, lo_side)]
    patches = [_to_full_box(contour, scale) for contour in cues[len(BRIGHTER_BY) - 1]
               if _patch_sized(contour, lo_side, hi_side)]
    fit = _CardFits(lo_side, hi_side)
    blobs, others = _distinct(cues, fit)
    keep = [i for i, c in enumerate(blobs) if not _runs_out_of_view(c, chan.shape)]
    alternates: dict[int, tuple] = {}  # id of a lone card's quad: (other outlines, its working quad)
    analysed = []
    for b in keep:
        contour = blobs[b]
        quad, score = fit(contour)
        full = None if quad is None else _to_full(quad, scale)
        if full is not None and b in others:
            alternates[id(full)] = (others[b], quad)
        outline = _to_full(contour.reshape(-1, 2).astype(np.float32), scale)
        # A card-shaped blob is seldom a row, and one of the frame's card length is none: its row
        # reading is checked in full only if it is one.
        if full is not None and card_length is not None and _one_card(full, card_length):
            row = []
        else:
            row = _split_row(image, outline, lo_side / scale, hi_side / scale, verify=quad is None)
        analysed.append((full, score, row if len(row) >= 2 else [], outline))
    # Cards that can only be single cards tell the size of every card in this frame.
    typical = typical_size([q for q, _, row, _ in analysed if q is not None and not row])
    fallback: dict[int, tuple[np.ndarray, float]] = {}  # the single-card reading of a row's blob
    for group, (quad, score, row, outline) in enumerate(analysed):
        if row and quad is not None:  # one card with lines across it, or a row shaped like a card?
            if typical is not None:
                # Sized as one card by its snapped outline: an edge loop takes in the card's shadow.
                snapped, support = _snap_to_edges(image, quad)
                single = snapped if support >= MIN_EDGE_SUPPORT else quad
                as_row = _size_gap(typical_size([q for q, *_ in row]), typical) < \
                    _size_gap(typical_size([single]), typical)
                row = _split_row(image, outline, lo_side / scale, hi_side / scale) if as_row else []
            else:
                row = _split_row(image, outline, lo_side / scale, hi_side / scale)
                as_row = len(row) >= 3
            row = row if as_row and len(row) >= 2 else []
        elif row and typical is not None and \
                abs(np.log(typical_size([q for q, *_ in row])[1] / typical[1])) > ROW_SIZE_SLACK:
            row = []  # a card with lines across whose outline is not card-shaped (merged with its shadow)
        if row:
            found.extend((q, covered, 0.6, shown, group) for q, covered, shown, ok in row if ok or not covered)
            if quad is not None:
                fallback[group] = (quad, score)
        elif quad is not None:
            found.append((quad, False, score, None, group))
    kept = _suppress(found)
    # Whole cards (lone, or on top of a row) must show a card's edge all round and a margin of another
    # tone than the table; a row whose top card does not is texture, and all its cards go.
    whole: dict[int, np.ndarray] = {}
    rejected: set[int] = set()
    # A lone card's snapped sides must lie straight on its edges: an outline off the card (a shadow's
    # far side, a court card's frame) seldom does.  A row's top card meets the card under it in a
    # faint edge, and is spared.
    rows = {group for _, covered, _, _, group in kept if covered}
    for i, (quad, covered, _, _, group) in enumerate(kept):
        if covered:
            continue
        snapped = _best_snap(image, quad, alternates.get(id(quad)), fit, scale,
                             0.0 if group in rows else MIN_STRAIGHT)
        if snapped is not None:
            whole[i] = snapped
        else:
            rejected.add(group)
    out = []
    for i, (quad, covered, score, shown, group) in enumerate(kept):
        if group in rejected or (not covered and i not in whole):
            continue
        quads = _index_orderings(whole[i], None) if i in whole else [quad]
        out.append(Candidate(tuple(q.astype(np.float32) for q in quads), covered, float(score)))
    # A blob read as a row that did not hold up may still be one card with lines across it.
    for group in sorted(rejected & fallback.keys()):
        quad, score = fallback[group]
        snapped = _best_snap(image, quad, None, fit, scale, MIN_STRAIGHT)
        if snapped is not None and all(_iou(snapped, c.quad) < 0.5 for c in out):
            out.append(Candidate(tuple(q.astype(np.float32) for q in _index_orderings(snapped, None)),
                                 False, float(score)))
    return out, patches


def _patch_sized(contour: np.ndarray, lo_side: float, hi_side: float) -> bool:
    """Whether a bright blob's box could hold a card's face, or most of it."""
    long, short = sorted(cv2.boundingRect(contour)[2:], reverse=True)
    return PATCH_MIN * lo_side <= long <= hi_side and short >= PATCH_ASPECT * long


def _to_full_box(contour: np.ndarray, scale: float) -> tuple[float, float, float, float]:
    """A working-resolution contour's bounding box (x0, y0, x1, y1) in full-frame pixels."""
    x, y, w, h = cv2.boundingRect(contour)
    (x0, y0), (x1, y1) = _to_full(np.float32([[x, y], [x + w, y + h]]), scale)
    return float(x0), float(y0), float(x1), float(y1)


def _best_snap(image: np.ndarray, quad: np.ndarray, alternates: tuple | None, fit: _CardFits,
               scale: float, min_straight: float = 0.0) -> np.ndarray | None:
    """The quad, or the card quad of another outline of the same card (alternates: those outlines and
    the quad at working size) whose sides lie straighter on edges, snapped to the card's edges; None
    if none shows an edge nearly all round and a margin of another tone than the table."""
    best, best_straight = None, -1.0
    for i in range(1 + (len(alternates[0]) if alternates else 0)):
        if best_straight >= 0.75:  # the sides already lie on the card's edges
            break
        if i:
            other = fit(alternates[0][i - 1])[0]
            if other is None or np.abs(_clockwise(other) - _clockwise(alternates[1])).max() <= 1.0:
                continue
            quad = _to_full(other, scale)
        snapped, support, straight = _snap(image, quad)
        if straight < 0.75:  # a side snapped onto its far edge often finds the near one from there
            again = _snap(image, snapped)
            if again[2] > straight:
                snapped, support, straight = again
        if straight > max(best_straight, min_straight - 1e-6) and support >= MIN_EDGE_SUPPORT and \
                _skew(snapped) <= MAX_SKEW and abs(_face_contrast(image, snapped)) >= MIN_FACE_CONTRAST:
            best, best_straight = snapped, straight
    return best


def _skew(quad: np.ndarray) -> float:
    """Largest departure of the quad's corner angles from square, in degrees: a card seen by a camera
    over the table stays nearly square (under 8 degrees in every rendered view), a patch of glare
    snapped to the grain of a wood table need not."""
    before, after = quad[_PREVIOUS] - quad, quad[_NEXT] - quad
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
    white = _whiteness(sampled)[0].astype(np.float32)
    return float(_median(white[:len(_MARGIN)]) - _median(white[len(_MARGIN):]))


def _median(values: np.ndarray):
    """np.median of a few values (1-D, not empty), the same number at a tenth of its cost: it runs
    on every side of every outline snapped, a few hundred times a frame."""
    ordered = np.sort(values)
    n = len(ordered)
    return (ordered[(n - 1) // 2] + ordered[n // 2]) / 2


def _to_full(points: np.ndarray, scale: float) -> np.ndarray:
    """Working-resolution pixel coordinates to full-frame ones (pixel centres at integers in both)."""
    return (points + 0.5) / scale - 0.5


def _snap_to_edges(image: np.ndarray, quad: np.ndarray, samples: int = 16) -> tuple[np.ndarray, float]:
    """The quad snapped to the card's edges, and the share of places showing an edge (see _snap)."""
    snapped, support, _ = _snap(image, quad, samples)
    return snapped, support


def _snap(image: np.ndarray, quad: np.ndarray, samples: int = 16) -> tuple[np.ndarray, float, float]:
    """Move each side of a full-frame quad onto the card's edge next to it, then re-intersect.

    Finding at reduced resolution leaves corners a pixel or two off; this samples the full frame along
    short lines across each side and fits a line through the edge found on each.  The edge is the
    outermost strong fall in brightness going outwards: white face to table, shadow or grey cut edge.
    Also returns the share of the sampled places where such an edge was found, and the least share,
    over the four sides, of places whose edge lies on the side's straight line (a side cut short by
    a faint margin, or drawn across the face, has few).
    """
    sides = _sides(quad)
    # Look further outwards than inwards: a blob found by brightness often misses the card's
    # shaded side, and the edge lies outside it.  Yet an edge loop may run round the far side of a
    # card's shadow, a reach and more outside its edge, on a light table above all.
    reach = float(np.clip(0.06 * sides.mean(), 4.0, 14.0))
    offsets = np.arange(-SNAP_INWARD * reach, SNAP_OUTWARD * reach + 0.01, 0.5, dtype=np.float32)
    t = np.linspace(0.12, 0.88, samples, dtype=np.float32)
    a = quad
    b = quad[_NEXT]
    d = (b - a) / np.maximum(sides, 1e-6)[:, None]
    normal = np.stack([d[:, 1], -d[:, 0]], axis=1)  # outward for a clockwise quad on screen
    base = a[:, None, :] + (b - a)[:, None, :] * t[None, :, None]                      # 4 x S x 2
    pts = base[:, :, None, :] + normal[:, None, None, :] * offsets[None, None, :, None]  # 4 x S x O x 2
    pts = pts.reshape(4 * samples, len(offsets), 2)
    sampled = cv2.remap(image, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    value = _whiteness(sampled).astype(np.float32)
    value = cv2.GaussianBlur(value, (3, 1), 0)
    fall = np.maximum(value[:, :-2] - value[:, 2:], 0)  # over one pixel (samples are half a pixel apart)
    peak = fall.max(axis=1, keepdims=True)
    strong = (fall >= 0.5 * peak) & (peak > EDGE_MIN_FALL)
    best = strong.shape[1] - 1 - np.argmax(strong[:, ::-1], axis=1)
    ok = strong.any(axis=1).reshape(4, samples)
    shift = offsets[best + 1].reshape(4, samples)
    edge = base + normal[:, None, :] * shift[:, :, None]
    support = float(ok.mean())
    lines = []
    straight = 1.0
    for i in range(4):
        # The card's edge is straight: keep the samples that agree with the median shift (a glyph
        # or a shadow beside the edge moves a few samples elsewhere), and fit only those.
        agree = ok[i] & (np.abs(shift[i] - (_median(shift[i][ok[i]]) if ok[i].any() else 0.0)) <= 1.5)
        straight = min(straight, float(agree.mean()))
        if agree.sum() < samples // 2:
            lines.append((a[i], d[i]))
            continue
        vx, vy, x0, y0 = cv2.fitLine(edge[i][agree], cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    return _intersect(lines, quad), support, straight


def _intersect(lines, fallback: np.ndarray, *, slack: float = 0.1, pad: float = 4) -> np.ndarray:
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


def _distinct(cues: list[list[np.ndarray]],
              fit: _CardFits) -> tuple[list[np.ndarray], dict[int, list[np.ndarray]]]:
    """One outline per object, from several cues that usually outline the same card.

    An outline overlapping an earlier cue's is the same object; it replaces it only where the
    earlier one is not card-shaped and it is (a card merged with a bright stripe of the cloth at a
    low threshold stands alone at a higher one; on a light table the edge loop is often the best).
    Also returns, per outline kept that is card-shaped, the other outlines of the same object: a blob by
    brightness may cut off a faint margin where the edge loop has the whole card, or the reverse.
    """
    kept = list(cues[0])
    boxes = [cv2.boundingRect(c) for c in kept]
    fits: dict[int, bool] = {}
    others: dict[int, list[np.ndarray]] = {}
    for cue in cues[1:]:
        for outline in cue:
            box = cv2.boundingRect(outline)
            twin = next((i for i, other in enumerate(boxes) if _box_iou(box, other) > 0.6), None)
            if twin is None:
                kept.append(outline)
                boxes.append(box)
                continue
            if twin not in fits:
                fits[twin] = fit(kept[twin])[0] is not None
            same_size = cv2.contourArea(outline) >= 0.7 * cv2.contourArea(kept[twin])  # not a piece of it
            if not same_size:
                continue
            if fits[twin]:
                others.setdefault(twin, []).append(outline)
            elif fit(outline)[0] is not None:
                kept[twin], boxes[twin], fits[twin] = outline, box, True
    return kept, others


def _runs_out_of_view(contour: np.ndarray, shape: tuple[int, int]) -> bool:
    """Touches the frame's edge and spans most of the frame: a stripe or fold of the cloth."""
    x, y, w, h = cv2.boundingRect(contour)
    touches = x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]
    return touches and (w >= 0.8 * shape[1] or h >= 0.8 * shape[0])


def _box_iou(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / float(a[2] * a[3] + b[2] * b[3] - inter)


def _whiteness(pixels: np.ndarray) -> np.ndarray:
    """The darkest channel (a grey image as it is): high on white card faces, lower on any coloured
    or dark table. Of a frame, and of pixels sampled along a card's sides: numpy's min over a last
    axis of three takes ten times as long as OpenCV's split, and this runs on every side snapped."""
    if pixels.ndim == 2:
        return pixels
    b, g, r = cv2.split(pixels)
    return cv2.min(cv2.min(b, g), r)


def _local_mean(chan: np.ndarray, lo_side: float) -> np.ndarray:
    """The table's brightness round each pixel: its mean over about a card's size."""
    k = int(max(31, 2 * lo_side * 3)) | 1
    return cv2.blur(chan, (k, k))


def _bright_blobs(chan: np.ndarray, mean: np.ndarray, lo_side: float, brighter_by: float) -> list[np.ndarray]:
    """Outlines of regions brighter than the surrounding table (its local mean, `_local_mean`)."""
    limit = cv2.convertScaleAbs(mean, alpha=brighter_by, beta=BRIGHTER_PLUS)
    mask = cv2.compare(chan, limit, cv2.CMP_GT)
    # Close first: an index printed near the card's edge leaves only a sliver of white outside it,
    # which opening alone would cut off, and the card's corner with it.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = 0.5 * CARD_ASPECT * lo_side * lo_side
    return [c for c in contours if cv2.contourArea(c) > min_area]


def _edge_loops(chan: np.ndarray, lo_side: float) -> list[np.ndarray]:
    """Outlines of closed loops of edges: cards on a table about as light as they are."""
    blurred = cv2.GaussianBlur(chan, (5, 5), 1.2)
    edges = cv2.Canny(blurred, 20, 50)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
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
    steps = quad[_NEXT] - quad
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
    return _intersect(lines, quad, slack=0.15, pad=3)


def _sides(quad: np.ndarray) -> np.ndarray:
    step = quad[_NEXT] - quad
    return np.hypot(step[:, 0], step[:, 1])


def _fit_card(contour: np.ndarray, lo_side: float, hi_side: float) -> tuple[np.ndarray | None, float]:
    """The card quad (clockwise) if the outline is one card; else (None, 0)."""
    quad = _quad_from_hull(contour)
    if quad is None:
        return None, 0.0
    quad = _clockwise(_refine(quad, contour.reshape(-1, 2).astype(np.float32)))
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
    # The quad joins points of the rounded corners, so it is a little smaller than the outline.
    area = cv2.contourArea(contour)
    fill = area / max(cv2.contourArea(quad), 1.0)
    solidity = area / max(cv2.contourArea(cv2.convexHull(contour)), 1.0)
    if not 0.85 <= fill <= 1.2 or solidity < 0.88:
        return None, 0.0
    return quad, float(solidity)


class _CardFits:
    """_fit_card of one frame's outlines, each worked out once: _distinct, the blob loop and
    _best_snap ask about the same outlines (about a third of a frame's fits were repeats)."""

    def __init__(self, lo_side: float, hi_side: float):
        self.lo_side, self.hi_side = lo_side, hi_side
        self._done: dict[int, tuple[np.ndarray, tuple[np.ndarray | None, float]]] = {}

    def __call__(self, contour: np.ndarray) -> tuple[np.ndarray | None, float]:
        # Keyed by identity: the outline is held here too, so its id is not reused within the frame.
        key = id(contour)
        if key not in self._done:
            self._done[key] = (contour, _fit_card(contour, self.lo_side, self.hi_side))
        return self._done[key][1]


def _clockwise(quad: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise on screen (y down), starting from the one nearest the top-left."""
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(axis=1)))
    return quad[_FROM[start]]


def _one_card(quad: np.ndarray, card_length: float) -> bool:
    """Whether a card-shaped outline is one card of the frame's length, and not a short row shaped
    like a card: a row's cards lie across it, as long as its short side."""
    long, short = typical_size([quad])
    return abs(math.log(long / card_length)) <= ONE_CARD_LONG and \
        abs(math.log(short / card_length)) >= ROW_CARD_OFF


def _size_gap(size: tuple[float, float], typical: tuple[float, float]) -> float:
    """How far a card's (long, short) size is from the typical one, both sides counted: a court
    card's frame lines read as a row give cards as wide as the lone cards but far too short."""
    return abs(np.log(size[0] / typical[0])) + abs(np.log(size[1] / typical[1]))


def typical_size(quads: Sequence[np.ndarray]) -> tuple[float, float] | None:
    """Median (long side, short side) of these card outlines (None for none): in a frame, of the
    whole cards found, the size of covered ones too."""
    if not quads:
        return None
    sides = np.array([sorted([(s[0] + s[2]) / 2, (s[1] + s[3]) / 2]) for s in map(_sides, quads)])
    return float(np.median(sides[:, 1])), float(np.median(sides[:, 0]))


def _split_row(image: np.ndarray, outline: np.ndarray, lo_side: float, hi_side: float,
               verify: bool = True) -> list[tuple]:
    """Cards of an overlapping row: (quad, covered, a point of the part that shows, index seen) for each;
    a covered card's quad starts at the index corner that shows, fitted to the edges there.

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
    layouts = [(score, forward, along, inner) for _, expected in options for forward in (True, False)
               for score, along, inner in _lay_row(edges, start, end, expected, forward, rh)]
    layouts.sort(key=lambda layout: -layout[0])
    turned = cv2.transform(outline[None], rot)[0]
    geometry = (image, patch, mpatch, turned, rot, start, end, top, bottom)
    # The layout whose covered cards show an index where it puts them (weighed with its edges).
    best, best_score = [], -np.inf
    for score, forward, along, inner in layouts:
        if score + ROW_INDEX_WEIGHT <= best_score:  # sorted: no later layout can win
            break
        if max(along, rh) < lo_side:  # cards smaller than any card this finder looks for
            continue
        cards = _row_cards(geometry, forward, along, inner, verify)
        if not verify and cards:  # the best by its edges alone, its index corners unchecked
            return cards
        shows = [ok for _, c, _, ok in cards if c]
        if shows:
            score += ROW_INDEX_WEIGHT * float(np.mean(shows))
        if cards and score > best_score:
            best, best_score = cards, score
    return best


def _row_cards(geometry: tuple, forward: bool, along: float, inner: list, verify: bool = True) -> list[tuple]:
    """The cards of a turned row laid one way (see _split_row); [] if the covered cards show no print
    beside their edges."""
    image, patch, mpatch, turned, rot, start, end, top, bottom = geometry
    ph = patch.shape[0]
    # Each line: (x at mid-height, dx per unit y); the row's two outer ends are fitted to its outline.
    lines = [_end_line(turned, start, along, top, bottom)] + [(x, t) for x, t, _ in inner] + \
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
            tilt = lines[-2][1] if forward and len(lines) > 2 else (lines[1][1] if len(lines) > 2 else 0.0)
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
        quad = cv2.transform(quad[None], inverse)[0]
        shown_at = (near_a + near_b) / 2 + out * (0.5 if is_top else 0.25) * along
        shown = cv2.transform(np.float32([[shown_at - 0.5]]), inverse)[0, 0]
        if not is_top:
            inked += _has_ink(patch, c0, c1, y0, y1)
        quad = _clockwise(quad)
        if is_top:
            cards.append((quad, False, shown, True))
        else:
            corner = _index_orderings(quad, shown)[0]
            if verify:
                corner = _fit_corner(image, corner)[0]
            cards.append((corner, True, shown, not verify or _index_shows(image, corner)))
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
              bottom: float) -> tuple[float, float]:
    """The straight outline at one end of a turned row, as (x at mid-height, dx/dy).

    Fitted to the outline points near that end, away from the rounded corners; a vertical line at
    the end when too few points are there.
    """
    mid, span = (top + bottom) / 2, bottom - top
    near = points[(np.abs(points[:, 0] - x_end) < 0.12 * along) &
                  (np.abs(points[:, 1] - mid) < 0.35 * span)]
    if len(near) < 6:
        return x_end, 0.0
    slope, offset = np.polyfit(near[:, 1] - mid, near[:, 0], 1)
    if abs(slope) > 0.27 or abs(offset - x_end) > 0.1 * along:
        return x_end, 0.0
    return float(offset), float(slope)


def _lay_row(edges: list, start: float, end: float, expected: float, forward: bool, height: float) -> list:
    """Which crossing lines are card edges, if the cards were laid forward (each new card on the far
    side) or backward: [(score, card length, edges of the covered cards)], one per line that may be
    the top card's edge (the best supported is not always it: a faint edge loses to a picture's).

    The top card is whole: its near edge lies about one card length from the row's end, and lines
    inside it are its pictures.  Covered cards' edges must be spaced apart (evenly, best) and tilted
    like their neighbours.
    """
    target = end - expected if forward else start + expected
    near_top = sorted((e for e in edges if abs(e[0] - target) < 0.3 * expected), key=lambda e: -e[2])
    return [_lay_row_from(edges, start, end, expected, forward, height, top) for top in near_top[:ROW_TOP_CHOICES]]


def _lay_row_from(edges: list, start: float, end: float, expected: float, forward: bool, height: float, top):
    """_lay_row's layout given the top card's edge (x, tilt, continuity)."""
    along = end - top[0] if forward else top[0] - start
    error = abs(np.log(max(along, 1.0) / expected))
    if forward:
        pool = [e for e in edges if start + ROW_MIN_STEP * along < e[0] < top[0] - ROW_MIN_STEP * along]
    else:
        pool = [e for e in edges if top[0] + ROW_MIN_STEP * along < e[0] < end - ROW_MIN_STEP * along]
    tilts = [e[1] for e in pool] + [top[1]]
    median_tilt = float(np.median(tilts)) if tilts else 0.0
    chosen: list = []
    for e in sorted(pool, key=lambda e: -e[2]):
        if abs(e[1] - median_tilt) < 0.15 and all(abs(e[0] - c[0]) >= ROW_MIN_STEP * along for c in chosen):
            chosen.append(e)
    inner = sorted(chosen + [top])
    # Every edge explained is evidence for this way of laying the row; a card length far from the
    # expected shape is evidence against (the expected aspect is only a typical deck's).
    score = top[2] / height + sum(min(e[2] / height, 1.0) for e in chosen) - 1.5 * error
    # Cards in a row are laid evenly: edges picked from pictures and pips space themselves unevenly.
    xs = [start] + [e[0] for e in inner] if forward else [e[0] for e in inner] + [end]
    gaps = np.diff(xs)
    if len(gaps) >= 2:
        score -= ROW_SPACING_WEIGHT * float(np.abs(np.log(np.maximum(gaps, 1.0) / np.median(gaps))).sum())
    return score, along, inner


def _crossing_lines(patch: np.ndarray, mask: np.ndarray, height: float) -> list[tuple[float, float, float]]:
    """Straight edges crossing a row: (x at mid-height, dx/dy, continuity x height), sorted by x.

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
    lines = [(float(x), float(t), float(c) * height) for x, t, c, n, a in
             zip(x_mid, tilt, showing, valid.sum(axis=1), across)
             if c >= ROW_EDGE_CONTINUITY and n >= 0.5 * height and a]
    lines.sort(key=lambda line: -line[2])
    kept: list[tuple[float, float, float]] = []
    for line in lines:  # one edge gives several near-identical lines: keep the best supported
        if all(abs(line[0] - k[0]) >= 0.08 * height for k in kept):
            kept.append(line)
    return sorted(kept)


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
    a, b = quad[_FROM[first]], quad[_FROM[first + 2]]
    if exposed is None:
        return [a, b]

    def index_centre(q: np.ndarray) -> np.ndarray:
        return q[0] + 0.14 * (q[1] - q[0]) + 0.18 * (q[3] - q[0])
    near_a = np.hypot(*(index_centre(a) - exposed))
    near_b = np.hypot(*(index_centre(b) - exposed))
    return [a] if near_a <= near_b else [b]


CORNER_REACH = 8.0           # full-frame pixels either side of a covered card's sides searched for its edge
CORNER_SPAN = (0.06, 0.3)    # stretch of each side, from the index corner, in shares of that side's length
CORNER_MIN_FALL = 5          # median fall over that stretch marking the card's edge


def _fit_corner(image: np.ndarray, quad: np.ndarray, samples: int = 8) -> tuple[np.ndarray, int]:
    """A covered card's quad moved onto the edges beside its index corner (quad[0]), and how many of
    its two sides there showed an edge.

    Each side is sampled across over the stretch beside the corner that shows in any row; the edge is
    the offset where the median (over the stretch) fall in brightness going outwards peaks: a card's
    edge runs the whole stretch, an index glyph or a pip beside it only part of it.
    """
    corner = quad[0]
    lines = []
    shown = 0
    offsets = np.arange(-CORNER_REACH, CORNER_REACH + 0.01, 0.5, dtype=np.float32)
    for end, sign in ((quad[1], 1.0), (quad[3], -1.0)):
        length = float(np.hypot(*(end - corner)))
        d = (end - corner) / max(length, 1e-6)
        normal = sign * np.array([d[1], -d[0]], np.float32)  # outwards, for a clockwise quad
        s = np.linspace(CORNER_SPAN[0], CORNER_SPAN[1], samples, dtype=np.float32) * length
        base = corner[None, :] + d[None, :] * s[:, None]
        pts = (base[:, None, :] + normal[None, None, :] * offsets[None, :, None]).astype(np.float32)
        sampled = cv2.remap(image, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        value = _whiteness(sampled).astype(np.float32)
        fall = np.maximum(value[:, :-2] - value[:, 2:], 0)
        typical = np.median(fall, axis=0)
        peak = int(np.argmax(typical))
        if typical[peak] < CORNER_MIN_FALL:
            lines.append((corner, d))
            continue
        shown += 1
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
        return quad, 0
    k = np.linalg.solve(m, q - p)
    new = (p + k[0] * u).astype(np.float32)
    if np.hypot(*(new - corner)) > 1.5 * CORNER_REACH:
        return quad, 0
    width, height = float(np.hypot(*(quad[1] - quad[0]))), float(np.hypot(*(quad[3] - quad[0])))
    a, b = u / np.hypot(*u), v / np.hypot(*v)
    return np.float32([new, new + a * width, new + a * width + b * height, new + b * height]), shown


INDEX_BOX = (0.3, 0.4)        # share of the card's width and height cut at an index corner to check for print
RANK_AREA = (0.025, 0.14, 0.025, 0.19)   # where the rank glyph lies (y0, y1, x0, x1 in card shares) ...
SUIT_AREA = (0.15, 0.29, 0.025, 0.19)    # ... and the suit sign below it
INK_SHARE = (0.04, 0.02)      # least share of dark print in each
INDEX_COLUMN = (0.02, 0.16)   # the index's column, in shares of the card's width from its edge ...
INDEX_GAP_ROWS = (0.08, 0.25)  # ... and a pale row (at most this share dark) between rank and suit lies
INDEX_GAP_INK = 0.3           # ... this far down, with print above and below (least mean shares):
INDEX_MARK_INK = (0.08, 0.05)


def _index_shows(image: np.ndarray, quad: np.ndarray) -> bool:
    """Whether print lies where a card's index would be, at the corner quad[0]: a rank glyph and a
    suit sign below it, darker than the corner's white, apart.  A layout that puts a covered card the
    wrong way round or on a neighbour's edge puts that corner on a blank margin, a pip or a picture."""
    bw, bh = INDEX_BOX
    size = (48, 64)
    box = cv2.perspectiveTransform(np.float32([[[0, 0], [bw, 0], [bw, bh], [0, bh]]]), card_to_image(quad))[0]
    to_box = cv2.getPerspectiveTransform(box, np.float32([[0, 0], [size[0], 0], size, [0, size[1]]]))
    crop = cv2.warpPerspective(image, to_box, size, flags=cv2.INTER_AREA)
    grey = _whiteness(crop).astype(np.float32)
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
