"""How long this frame's cards are, and whether an outline is one of them or a row of them: the
cards that can only be single cards tell the size of every card in the frame."""

from __future__ import annotations

import math
from typing import NamedTuple, Sequence

import numpy as np

from vision.finder.quads import sides

ONE_CARD_LONG = 0.1          # a card-shaped blob whose long side is within this |log| of the frame's card
ROW_CARD_OFF = 0.2           # length (where known), and whose short side is at least this far off it, is one
#                              card: not checked for a row (whose cards would be as long as its short side)
ROW_SIZE_SLACK = 0.35        # |log| of a row card's short side over the lone cards' beyond which it is no row


class CardSize(NamedTuple):
    """A card's (or the median card's) long and short side, in pixels."""
    long: float
    short: float


def typical_size(quads: Sequence[np.ndarray]) -> CardSize | None:
    """Median (long side, short side) of these card outlines (None for none): in a frame, of the
    whole cards found, the size of covered ones too."""
    if not quads:
        return None
    lengths = np.array([sorted([(s[0] + s[2]) / 2, (s[1] + s[3]) / 2]) for s in map(sides, quads)])
    return CardSize(float(np.median(lengths[:, 1])), float(np.median(lengths[:, 0])))


def one_card(quad: np.ndarray, card_length: float) -> bool:
    """Whether a card-shaped outline is one card of the frame's length, and not a short row shaped
    like a card: a row's cards lie across it, as long as its short side."""
    long, short = typical_size([quad])
    return abs(math.log(long / card_length)) <= ONE_CARD_LONG and \
        abs(math.log(short / card_length)) >= ROW_CARD_OFF


def size_gap(size: CardSize, typical: CardSize) -> float:
    """How far a card's (long, short) size is from the typical one, both sides counted: a court
    card's frame lines read as a row give cards as wide as the lone cards but far too short."""
    return abs(np.log(size.long / typical.long)) + abs(np.log(size.short / typical.short))


def row_off_size(row_quads: Sequence[np.ndarray], typical: CardSize) -> bool:
    """Whether a row's cards are far wider or narrower than the frame's lone cards: a card with lines
    across whose outline is not card-shaped (merged with its shadow) reads as such a row."""
    return abs(np.log(typical_size(row_quads).short / typical.short)) > ROW_SIZE_SLACK
