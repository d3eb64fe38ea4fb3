"""Two reads that contradict each other, settled by cutting each larger.

Two different cards read each at an index lying on the other's outline cannot both be right
(vision.one_card): a card lies over its neighbour wherever they overlap. In a row laid tight, one of
them is usually an outline the detector put a little off: its corner on the neighbour's face just
before its index, or sized so that its crop holds two indices, or so tight that a large serif A reads
as a 4. A read of a true corner stays the same card when its crop is cut larger (the index stays
where it was, the crop only takes in more of the card and its neighbours); those reads mostly do not.
So each is cut again at the larger sizes the row recut uses, from its own corner along its own
sides: a read that holds at every size stands against one that does not, which is dropped (the card
it was cut from is the other read's, or a neighbour's read elsewhere). Where both hold, or neither,
a deck holds each card once: a read whose card is also read elsewhere in the frame, as a card of
its own (vision.one_card would not join them), is the misread and is dropped (a tight crop's 3 read
as the 5 that lies further along the row). Otherwise both stay, and are left unread as
contradicting.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from vision.crops import parallelogram
from vision.one_card import area, contradicting_pairs, joined
from vision.row_recut import SIZES
from vision.types import Recognition


def settle_contradictions(image: np.ndarray, classifier, cropper, found: Sequence[Recognition]) -> list[Recognition]:
    """found without the reads that lose a contradiction: each one that changes (or reads nothing) when
    cut at SIZES of its outline while the read it contradicts holds at all of them; where both hold
    or neither, one whose card is read elsewhere while the other's is not."""
    found = list(found)
    pairs = contradicting_pairs(found)
    if not pairs:
        return found
    involved = sorted({n for pair in pairs for n in pair})
    holding = dict(zip(involved, holds_larger(image, classifier, cropper, [found[n] for n in involved])))
    losers = set()
    for n, m in pairs:
        if holding[n] != holding[m]:
            losers.add(m if holding[n] else n)
            continue
        twice = read_elsewhere(found, n), read_elsewhere(found, m)
        if twice[0] != twice[1]:
            losers.add(n if twice[0] else m)
    return [rec for n, rec in enumerate(found) if n not in losers]


def read_elsewhere(found: Sequence[Recognition], n: int) -> bool:
    """Whether found[n]'s card is read again in found as another physical card (one that
    vision.one_card would not join to it)."""
    rec = found[n]
    return any(other.card == rec.card and joined_either_way(rec, other) is None
               for m, other in enumerate(found) if m != n)


def joined_either_way(a: Recognition, b: Recognition) -> Recognition | None:
    """vision.one_card.joined for two reports in either order of size."""
    return joined(a, b) if area(a.quad) >= area(b.quad) else joined(b, a)


def holds_larger(image: np.ndarray, classifier, cropper, reads: Sequence[Recognition]) -> list[bool]:
    """For each read, whether its crop reads the same card at every size in SIZES (1.0 its own)."""
    quads = [parallelogram(rec.quad[0], (rec.quad[1] - rec.quad[0]) * size, (rec.quad[3] - rec.quad[0]) * size)
             for rec in reads for size in SIZES]
    rows = classifier.probabilities([cropper(image, quad) for quad in quads])
    decided = [classifier.decide(row)[0] for row in rows]
    return [all(card == rec.card for card in decided[i * len(SIZES):(i + 1) * len(SIZES)])
            for i, rec in enumerate(reads)]
