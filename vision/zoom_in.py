"""Cards small in the frame: found again in its four quarters, each looked at as a frame of its own.

The index-corner detector sees a frame shrunk to a few hundred pixels across. Where the cards fill a
small share of it (a phone photo of a whole deck laid out, a camera far from the table), their indices
are a few of its pixels, and some cards are not found at all though their neighbours are. Each
quarter of the frame, looked at alone, shows them twice as large. The quarters overlap by a card's
diagonal, so a card lies wholly inside at least one of them; what is found there is mapped back to the
frame's pixels and read with the first look's candidates, so a card found in both is still one card.
Frames whose cards are read at a sixth of the frame or more (the device's camera over a table sees
them at 17-30 % of its height) are not looked at again.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from vision.zoom_out import in_frame, read_length

SMALL_READ = 1 / 6   # cards read shorter than this share of the frame's shorter side (median) are small
REACH = 1.25         # the quarters reach this many card lengths past the middle lines: a card's
#                      diagonal (1.22 of its length), however it is turned


def worth_a_closer_look(image: np.ndarray, reports: Sequence) -> bool:
    """Whether the cards read are small in the frame. A frame where nothing was read is not looked at
    again: card backs and empty tables stay as they were."""
    length = read_length(reports)
    return length is not None and length < SMALL_READ * min(image.shape[:2])


def quarters(width: int, height: int, card_length: float) -> list[tuple[int, int, int, int]]:
    """The four windows (x0, y0, x1, y1): the frame's quarters, each reaching REACH card lengths past
    the frame's middle lines, so that a card crossing one lies wholly in the window on its side."""
    reach = REACH * card_length
    xs = [(0, min(width, int(np.ceil(width / 2 + reach)))), (max(0, int(width / 2 - reach)), width)]
    ys = [(0, min(height, int(np.ceil(height / 2 + reach)))), (max(0, int(height / 2 - reach)), height)]
    return [(x0, y0, x1, y1) for y0, y1 in ys for x0, x1 in xs]


def in_quarters(look: Callable[[np.ndarray], list], image: np.ndarray, card_length: float) -> list:
    """The candidates `look` finds in each quarter of the frame (quarters), in the frame's pixels."""
    h, w = image.shape[:2]
    found = []
    for x0, y0, x1, y1 in quarters(w, h, card_length):
        window = np.ascontiguousarray(image[y0:y1, x0:x1])
        found += in_frame(look(window), np.float32([-x0, -y0]), 1.0)
    return found
