"""Random table scenes of the kinds the recognizer must handle, with ground truth.

Kinds: "separate" (2-8 cards apart), "row" (overlapping rows laid as in the play, every index corner
showing), "fan" (a hand held or laid fanned: each card turned a little more than the last about a
point near their feet, each laid over the last; most top-left indices show), "backs" (card backs
only), "empty" (bare table), "distractors" (hands, phones, paper and notes among a few cards),
"oblique" (separate cards seen 25 to 45 degrees off vertical, as a phone held at the table's edge
sees them).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from cribbage.cards import FULL_DECK
from sim.render.backgrounds import TEXTURES, make_background
from sim.render.camera import oblique_view, tilted_view
from sim.render.props import PROP_SCALE, PROPS
from sim.render.table import Placement, Scene, compose
from vision.errors import VisionError

SCENE_KINDS = ("separate", "row", "fan", "backs", "empty", "distractors", "oblique")
OBLIQUE_DEGREES = (25.0, 45.0)  # how far off vertical an oblique scene's camera looks
# Card heights as a share of the frame height: a Pi camera over a card table sees cards this big.
CARD_HEIGHT_SHARE = (0.17, 0.30)
CARD_ASPECT = 0.7  # width / height; used to lay out scenes, the true shape comes from each deck


def make_scene(rng: np.random.Generator, kind: str, deck: str, size: tuple[int, int] = (1280, 720), *,
               texture: str | None = None, realism: float = 1.0, tilt: float = 0.06,
               card_share: tuple[float, float] = CARD_HEIGHT_SHARE, joker: bool = False) -> Scene:
    """A random scene of `kind` with cards of `deck` on a `texture` table (random when None), each card's
    long side a share of the frame height drawn from `card_share`. joker: one of the cards laid is the
    deck's joker (sim/render/jokers.py), where the scene lays any."""
    if kind not in SCENE_KINDS:
        raise VisionError(f"unknown scene kind {kind!r}: choose one of {', '.join(SCENE_KINDS)}")
    texture = texture or str(rng.choice(TEXTURES))
    w, h = size
    card_h = rng.uniform(*card_share) * h
    placements = {"separate": _separate, "row": _rows, "fan": _fans, "backs": _backs, "empty": lambda *a: [],
                  "distractors": _distractors, "oblique": _separate}[kind](rng, size, card_h)
    if joker:
        placements = _with_joker(rng, placements)
    background = make_background(rng, texture, size)
    view = oblique_view(size, float(rng.uniform(*OBLIQUE_DEGREES))) if kind == "oblique" else \
        tilted_view(rng, size, tilt * realism)
    scene = compose(background, placements, rng, deck, view=view, realism=realism)
    return Scene(scene.image, scene.cards, scene.props, kind=kind, texture=texture, deck=deck)


def _with_joker(rng: np.random.Generator, placements: list[Placement]) -> list[Placement]:
    """placements with one face-up card, drawn at random, laid as the joker instead."""
    faces = [i for i, p in enumerate(placements) if p.card is not None]
    if not faces:
        return placements
    i = faces[int(rng.integers(len(faces)))]
    return [dataclasses.replace(p, card=None, prop="joker") if j == i else p for j, p in enumerate(placements)]


def _deal(rng: np.random.Generator, n: int) -> list:
    return [FULL_DECK[i] for i in rng.choice(52, size=n, replace=False)]


def _spots(rng: np.random.Generator, size: tuple[int, int], card_h: float, n: int,
           radius: float | None = None) -> list[tuple[float, float]]:
    """Up to n centres at least two card radii apart, each card wholly inside the frame where it fits
    whatever its angle (a card over about 0.7 of the frame height may not: a corner may leave the frame)."""
    w, h = size
    r = radius or 0.62 * card_h  # half the card's diagonal: no overlap whatever the angles
    m = 0.04 * w                 # the camera's tilt moves things outwards by up to this much
    low = np.minimum([r + m, r + m], [w / 2, h / 2])
    spots: list[tuple[float, float]] = []
    for _ in range(400):
        if len(spots) == n:
            break
        p = rng.uniform(low, [w - low[0], h - low[1]])
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) > 2 * r + 6 for q in spots):
            spots.append((float(p[0]), float(p[1])))
    return spots


def _separate(rng: np.random.Generator, size: tuple[int, int], card_h: float) -> list[Placement]:
    n = int(rng.integers(2, 9))
    spots = _spots(rng, size, card_h, n)
    cards = _deal(rng, len(spots))
    return [Placement(c, p, float(rng.uniform(-180, 180)), card_h) for c, p in zip(cards, spots)]


def _rows(rng: np.random.Generator, size: tuple[int, int], card_h: float) -> list[Placement]:
    """One or two rows; each card laid over the last, leaving the last one's index showing."""
    w, h = size
    card_h = min(card_h, 0.24 * h)
    placements: list[Placement] = []
    cards = iter(_deal(rng, 16))
    for _ in range(int(rng.integers(1, 3))):
        n = int(rng.integers(2, 7))
        up = float(rng.uniform(-180, 180))  # the cards' common 'up', clockwise from screen up
        cascade = rng.random() < 0.25       # offset down the card (a column) rather than across it
        step = (rng.uniform(0.33, 0.5) * card_h if cascade else rng.uniform(0.36, 0.6) * CARD_ASPECT * card_h)
        a = np.deg2rad(up)
        along = np.array([-np.sin(a), np.cos(a)]) if cascade else np.array([np.cos(a), np.sin(a)])
        # Laid the other way, each new card covers the top-left index; the bottom-right one shows.
        sign = 1.0 if rng.random() < 0.7 else -1.0
        span = step * (n - 1) + 1.3 * card_h
        for _ in range(40):
            start = rng.uniform([0.62 * card_h, 0.62 * card_h], [w - 0.62 * card_h, h - 0.62 * card_h])
            end = start + sign * along * step * (n - 1)
            if 0.62 * card_h < end[0] < w - 0.62 * card_h and 0.62 * card_h < end[1] < h - 0.62 * card_h \
                    and all(np.hypot(*(start - p.centre)) > span for p in placements):
                break
        else:
            continue
        for i in range(n):
            centre = start + sign * along * step * i + rng.normal(0, 0.02 * card_h, 2)
            placements.append(Placement(next(cards), (float(centre[0]), float(centre[1])),
                                        up + float(rng.normal(0, 4)), card_h))
    return placements


def _fans(rng: np.random.Generator, size: tuple[int, int], card_h: float) -> list[Placement]:
    """One or two fans of 3-6 cards, as a player holds a hand or lays it down to show it: card i is
    turned `spread` degrees more than card i-1 about a pivot below the cards' middles, and laid over it."""
    w, h = size
    card_h = min(card_h, 0.26 * h)
    placements: list[Placement] = []
    cards = iter(_deal(rng, 12))
    for _ in range(int(rng.integers(1, 3))):
        n = int(rng.integers(3, 7))
        spread = float(rng.uniform(12, 24))               # degrees between neighbours
        reach = float(rng.uniform(0.35, 0.7)) * card_h    # pivot to each card's centre
        up = float(rng.uniform(-180, 180))                # the fan's middle card's 'up'
        radius = reach + 0.62 * card_h                    # the fan lies within this of its pivot
        low = np.minimum([radius, radius], [w / 2, h / 2])
        for _ in range(40):
            pivot = rng.uniform(low, [w - low[0], h - low[1]])
            if all(np.hypot(*(pivot - p.centre)) > 2.2 * radius for p in placements):
                break
        else:
            continue
        for i in range(n):
            angle = up + spread * (i - (n - 1) / 2) + float(rng.normal(0, 1.5))
            a = np.deg2rad(angle)
            centre = pivot + reach * np.array([np.sin(a), -np.cos(a)]) + rng.normal(0, 0.015 * card_h, 2)
            placements.append(Placement(next(cards), (float(centre[0]), float(centre[1])), angle, card_h))
    return placements


def _backs(rng: np.random.Generator, size: tuple[int, int], card_h: float) -> list[Placement]:
    spots = _spots(rng, size, card_h, int(rng.integers(1, 6)))
    placements = []
    for p in spots:
        angle = float(rng.uniform(-180, 180))
        for _ in range(int(rng.integers(1, 4)) if rng.random() < 0.4 else 1):  # sometimes a small pile
            jitter = rng.normal(0, 0.03 * card_h, 2)
            placements.append(Placement(None, (p[0] + jitter[0], p[1] + jitter[1]),
                                        angle + float(rng.normal(0, 5)), card_h))
    return placements


def _distractors(rng: np.random.Generator, size: tuple[int, int], card_h: float) -> list[Placement]:
    spots = _spots(rng, size, card_h, int(rng.integers(2, 7)))
    n_props = int(rng.integers(1, min(3, len(spots)) + 1))
    placements = []
    for i, p in enumerate(spots):
        if i < n_props:
            kind = str(rng.choice(PROPS, p=[0.4, 0.2, 0.2, 0.2]))
            scale = rng.uniform(*PROP_SCALE[kind])
            placements.append(Placement(None, p, float(rng.uniform(-180, 180)), card_h * scale, prop=kind))
        else:
            placements.append(Placement(_deal(rng, 1)[0], p, float(rng.uniform(-180, 180)), card_h))
    # Hands reach over the cards: draw them last.
    placements.sort(key=lambda q: q.prop == "hand")
    return placements
