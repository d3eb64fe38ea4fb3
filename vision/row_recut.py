"""Corners of a row cut again with the shape of the row's cards the classifier already read.

In a row laid tight (a whole suit spread, each card showing a strip little wider than its index) the
index-corner detector still finds most cards' corners, but guesses their sides badly: turned a
quarter of a right angle, or two thirds of the card's size, so the crop misses the index and the corner reads
"not a card". The cards it did read in that row are of one deck and lie one way, so their median
sides are a better guess than a corner's own. Each corner left unread near them is cut again with
those sides, at three sizes (and, where that reads nothing, moved a little along the row each way),
and read only where all three crops read the same card over the threshold and none leans to
another: a crop too small for its index can read one index as another (a large serif A as a 4,
confidently), and it seldom does so at all three sizes. The reads are offered
to the recognizer's tidying like any other: a card found twice is still one card.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from vision.corners import turn_between
from vision.crops import parallelogram
from vision.types import Recognition

ROW_READS = 3            # covered cards read, alike in shape, before a row's shape is trusted
ALIKE_LENGTH = 0.2       # their long sides within this share of the median,
ALIKE_TURN = 15.0        # running within this many degrees of the median's way
REACH = 1.5              # an unread corner is cut again within this many card lengths of a read one
SAME_CORNER = 0.03       # corners this share of a card's length apart are cut once
SIZES = (1.0, 1.25, 1.5)  # the crops cut: the row's card, and larger (detectors guess rows' cards short)
LEANING = 0.5            # a first crop read only this sure of a card is worth the larger two
NUDGES = (-0.04, 0.04)   # a corner read nothing is cut again moved this share of a card's length along
#                          the row each way (the detector's corners lie a few hundredths off: in a tight
#                          row, on the neighbour's strip or on the card's face before its index)


def row_shape(reads: Sequence[Recognition]) -> tuple[np.ndarray, np.ndarray] | None:
    """The median (across, down) sides of the covered cards read, where ROW_READS or more of them are
    alike in size and way round; None where fewer."""
    if len(reads) < ROW_READS:
        return None
    across = np.array([r.quad[1] - r.quad[0] for r in reads], np.float32)
    down = np.array([r.quad[3] - r.quad[0] for r in reads], np.float32)
    mid_down = np.median(down, axis=0)
    length = float(np.linalg.norm(mid_down))
    if length < 1.0:  # as many reads one way round as the other: the median way is none
        return None
    alike = [abs(float(np.linalg.norm(d)) / length - 1.0) <= ALIKE_LENGTH and turn_between(d, mid_down) <= ALIKE_TURN
             for d in down]
    if sum(alike) < ROW_READS:
        return None
    keep = np.array(alike)
    return np.median(across[keep], axis=0), np.median(down[keep], axis=0)


def distinct(corners: Sequence[np.ndarray], length: float) -> list[np.ndarray]:
    """The corners (frame points), each place once."""
    picked: list[np.ndarray] = []
    for corner in corners:
        if any(np.linalg.norm(corner - other) <= SAME_CORNER * length for other in picked):
            continue
        picked.append(np.asarray(corner, np.float32))
    return picked


def recut_reads(image: np.ndarray, classifier, cropper, corners: Sequence[np.ndarray],
                reads: Sequence[Recognition]) -> list[Recognition]:
    """Cards read at unread corners (`corners`) cut again with the shape of the row's read covered
    cards (`reads`); [] where those do not make a row. A card read so is near enough for the corners
    beside it to be cut again in turn: a row runs on past the cards read first."""
    shape = row_shape(reads)
    if shape is None:
        return []
    across, down = shape
    length = float(np.linalg.norm(down))
    left = distinct(corners, length)
    anchors, found = list(reads), []
    while left:
        picked = [corner for corner in left if near_any(corner, anchors, REACH * length)]
        if not picked:
            break
        left = [corner for corner in left if not near_any(corner, anchors, REACH * length)]
        new = read_near(image, classifier, cropper, picked, across, down)
        found += new
        anchors = new
    return found


def near_any(corner: np.ndarray, reads: Sequence[Recognition], reach: float) -> bool:
    return any(float(np.linalg.norm(corner - r.quad[0])) <= reach for r in reads)


def read_near(image: np.ndarray, classifier, cropper, picked: Sequence[np.ndarray], across: np.ndarray,
              down: np.ndarray) -> list[Recognition]:
    """The cards read at each corner in `picked` (read_at), or, where nothing is read there, at the
    first of NUDGES that reads one."""
    found = read_at(image, classifier, cropper, picked, across, down)
    step = across / max(float(np.linalg.norm(across)), 1e-6) * float(np.linalg.norm(down))
    left = [corner for corner in picked if not any(np.allclose(r.quad[0], corner) for r in found)]
    for nudge in NUDGES:
        if not left:
            break
        moved = [corner + nudge * step for corner in left]
        new = read_at(image, classifier, cropper, moved, across, down)
        found += new
        left = [corner for corner, there in zip(left, moved) if not any(np.allclose(r.quad[0], there) for r in new)]
    return found


def read_at(image: np.ndarray, classifier, cropper, picked: Sequence[np.ndarray], across: np.ndarray,
            down: np.ndarray) -> list[Recognition]:
    """The cards read alike at all SIZES of the row's card cut at each corner in `picked`."""
    first = [parallelogram(corner, across, down) for corner in picked]
    rows = classifier.probabilities([cropper(image, quad) for quad in first])
    leaning = [n for n, row in enumerate(rows)
               if int(np.argmax(row)) != classifier.background_index and float(row.max()) >= LEANING]
    if not leaning:
        return []
    larger = [parallelogram(picked[n], across * size, down * size) for n in leaning for size in SIZES[1:]]
    more = classifier.probabilities([cropper(image, quad) for quad in larger])
    found = []
    for i, n in enumerate(leaning):
        block = [rows[n], *more[i * (len(SIZES) - 1):(i + 1) * (len(SIZES) - 1)]]
        decided = [classifier.decide(row) for row in block]
        cards = {card for card, _ in decided}
        if len(cards) == 1 and None not in cards:
            found.append(Recognition(decided[0][0], min(conf for _, conf in decided), first[n]))
    return found
