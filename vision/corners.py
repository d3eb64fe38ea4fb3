"""The index-corner detector: a small fully convolutional network that points at every card corner
whose index shows, and says which way the card runs from there.

The card finder (vision.finder) outlines cards by their edges and brightness; where a card's edge is
faint (grey faces on a light table, a row's white cards laid on each other) it finds nothing.  This
network looks for the thing that matters instead: an index corner.  It reads the frame shrunk to
the width its model was trained at (its settings' input_width) and, on a grid of STRIDE pixels, gives
  - a heat map: how likely a visible index corner (the card's outer corner beside rank and suit)
    lies in the cell;
  - where in the cell the corner lies;
  - the card's two sides from that corner: `across` (to the next corner clockwise, the short side)
    and `down` (to the previous corner, the long side), in units of VECTOR_SCALE input pixels.
A peak becomes a whole-card outline (a parallelogram: the camera's small tilt barely bends it),
which is all the index crop needs.  Every corner is offered, even one an outline of the finder
already starts at: in a row the finder's corner is often a few pixels off the index, and the
recognizer keeps one reading per place anyway.

Three helps for rows, where a card's strip shows little more than its index:
  - a faint peak (heat from WEAK up to the threshold) is a corner too, when a sure corner of the same
    card shape lies beside it: a card in a row is seldom alone, and a back's pattern, which can
    look like an index, has no sure card beside it;
  - a corner whose own guess of the card's far end disagrees with its row's is also offered with the
    median sides of the sure corners round it that run the same way (`row_outlines`);
  - each row (three or more sure corners that run alike) is read again in a window round it,
    enlarged up to ZOOM_MAX times, and the sure corners found there that run the row's way are
    added (`CornerFinder.corners`): the whole frame is shrunk to the model's input width (512
    pixels across), where a row's tight strips blur into each other.
And one for cards laid overlapping whose indices the detector missed: a bright patch of the card
finder's that no outline or sure corner explains has its nearly square corners offered as index
corners (vision.outline_corners).

The sure corners also tell the card finder how long this frame's cards are (`card_length`): a
card-shaped blob of that length is one card, not a short row, and is spared the finder's row check.

Output layout (models/corners.onnx, N x 7 x H/STRIDE x W/STRIDE): heat logit, cell offset x and
y (0..1), across x y, down x y.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Callable, Sequence

import cv2
import numpy as np

from models import MODELS_DIR
from vision.crops import parallelogram
from vision.errors import ModelError
from vision.onnx_session import open_session, read_settings
from vision.outline_corners import square_corners

DEFAULT_MODEL = MODELS_DIR / "corners.onnx"
INPUT_WIDTH = 512        # the frame is shrunk to this many pixels across (aspect kept) in training;
#                          a model's own width is in its settings (input_width)
STRIDE = 4               # input pixels per output cell
VECTOR_SCALE = 64.0      # input pixels per unit of the across / down outputs
MAX_CORNERS = 60         # peaks examined per frame
SAME_CORNER = 0.15       # two corners within this share of the card's length are one
SHAPE_RANGE = (0.5, 0.95)  # accepted across / down length ratio of a decoded card
WEAK = 0.1               # a peak of at least this heat is kept beside a sure corner of its shape ...
ALIKE_SIDES = 0.15       # ... whose sides' lengths are within this share of its own,
ALIKE_TURN = 10.0        # whose long side runs within this many degrees of its own,
ALIKE_REACH = 1.2        # and whose corner lies within this many card lengths
ROW_TURN = 15.0          # a row's corners: long sides within this many degrees,
ROW_REACH = 2.0          # corners within this many card lengths,
ROW_SIZE = 3             # at least this many of them (the corner itself among them);
ROW_DISAGREES = 0.1      # offered again when its far corner lies this share of its length off the row's
ZOOM_MAX = 2.0           # a row is read again enlarged at most this much over the whole frame,
ZOOM_MIN = 1.25          # and not at all where its window cannot be enlarged this much;
ZOOM_REACH = 1.2         # its corners each within this many card lengths of the next (laid apart,
#                          separate cards are read well enough at the whole frame's scale);
ZOOM_MARGIN = 0.1        # its window reaches this share of a card's length past its cards;
WINDOWS_SHARED = 0.5     # rows whose windows share this much of the smaller one are read in one;
ZOOM_TURN = 45.0         # a sure corner found there is kept when its long side runs within this
#                          many degrees of its row's (not a sideways index, not an edge across it)
CARD_LENGTH_HITS = 3     # sure corners needed to tell the finder the frame's card length
CORNER_OUTSIDE = 0.05    # a patch's square corner this share of a card's length outside every card
#                          explained is guessed even where one holds the patch's centre


def meta_path_for(model_path: Path) -> Path:
    return model_path.with_suffix(".json")


@dataclass(frozen=True)
class CornerHit:
    """One index corner: quad is the whole card (4x2 float32, frame pixels, clockwise from the corner)."""

    quad: np.ndarray
    score: float

    # Worked out once a hit (the rules below compare every pair of a frame's hits); never changed.
    @cached_property
    def across(self) -> np.ndarray:
        """The card's short side from the corner."""
        return self.quad[1] - self.quad[0]

    @cached_property
    def down(self) -> np.ndarray:
        """The card's long side from the corner."""
        return self.quad[3] - self.quad[0]

    @cached_property
    def length(self) -> float:
        return float(np.linalg.norm(self.down))


class CornerDetector:
    """detect(image) -> [CornerHit], best first; runs models/corners.onnx on one thread."""

    def __init__(self, model_path: str | Path | None = None, *, threshold: float | None = None):
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_MODEL
        if not self.model_path.is_file():
            raise ModelError(f"corner model {self.model_path} is missing: run `make model` to build it")
        meta = read_settings(meta_path_for(self.model_path), "corner model settings")
        try:
            self.threshold = float(meta["threshold"] if threshold is None else threshold)
        except (ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"corner model settings {meta_path_for(self.model_path)} cannot be read: "
                             f"{exc}") from None
        try:
            self.input_width = int(meta.get("input_width", INPUT_WIDTH))
        except (TypeError, ValueError):
            raise ModelError(f"corner model settings {meta_path_for(self.model_path)}: input_width "
                             f"{meta.get('input_width')!r} is not a number of pixels") from None
        if self.input_width < 16 or self.input_width % 16:
            raise ModelError(f"corner model settings {meta_path_for(self.model_path)}: input_width "
                             f"{self.input_width} is not a positive multiple of 16")
        self.meta = meta
        self._session = open_session(self.model_path, "corner model")
        self._input_name = self._session.get_inputs()[0].name

    def outputs(self, image: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
        """The network's raw output for a BGR frame (7 x h x w), read at its model's input width, and
        the frame-to-input scales (x, y)."""
        batch, scale = to_input(image, self.input_width)
        return self._session.run(None, {self._input_name: batch})[0][0], scale

    def detect(self, image: np.ndarray) -> list[CornerHit]:
        """The sure corners (heat over the threshold), then the faint ones beside a sure one alike."""
        out, scale = self.outputs(image)
        return sure_and_beside(decode(out, scale, min(WEAK, self.threshold)), self.threshold)

    def sure_in(self, image: np.ndarray, window: tuple[int, int, int, int]) -> list[CornerHit]:
        """The sure corners in a window (x0, y0, x1, y1) of the frame, in frame pixels: read enlarged
        to the model's input width."""
        x0, y0, x1, y1 = window
        out, scale = self.outputs(image[y0:y1, x0:x1])
        shift = np.array([x0, y0], np.float32)
        return [CornerHit(hit.quad + shift, hit.score) for hit in decode(out, scale, self.threshold)]


def input_size(width: int, height: int, input_width: int = INPUT_WIDTH) -> tuple[int, int]:
    """(w, h) of the network's input for a frame: input_width across, both a multiple of 16."""
    scale = input_width / width
    h = max(16, int(round(height * scale / 16)) * 16)
    return input_width, h


def to_input(image: np.ndarray, input_width: int = INPUT_WIDTH) -> tuple[np.ndarray, tuple[float, float]]:
    """The frame as the network takes it (1 x 3 x h x w float, 0..1) and the scales applied (x, y:
    they differ a little where the height is rounded to a multiple of 16)."""
    h, w = image.shape[:2]
    iw, ih = input_size(w, h, input_width)
    small = cv2.resize(image, (iw, ih), interpolation=cv2.INTER_AREA)
    batch = small.transpose(2, 0, 1)[None].astype(np.float32) / np.float32(255.0)
    return batch, (iw / w, ih / h)


def decode(out: np.ndarray, scale: float | tuple[float, float], threshold: float,
           limit: int = MAX_CORNERS) -> list[CornerHit]:
    """Peaks of the heat map over threshold, as whole-card outlines in frame pixels (best first)."""
    sx, sy = (scale, scale) if np.isscalar(scale) else scale
    heat = 1.0 / (1.0 + np.exp(-out[0].astype(np.float32)))
    peaks = (heat >= threshold) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-heat[ys, xs])[:limit]
    hits = []
    for y, x in zip(ys[order], xs[order]):
        # Input pixel centres sit at integers; the cell grid starts at the image's outer edge (-0.5).
        px = (x + out[1, y, x]) * STRIDE - 0.5
        py = (y + out[2, y, x]) * STRIDE - 0.5
        corner = np.array([(px + 0.5) / sx - 0.5, (py + 0.5) / sy - 0.5], np.float32)
        across = np.array([out[3, y, x] / sx, out[4, y, x] / sy], np.float32) * VECTOR_SCALE
        down = np.array([out[5, y, x] / sx, out[6, y, x] / sy], np.float32) * VECTOR_SCALE
        ratio = np.linalg.norm(across) / max(float(np.linalg.norm(down)), 1e-6)
        if not SHAPE_RANGE[0] <= ratio <= SHAPE_RANGE[1] or across[0] * down[1] - across[1] * down[0] <= 0:
            continue  # not a card's shape, or its corners would run anticlockwise
        hits.append(CornerHit(parallelogram(corner, across, down), float(heat[y, x])))
    return hits


def card_length(hits: Sequence[CornerHit], threshold: float) -> float | None:
    """The frame's card length (long side, frame pixels): the median of its sure corners', where
    CARD_LENGTH_HITS or more were found; None where fewer."""
    lengths = [hit.length for hit in hits if hit.score >= threshold]
    if len(lengths) < CARD_LENGTH_HITS:
        return None
    return float(np.median(lengths))


def turn_between(a: np.ndarray, b: np.ndarray) -> float:
    """The angle between two vectors, in degrees (0..180)."""
    turn = math.degrees(math.atan2(a[1], a[0]) - math.atan2(b[1], b[0]))
    return abs((turn + 180.0) % 360.0 - 180.0)


def sure_and_beside(hits: Sequence[CornerHit], threshold: float) -> list[CornerHit]:
    """The hits over the threshold, then the fainter ones that have a sure one alike beside them."""
    sure = [hit for hit in hits if hit.score >= threshold]
    return sure + [hit for hit in hits if hit.score < threshold and any(alike(hit, other) for other in sure)]


def alike(hit: CornerHit, other: CornerHit) -> bool:
    """Whether `other` looks like a card of the same size and way round as `hit`, close beside it."""
    if abs(hit.length / other.length - 1.0) > ALIKE_SIDES:
        return False
    if abs(float(np.linalg.norm(hit.across)) / max(float(np.linalg.norm(other.across)), 1e-6) - 1.0) > ALIKE_SIDES:
        return False
    return turn_between(hit.down, other.down) <= ALIKE_TURN and \
        float(np.linalg.norm(hit.quad[0] - other.quad[0])) <= ALIKE_REACH * other.length


def row_outlines(hits: Sequence[CornerHit], threshold: float) -> list[CornerHit]:
    """Each corner again with its row's sides, where its own guess of the far end is off the row's.

    Cards of a row are of one size and run about one way, and a sure corner's sides are the better
    guess; the median of those round it is taken. Only a second outline is offered: the classifier
    reads both, and the recognizer keeps one reading per place.
    """
    out = []
    for hit in hits:
        row = [other for other in hits if (other is hit or other.score >= threshold)
               and turn_between(other.down, hit.down) <= ROW_TURN
               and float(np.linalg.norm(other.quad[0] - hit.quad[0])) <= ROW_REACH * hit.length]
        if len(row) < ROW_SIZE:
            continue
        across = np.median([other.across for other in row], axis=0).astype(np.float32)
        long_side = np.median([other.down for other in row], axis=0).astype(np.float32)
        quad = parallelogram(hit.quad[0], across, long_side)
        if float(np.linalg.norm(quad[2] - hit.quad[2])) > ROW_DISAGREES * hit.length:
            out.append(CornerHit(quad, hit.score))
    return out


def rows_of(hits: Sequence[CornerHit], threshold: float, reach: float = ROW_REACH) -> list[list[CornerHit]]:
    """The sure corners grouped into rows (ROW_SIZE or more that run alike, each within `reach` card
    lengths of the next), largest first."""
    sure = [hit for hit in hits if hit.score >= threshold]
    group = list(range(len(sure)))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i, hit in enumerate(sure):
        for j in range(i):
            other = sure[j]
            if turn_between(other.down, hit.down) <= ROW_TURN and \
                    float(np.linalg.norm(other.quad[0] - hit.quad[0])) <= reach * min(hit.length, other.length):
                group[root(i)] = root(j)
    rows: dict[int, list[CornerHit]] = {}
    for i, hit in enumerate(sure):
        rows.setdefault(root(i), []).append(hit)
    return sorted((row for row in rows.values() if len(row) >= ROW_SIZE), key=len, reverse=True)


def row_window(row: Sequence[CornerHit], width: int, height: int) -> tuple[int, int, int, int] | None:
    """The window of the frame to read a row again in: round its cards, of the frame's shape, at
    least 1 / ZOOM_MAX of it; None where that would not enlarge the row ZOOM_MIN times."""
    points = np.concatenate([hit.quad for hit in row])
    margin = ZOOM_MARGIN * float(np.median([hit.length for hit in row]))
    (left, top), (right, bottom) = points.min(axis=0) - margin, points.max(axis=0) + margin
    w = max(right - left, (bottom - top) * width / height, width / ZOOM_MAX)
    if w * ZOOM_MIN > width:
        return None
    h = w * height / width
    x0 = min(max((left + right - w) / 2.0, 0.0), width - w)
    y0 = min(max((top + bottom - h) / 2.0, 0.0), height - h)
    return int(round(x0)), int(round(y0)), int(round(x0 + w)), int(round(y0 + h))


def row_windows(hits: Sequence[CornerHit], threshold: float, width: int,
                height: int) -> list[tuple[tuple[int, int, int, int], list[list[CornerHit]]]]:
    """The windows worth reading again enlarged, each with the rows it was cut round."""
    windows: list[tuple[tuple[int, int, int, int], list[list[CornerHit]]]] = []
    for row in rows_of(hits, threshold, ZOOM_REACH):
        window = row_window(row, width, height)
        if window is None:
            continue
        shared = next((rows for other, rows in windows if shared_area(window, other) > WINDOWS_SHARED), None)
        if shared is not None:
            shared.append(row)
        else:
            windows.append((window, [row]))
    return windows


def shared_area(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    """The share of the smaller of two windows (x0, y0, x1, y1) that lies in both."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))


def row_down(row: Sequence[CornerHit]) -> np.ndarray:
    """The way a row's cards run: the median of their long sides."""
    return np.median([hit.down for hit in row], axis=0)


def runs_with(hit: CornerHit, downs: Sequence[np.ndarray]) -> bool:
    """Whether a corner's long side runs within ZOOM_TURN of one of these rows' (`row_down`)."""
    return any(turn_between(hit.down, down) <= ZOOM_TURN for down in downs)


def explains(quads: Sequence[np.ndarray], box: tuple[float, float, float, float]) -> bool:
    """Whether some outline holds the patch's centre."""
    centre = ((box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0)
    return any(cv2.pointPolygonTest(np.asarray(q, np.float32), centre, False) >= 0 for q in quads)


def outside_all(point: np.ndarray, quads: Sequence[np.ndarray], margin: float) -> bool:
    """Whether point lies more than margin pixels outside every quad."""
    where = (float(point[0]), float(point[1]))
    return all(cv2.pointPolygonTest(np.asarray(q, np.float32).reshape(-1, 1, 2), where, True) < -margin
               for q in quads)


def near(a: np.ndarray, b: np.ndarray, length: float) -> bool:
    return float(np.linalg.norm(np.asarray(a) - np.asarray(b))) <= SAME_CORNER * length


def opposite_ends(a: CornerHit, b: CornerHit) -> bool:
    """Whether two corners are one card's two index corners: each lies where the other puts its far end."""
    return near(b.quad[0], a.quad[2], a.length) and near(a.quad[0], b.quad[2], a.length)


def corner_candidates(hits: Sequence[CornerHit]):
    """Candidates for the detector's corners, each marked as found by its corner.

    Two corners at opposite ends of one card make one candidate read at both (a lone card); a
    corner alone is a covered card, read at that corner only.
    """
    from vision.finder import Candidate

    used: set[int] = set()
    out = []
    for i, hit in enumerate(hits):
        if i in used:
            continue
        used.add(i)
        mate = next((j for j, other in enumerate(hits) if j not in used and opposite_ends(hit, other)), None)
        if mate is None:
            out.append(Candidate((hit.quad,), covered=True, score=hit.score, by_corner=True))
        else:
            used.add(mate)
            out.append(Candidate((hit.quad, hits[mate].quad), covered=False, score=hit.score, by_corner=True))
    return out


class CornerFinder:
    """A finder (image -> Candidates): vision.finder's outlines, then the detector's corners."""

    def __init__(self, detector: CornerDetector | None = None,
                 finder: Callable[[np.ndarray], Sequence] | None = None, *, zoom_rows: bool = True):
        """finder: image -> Candidates, in place of vision.finder's (whose bright patches then offer
        no corners: only vision.finder reports them)."""
        self.detector = detector if detector is not None else CornerDetector()
        self.finder = finder
        self.zoom_rows = zoom_rows

    def outlines(self, image: np.ndarray, card_length: float | None = None) \
            -> tuple[list, list[tuple[float, float, float, float]]]:
        """The finder's Candidates, and the bright patches it saw (vision.finder.find_cards_and_patches,
        told the frame's card length where the corners measured it)."""
        if self.finder is not None:
            return list(self.finder(image)), []
        from vision.finder import find_cards_and_patches

        return find_cards_and_patches(image, card_length)

    def corners(self, image: np.ndarray) -> list[CornerHit]:
        """The detector's corners in the whole frame, then (zoom_rows) the sure ones it finds in each
        row's window read again enlarged: in a row a card's strip may show little more than its
        index, a few pixels wide at the whole frame's scale."""
        hits = self.detector.detect(image)
        if not self.zoom_rows:
            return hits
        height, width = image.shape[:2]
        for window, rows in row_windows(hits, self.detector.threshold, width, height):
            downs = [row_down(row) for row in rows]
            hits = hits + [hit for hit in self.detector.sure_in(image, window) if runs_with(hit, downs)]
        return hits

    def guessed_corners(self, patches: Sequence, explained: Sequence[np.ndarray]) -> list[CornerHit]:
        """The nearly square corners of each bright patch that nothing explains, and of any patch
        those lying outside every card explained (CORNER_OUTSIDE): offered as index corners of cards
        as long as the frame's others (vision.outline_corners). Two cards laid overlapping, whose
        indices the detector missed: one outline may hold the blob's centre and explain one of them
        only."""
        from vision.finder import typical_size

        length = typical_size(list(explained))[0] if explained else None
        guessed = []
        for patch in patches:
            unexplained = not explains(explained, patch.box)
            guessed += [CornerHit(quad, self.detector.threshold) for quad in square_corners(patch.outline, length)
                        if unexplained or outside_all(quad[0], explained, CORNER_OUTSIDE * length)]
        return guessed

    def __call__(self, image: np.ndarray) -> list:
        from vision.finder import Candidate

        hits = self.corners(image)
        outlined, patches = self.outlines(image, card_length(hits, self.detector.threshold))
        sure = [hit.quad for hit in hits if hit.score >= self.detector.threshold]
        guessed = self.guessed_corners(patches, [c.quad for c in outlined] + sure)
        again = [Candidate((hit.quad,), covered=True, score=hit.score, by_corner=True)
                 for hit in row_outlines(hits, self.detector.threshold) + guessed]
        return outlined + corner_candidates(hits) + again
