"""One physical card, one report: the reports the recognizer's cues make of the same card, joined.

A card is found by its outline and by the index-corner detector at each index corner it shows, and the
detector's corners become outlines of the size the frame's other cards suggest. Where a card is larger
or smaller than that, those outlines do not match the card's own, and the card would be reported two or
three times. Cards of one deck are all one size, so:
- a report whose outline lies almost wholly inside a larger report's is that card's print (an index
  read again, a pip), and the card is reported once, with the larger outline; where only the smaller
  one was read, the larger outline takes its reading, turned to start at the corner it was read at;
- an unread outline holding the reads of two different cards is no card: both cards lie there;
- two reads of the same card at its two diagonal index corners are one card, and give its whole
  outline between them (the detector's outlines, sized after other cards, may not even overlap);
- two reads of the same card whose outlines overlap, or one read at an index lying on the other's
  outline, are one card read at two of its corners (a deck printing an index in every corner is read
  at any of them, and the outline then runs the wrong way over its neighbours).
A join may grow an outline, which then reaches reports kept before it, so the joining passes again
until nothing joins.
Two different cards each read at an index lying on the other's outline contradict each other (a card
lies over its neighbour wherever they overlap, so only one of those indices can show): both are left
unread. A read its whole face refuted still counts there: the face says the index was misread, not
that the other outline is right. The same card twice is still reported where two copies lie apart (two
decks mixed, or a misread).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.crops import index_centre
from vision.types import Recognition

INSIDE = 0.8          # share of a report's outline inside a larger one that makes it that card's print
LARGER = 1.3          # ... where the larger outline is at least this many times its area
SAME_CARD_SHARE = 0.2  # two reads of one card overlapping by this share of the smaller are one card
OPPOSITE = -0.8       # cosine between two reads' long axes, read at a card's two diagonal index corners
SHAPE = (0.5, 0.95)   # short / long side of the outline joining them,
REACH = 2.2           # and its long side at most this many times theirs (the detector's outlines may be
#                       sized after smaller cards; two copies of a card far apart are not joined)


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """The lengths of the quad's four sides, each from its corner to the next."""
    return np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)


def long_side(quad: np.ndarray) -> float:
    """The mean length of the quad's two longer opposite sides: a card's length."""
    sides = side_lengths(quad)
    return float(max(sides[0] + sides[2], sides[1] + sides[3]) / 2.0)


def area(quad: np.ndarray) -> float:
    return abs(float(cv2.contourArea(np.asarray(quad, np.float32))))


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Area (pixels) shared by two convex outlines."""
    shared, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    return max(float(shared), 0.0)


def starting_near(quad: np.ndarray, point: np.ndarray) -> np.ndarray:
    """The outline's corners, clockwise as before, starting at the one nearest point."""
    quad = np.asarray(quad, np.float32)
    first = int(np.argmin(np.linalg.norm(quad - np.asarray(point, np.float32), axis=1)))
    return np.roll(quad, -first, axis=0)


def across_the_card(a: Recognition, b: Recognition) -> np.ndarray | None:
    """The outline from a's index corner to b's, where they are one card's two diagonal index corners:
    b's corner lies down and across from a's along a's axes, the two read the other way up, and the box
    between them is card-shaped. None where they are not."""
    corner = a.quad[0]
    down, across = a.quad[3] - corner, a.quad[1] - corner
    down_unit = down / max(float(np.linalg.norm(down)), 1e-6)
    across_unit = across / max(float(np.linalg.norm(across)), 1e-6)
    their_down = b.quad[3] - b.quad[0]
    if float(np.dot(their_down, down_unit)) > OPPOSITE * float(np.linalg.norm(their_down)):
        return None
    to_b = b.quad[0] - corner
    length, width = float(np.dot(to_b, down_unit)), float(np.dot(to_b, across_unit))
    if length <= 0 or width <= 0 or not SHAPE[0] <= width / length <= SHAPE[1]:
        return None
    return np.float32([corner, corner + width * across_unit,
                       corner + width * across_unit + length * down_unit, corner + length * down_unit])


def index_on(rec: Recognition, other: Recognition) -> bool:
    """Whether the index rec was read at lies on other's outline."""
    centre = index_centre(rec.quad)
    return cv2.pointPolygonTest(np.asarray(other.quad, np.float32), (float(centre[0]), float(centre[1])), False) > 0


def joined(big: Recognition, small: Recognition) -> Recognition | None:
    """The one report of big and small where they are one card (small the smaller), else None."""
    shared = overlap(big.quad, small.quad)
    small_area, big_area = area(small.quad), area(big.quad)
    if small_area <= 0:
        return None
    if shared >= INSIDE * small_area and big_area >= LARGER * small_area and \
            (big.card is None or small.card is None or big.card == small.card):
        if big.card is None and small.card is not None:
            return Recognition(small.card, small.confidence, starting_near(big.quad, small.quad[0]))
        return big
    if big.card is None or big.card != small.card:
        return None
    first = big if big.confidence >= small.confidence else small
    whole = across_the_card(big, small)
    if whole is None:
        whole = across_the_card(small, big)
    if whole is not None and long_side(whole) <= REACH * max(long_side(big.quad), long_side(small.quad)):
        return Recognition(first.card, first.confidence, whole)
    if shared >= SAME_CARD_SHARE * small_area or index_on(small, big) or index_on(big, small):
        return first
    return None


def holds_two_cards(outline: Recognition, found: list[Recognition]) -> bool:
    """Whether an unread outline holds the reads of two different cards (a blob over two cards)."""
    inside = {rec.card for rec in found if rec.card is not None and rec is not outline and
              overlap(outline.quad, rec.quad) >= INSIDE * area(rec.quad)}
    return len(inside) >= 2


def contradicting_pairs(found: list[Recognition]) -> list[tuple[int, int]]:
    """The pairs (n, m), n < m, of reads that contradict each other: two cards, each read at an index
    lying on the other's outline. A card lies over its neighbour wherever they overlap, so only one of
    two such indices can show: one outline is wrong."""
    reads = [(n, rec) for n, rec in enumerate(found) if rec.index_read is not None]
    return [(n, m) for n, rec in reads for m, other in reads
            if n < m and other.index_read != rec.index_read and index_on(rec, other) and index_on(other, rec)]


def contradicting(found: list[Recognition]) -> set[int]:
    """The reads that contradict another (contradicting_pairs): neither can be trusted."""
    return {n for pair in contradicting_pairs(found) for n in pair}


def one_report_per_card(found: list[Recognition]) -> list[Recognition]:
    """The reports with each physical card once (see the module's docstring), ordered as given."""
    doubtful = contradicting(found)
    found = [Recognition(None, rec.confidence, rec.quad, rec.refuted) if n in doubtful else rec
             for n, rec in enumerate(found)]
    reports = [rec for rec in found if rec.card is not None or not holds_two_cards(rec, found)]
    kept = list(enumerate(reports))
    while len(fewer := joined_pass(kept)) < len(kept):
        kept = fewer
    return [rec for _, rec in sorted(kept, key=lambda pair: pair[0])]


def joined_pass(reports: list[tuple[int, Recognition]]) -> list[tuple[int, Recognition]]:
    """One pass joining (place, report) pairs, the largest outline first."""
    kept: list[tuple[int, Recognition]] = []
    for i, rec in sorted(reports, key=lambda pair: area(pair[1].quad), reverse=True):
        for k, (place, other) in enumerate(kept):
            one = joined(other, rec)
            if one is not None:
                kept[k] = (min(place, i), one)
                break
        else:
            kept.append((i, rec))
    return kept
