"""Settle: the readings of a frame's candidates made into one report per physical card.

The read stage (vision.recognizer) leaves a reading per candidate: outlines, corners the detector found
alone. Several of them are often one card, and some are no card at all.
In order:
- a corner found alone inside a whole card (read alike at two index corners) and read as another card
  is that card's own print seen askew, and is dropped (on_another_card);
- two outlines covering the same place are one card, read before unread, then the surer (same_place,
  drop_overlaps), unless both are read, as different cards, at index corners apart: two cards of a
  row, laid a little apart, overlap that much;
- the reports left of one physical card are joined into one (vision.one_card).
The same card at two places is still reported twice (two decks, or a misread: the controller decides).
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.crops import index_centre
from vision.one_card import area, index_on, one_report_per_card, overlap
from vision.types import Recognition

OVERLAP_IOU = 0.5          # two outlines this much alike are the same card ...
CORNERS_APART = 0.3        # ... unless read as two cards at corners this share of a card's length apart,
INDEXES_APART = 0.1        # or at nearer corners whose index crops' centres lie this share apart (a
#                            suit spread tight shows strips an eighth of a card's length wide)


def settle(found: Sequence[tuple[Recognition, bool]], whole: Sequence[Recognition]) -> list[Recognition]:
    """One report per physical card from a frame's readings: `found` pairs each reading with whether
    its candidate was a corner the detector found alone; `whole` are the cards read alike at two of
    their index corners."""
    kept = drop_overlaps([rec for rec, by_corner in found if not (by_corner and on_another_card(rec, whole))])
    return one_report_per_card(kept)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads, in pixels."""
    area_a, area_b = area(a), area(b)
    if area_a <= 0 or area_b <= 0:
        return 0.0
    inter = overlap(a, b)
    union = area_a + area_b - inter
    return inter / union if union > 0 else 0.0


def on_another_card(rec: Recognition, whole: Sequence[Recognition]) -> bool:
    """True when rec was cut from inside a whole card and read as another card.

    A whole card is one read as the same card at two of its corners (its two index corners): its
    outline then runs from end to end of it, and nothing lies on it, so a corner found inside it is
    its own print seen askew (a deck with an index in every corner, a pip), not a card of its own.
    (An outline the finder called whole but read at one end only may be too big: one laid over a row
    covered its neighbours, whose corners were then dropped.)
    """
    centre = index_centre(rec.quad)
    point = (float(centre[0]), float(centre[1]))
    return any(other.card != rec.card and cv2.pointPolygonTest(np.asarray(other.quad, np.float32), point, False) > 0
               for other in whole)


def same_place(a: Recognition, b: Recognition, readings: Sequence[Recognition] = ()) -> bool:
    """Whether two recognitions are one card seen twice.

    Outlines that overlap this much are one card, except two reads of different cards whose reading
    corners lie apart: in a row laid down the cards' length, neighbours' outlines overlap by half.
    Read at the two ends of one card (an index corner and the one diagonally opposite), they are one,
    provided one of the two indices lies on the other's outline: where neither does, they are two cards
    side by side, one turned end for end. Nor are they one where a third reading (of `readings`, the
    frame's) reads b's card at b's far end, beside a's index: that end is b's own, and a is a card
    whose index peeks out beside it, as a fan lays them.
    Read at corners near each other, they are one card (its index read twice, once askew) only when
    their index crops are nearly the same place: cards fanned close put their indices side by side.
    """
    if quad_iou(a.quad, b.quad) < OVERLAP_IOU:
        return False
    if a.card is None or b.card is None or a.card == b.card:
        return True
    length = float(np.linalg.norm(a.quad[3] - a.quad[0]))
    if not apart(a.quad[0], b.quad[0], CORNERS_APART * length):
        return not apart(index_centre(a.quad), index_centre(b.quad), INDEXES_APART * length)
    if not (index_on(a, b) or index_on(b, a)):
        return False
    if read_beside(a, b, readings, length):
        return False
    return not (apart(a.quad[0], b.quad[2], CORNERS_APART * length) and
                apart(a.quad[2], b.quad[0], CORNERS_APART * length))


def apart(p: np.ndarray, q: np.ndarray, distance: float) -> bool:
    """Whether two points lie at least `distance` pixels apart."""
    return float(np.linalg.norm(p - q)) >= distance


def read_beside(a: Recognition, b: Recognition, readings: Sequence[Recognition], length: float) -> bool:
    """Whether another of `readings` reads b's card at b's far end (the index diagonally opposite b's),
    and not at a's index: a reading of b's card at a's very place contradicts a, rather than lying
    beside it."""
    far_end = index_centre(np.roll(b.quad, -2, axis=0))
    at_a = index_centre(a.quad)
    return any(c is not b and c.card == b.card
               and not apart(index_centre(c.quad), far_end, CORNERS_APART * length)
               and apart(index_centre(c.quad), at_a, INDEXES_APART * length)
               for c in readings)


def drop_overlaps(found: list[Recognition]) -> list[Recognition]:
    """Keep one Recognition per place: read before unread, then the more confident."""
    order = sorted(found, key=lambda r: (r.card is not None, r.confidence), reverse=True)
    kept: list[Recognition] = []
    for rec in order:
        if not any(same_place(rec, other, found) for other in kept):
            kept.append(rec)
    kept.sort(key=lambda r: (r.centre[1], r.centre[0]))
    return kept
