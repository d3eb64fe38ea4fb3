"""A second look at a card read almost surely: the same corner cut again a little off, read again.

An index crop cut a few pixels off its card (the finder's corner a little inside the card, the
corner detector's side a few degrees askew) can leave the classifier just under its threshold,
although it leans clearly to one card. Such a card is cut again at small shifts, turns and scales
of its outline, and read right when at least AGREEING of those crops read it over the threshold
and every one of them still takes it for that card. What the second look may not do is search
for a read:
  - only a candidate whose best guess is already over FLOOR is looked at again;
  - the nudges are small (a few percent of the card), too small to reach a neighbour's index;
  - one nudged crop whose best guess is another card, or "not a card", refuses the read;
  - only an index the frame holds whole is looked at again (IN_FRAME): the crop of one the frame's
    edge cuts is filled out with its edge pixels repeated, and the nudges only move it further
    out. On a real photograph a diamond pip, cut by the frame with the table above it, read as
    the A♦ at 0.995 and its nudges confirmed it.
On the validation font decks (`MUGGINS_BENCH_DECKS=validation make bench BENCH=vision`) this reads
about 3.5 points more separate cards and 3.7 more row cards, none wrong; the last rule came from
there, where a 5 that the classifier took for a 7 at 0.994 passed two nudges but not the others.
FLOOR was 0.9 until real photographs showed threes of real decks read at 0.8-0.9 (a cream deck's
3H at 0.84-0.88 at both index corners); at 0.8 the validation and held-out decks read the same to
the card, but for one more held-out card 10-16 % of the frame high, none wrong.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.crops import INDEX_REGION, parallelogram, region_quad

FLOOR = 0.8          # the unsure read's own probability, at least
AGREEING = 2         # nudged crops that must read the card over the threshold
SHIFT = 0.03         # nudges: corner moved this share of the card's sides ...
TURN = 5.0           # ... the outline turned this many degrees about its corner ...
SCALE = 0.08         # ... and grown or shrunk by this share
IN_FRAME = 0.99      # share of the index region that must lie in the frame (all but a pixel's rounding)


def nudged_quads(quad: np.ndarray) -> list[np.ndarray]:
    """The outline moved a little along each side, turned a little each way, scaled a little."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    corner, across, down = quad[0], quad[1] - quad[0], quad[3] - quad[0]
    out = [parallelogram(corner + du * across + dv * down, across, down)
           for du, dv in ((SHIFT, 0), (-SHIFT, 0), (0, SHIFT), (0, -SHIFT))]
    for degrees in (TURN, -TURN):
        t = math.radians(degrees)
        turn = np.float32([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
        out.append(parallelogram(corner, turn @ across, turn @ down))
    out += [parallelogram(corner, s * across, s * down) for s in (1 - SCALE, 1 + SCALE)]
    return out


def index_in_frame(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether the index region cut at quad's first corner lies in a frame of `shape` (IN_FRAME of it)."""
    region = region_quad(np.asarray(quad, np.float32).reshape(4, 2), INDEX_REGION).astype(np.float32)
    whole = abs(cv2.contourArea(region))
    if whole <= 0:
        return False
    h, w = shape[:2]
    frame = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    inside, _ = cv2.intersectConvexConvex(region, frame)
    return inside >= IN_FRAME * whole


def worth_a_look(classifier, probs: np.ndarray) -> tuple[int, object] | None:
    """(row, card) of a candidate's unsure read worth a second look, or None.

    probs: one row per corner the candidate was read at, left unread (no corner read confidently, or
    two read as different cards).
    """
    guesses = np.array(probs, np.float64, copy=True)
    guesses[:, classifier.background_index] = 0.0
    row, best = np.unravel_index(int(np.argmax(guesses)), guesses.shape)
    card = classifier.cards[best]
    if card is None or guesses[row, best] < FLOOR:
        return None
    return int(row), card


def confirmed(classifier, card, probs: np.ndarray) -> int | None:
    """Row of the surest nudged crop when the nudged crops confirm `card`, else None."""
    if any(classifier.cards[int(np.argmax(row))] != card for row in probs):
        return None
    reads = [classifier.decide(row) for row in probs]
    agreeing = [i for i, (read, _) in enumerate(reads) if read == card]
    if len(agreeing) < AGREEING:
        return None
    return max(agreeing, key=lambda i: reads[i][1])
