"""Compose cards, backs and props onto a table and photograph it, keeping exact ground truth.

compose() is the one drawing routine behind every synthetic scene and the demo's frames: items are
drawn bottom to top in the table plane, seen through a camera homography, lit, glared, blurred and
JPEG-compressed.  Each card comes back with its whole-card quad in image pixels (clockwise, from the
corner whose index is visible) and whether an index corner is visible at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from cribbage.cards import Card
from sim.render import camera
from sim.render.cardlook import card_sprite
from sim.render.faces import load_face
from sim.render.jokers import joker_face
from sim.render.props import make_prop
from vision.crops import INDEX_REGION, region_quad

# Share of an index region that must be uncovered and inside the frame for it to count as visible.
INDEX_VISIBLE_SHARE = 0.9


@dataclass(frozen=True)
class Placement:
    """A card (card=None: a card back) or, with prop set, a prop ('hand', 'phone', 'paper', 'note', or
    'joker': the deck's joker, sim/render/jokers.py).

    centre: table-plane pixels; angle: degrees the card's top is turned clockwise on screen;
    height: the card's (or prop's) height in table-plane pixels.
    """

    card: Card | None
    centre: tuple[float, float]
    angle: float = 0.0
    height: float = 150.0
    prop: str | None = None


@dataclass(frozen=True, eq=False)
class PlacedCard:
    """Ground truth for one card in an image.

    quad: 4x2 float32 image coordinates of the whole card, clockwise, starting at the top-left of the
    upright card — or at its bottom-right, the other index corner, when only that one shows.
    index_visible: whether either index corner is uncovered and in frame.
    corners_visible: whether the index at quad[0], and the one at quad[2], is uncovered and in frame.
    """

    card: Card | None
    quad: np.ndarray
    index_visible: bool
    corners_visible: tuple[bool, bool] = (True, True)


@dataclass(frozen=True, eq=False)
class Scene:
    """A rendered frame with the ground truth of its cards (backs have card None) and props."""

    image: np.ndarray
    cards: tuple[PlacedCard, ...]
    props: tuple[tuple[str, np.ndarray], ...] = ()
    kind: str = ""
    texture: str = ""
    deck: str = ""
    notes: dict = field(default_factory=dict)


def item_matrix(placement: Placement, sprite_size: tuple[int, int]) -> np.ndarray:
    """3x3 affine from sprite pixels to the table plane: scale, turn, move to the centre."""
    w, h = sprite_size
    s = placement.height / h
    a = np.deg2rad(placement.angle)
    c, n = np.cos(a) * s, np.sin(a) * s
    cx, cy = (w - 1) / 2, (h - 1) / 2
    x, y = placement.centre
    return np.array([[c, -n, x - c * cx + n * cy], [n, c, y - n * cx - c * cy], [0, 0, 1]], np.float64)


def sprite_quad(size: tuple[int, int], matrix: np.ndarray) -> np.ndarray:
    """The sprite's outer edge (clockwise from its top-left) mapped by matrix, as 4x2 float32."""
    w, h = size
    corners = np.float32([[[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]]])
    return cv2.perspectiveTransform(corners, matrix)[0]


def compose(background: np.ndarray, placements: list[Placement] | tuple[Placement, ...],
            rng: np.random.Generator, deck, *, view: np.ndarray | None = None,
            realism: float = 1.0) -> Scene:
    """Draw placements (bottom first) on background as a camera with homography `view` sees them.

    background: BGR uint8 table plane, the size of the output image.  deck: a deck's name
    (sim/render/faces.py), or faces of one's own: anything whose `face(card)` gives a face as
    load_face does (sim/face_folder.py's FaceFolder).  view: table-to-image homography (None:
    identity, an overhead camera).  realism: 0 draws clean cards under flat light with no blur,
    noise or JPEG; 1 the full random range used for training.
    """
    h, w = background.shape[:2]
    view = np.eye(3) if view is None else np.asarray(view, np.float64)
    image = cv2.warpPerspective(background, view, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    light = rng.normal(0, 1, 2)
    light = light / (np.linalg.norm(light) + 1e-9)
    shadow_gain = rng.uniform(0.15, 0.45)
    gloss = np.zeros((h, w), np.float32)
    drawn: list[tuple[Placement, np.ndarray, tuple[int, int], np.ndarray]] = []
    for placement in placements:
        if placement.prop is None:
            face = load_face(deck, placement.card) if isinstance(deck, str) else deck.face(placement.card)
            sprite = card_sprite(face, rng, realism)
        elif placement.prop == "joker":
            sprite = card_sprite(joker_face(deck, rng), rng, realism)
        else:
            sprite = make_prop(rng, placement.prop, int(placement.height))
        size = (sprite.shape[1], sprite.shape[0])
        matrix = view @ item_matrix(placement, size)
        quad = sprite_quad(size, matrix)
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            drawn.append((placement, quad, (0, 0), np.zeros((0, 0), np.float32)))
            continue
        local = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ matrix
        warped = cv2.warpPerspective(sprite, local, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3] / 255.0
        _cast_shadow(image, alpha, (x0, y0), light * placement.height * rng.uniform(0.01, 0.04),
                     placement.height * rng.uniform(0.01, 0.04), shadow_gain)
        roi = image[y0:y1, x0:x1]
        roi *= (1.0 - alpha)[:, :, None]
        roi += warped[:, :, :3] * alpha[:, :, None]
        if placement.prop in (None, "phone", "joker"):
            np.maximum(gloss[y0:y1, x0:x1], alpha, out=gloss[y0:y1, x0:x1])
        drawn.append((placement, quad, (x0, y0), alpha))
    cards = _ground_truth(drawn, (w, h))
    if realism > 0:
        camera.lighting(rng, image, realism)
        for _ in range(int(rng.integers(0, 3))):
            if cards and rng.random() < 0.6:
                target = cards[int(rng.integers(len(cards)))].quad.mean(axis=0)
            else:
                target = rng.uniform([0, 0], [w, h])
            size = rng.uniform(0.2, 0.9) * (placements[0].height if placements else h / 5)
            camera.glare(rng, image, 0.25 + 0.75 * gloss, tuple(target + rng.normal(0, size / 2, 2)),
                         size, realism * rng.uniform(30, 170))
    out = camera.degrade(rng, image, realism) if realism > 0 else np.clip(image, 0, 255).astype(np.uint8)
    props = tuple((p.prop, q) for p, q, _, _ in drawn if p.prop is not None)
    return Scene(out, tuple(cards), props, deck=str(deck))


def _cast_shadow(image: np.ndarray, alpha: np.ndarray, origin: tuple[int, int], offset: np.ndarray,
                 softness: float, gain: float) -> None:
    """Darken the table under and beside an item before it is drawn (soft, offset from the light)."""
    h, w = image.shape[:2]
    pad = int(abs(offset).max() + 3 * softness + 2)
    x0, y0 = origin
    ah, aw = alpha.shape
    bx0, by0, bx1, by1 = max(x0 - pad, 0), max(y0 - pad, 0), min(x0 + aw + pad, w), min(y0 + ah + pad, h)
    canvas = np.zeros((by1 - by0, bx1 - bx0), np.float32)
    shift = np.float32([[1, 0, x0 - bx0 + offset[0]], [0, 1, y0 - by0 + offset[1]]])
    canvas = cv2.warpAffine(alpha.astype(np.float32), shift, (bx1 - bx0, by1 - by0))
    canvas = cv2.GaussianBlur(canvas, (0, 0), max(0.5, softness))
    image[by0:by1, bx0:bx1] *= (1.0 - gain * canvas)[:, :, None]


def _ground_truth(drawn, size: tuple[int, int]) -> list[PlacedCard]:
    """Quads and index visibility of the cards, given what lies above each one."""
    w, h = size
    covered = np.zeros((h, w), np.uint8)
    found: list[PlacedCard] = []
    for placement, quad, (x0, y0), alpha in reversed(drawn):
        if placement.prop is None:
            top_left = _visible_share(region_quad(quad, INDEX_REGION), covered)
            bottom_right = _visible_share(region_quad(np.roll(quad, -2, axis=0), INDEX_REGION), covered)
            shown = (top_left >= INDEX_VISIBLE_SHARE, bottom_right >= INDEX_VISIBLE_SHARE)
            if top_left >= INDEX_VISIBLE_SHARE or top_left >= bottom_right:
                found.append(PlacedCard(placement.card, quad, shown[0], shown))
            else:
                found.append(PlacedCard(placement.card, np.roll(quad, -2, axis=0).copy(), shown[1], shown[::-1]))
        if alpha.size:
            ah, aw = alpha.shape
            covered[y0:y0 + ah, x0:x0 + aw] |= (alpha > 0.5).astype(np.uint8)
    return found[::-1]


def _visible_share(region: np.ndarray, covered: np.ndarray) -> float:
    """Share of a region's area that is inside the frame and not covered."""
    h, w = covered.shape
    x0, y0 = np.floor(region.min(axis=0)).astype(int)
    x1, y1 = np.ceil(region.max(axis=0)).astype(int) + 1
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round((region - [x0, y0]) * 4).astype(np.int32), 1, cv2.LINE_8, 2)
    total = int(mask.sum())
    if total == 0:
        return 0.0
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    inside = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    free = inside & (1 - covered[cy0:cy1, cx0:cx1])
    return float(free.sum()) / total
