"""Pictures of the simulated table: each TableStep drawn as the camera would see it.

Cards of a held-out deck (one the card classifier never trained on) are laid where players lay them
— a row in front of each player, the starter face up on the face-down stock in the centre, the crib
beside the dealer's hand — on one table and under one slightly tilted camera for the whole game, with
the renderer's compositor. The table may be a mat printed with two aces of another deck, flat, at the
ends of the centre zone, where no card is laid (device/table_print.py: what the device learns to read
past). Each picture depends only on the seed and the step number, so a resumed demo draws exactly the
frames an uninterrupted one would.
"""

from __future__ import annotations

import cv2
import numpy as np

from cribbage.cards import Card
from sim.render.backgrounds import make_background
from sim.render.camera import tilted_view
from sim.render.decks import HELD_OUT_DECKS
from sim.render.cardlook import card_sprite
from sim.render.faces import load_face
from sim.render.table import Placement, compose, item_matrix
from sim.table_script import TableStep
from vision.zone_names import CENTRE, CRIB
from vision.zones import Zones, default_zones

SIZE = (1280, 720)
# A deck held out of the classifier's training, the plainest of the three; --deck picks another.
DEFAULT_DECK = "greywyvern"
CARD_HEIGHT_SHARE = 0.22   # of the frame height: a camera over a card table
CARD_ASPECT = 0.7
DARK_GAIN = 0.08           # a dark frame: the lamp went out
SHADOW_GAIN = 0.55         # a card lying in shadow, its index corners and pips too dim and soft to read
SHADOW_BLUR = 3.0          # at its index corners (sigma, pixels) ...
SHADOW_FACE_BLUR = 8.0     # ... and over the rest of its face, inside its outline: no pip can be counted
TEXTURES = ("wood", "felt", "cloth")
NOISE_SIGMA = 3.0          # sensor noise, grey levels
STOCK_OFFSET = 0.04        # the stock lies this share of a card's height off the starter's centre (sigma) ...
STOCK_TURN = 5.0           # ... and turned this many degrees from it (sigma): its edge shows round the starter
PRINTED = (("AS", 0.355), ("AH", 0.645))  # a printed mat's cards, and where across the frame (centre zone's ends)


def table_zones(size: tuple[int, int] = SIZE, players: int = 2, *, crib: bool = False) -> Zones:
    """The simulated table's zones: the default layout (vision.zones.default_zones); with a crib zone,
    the middle band holds the starter on its left and, on its right, a crib zone four cards wide
    (where a crib would not fit beside the dealer's hand: four players, three, seven-card hands).
    Given to the device as a config's calibrated [zones] would be (the same figures it reads back)."""
    zones = default_zones(size[0], size[1], players)
    if not crib:
        return zones
    w = float(size[0])
    centre = zones[CENTRE]
    top, bottom = float(centre[:, 1].min()), float(centre[:, 1].max())
    polygons = {name: poly.tolist() for name, poly in zones.polygons.items()}
    polygons[CENTRE] = _rect(0.22 * w, top, 0.42 * w, bottom)
    polygons[CRIB] = _rect(0.46 * w, top, 0.97 * w, bottom)
    return Zones.from_config(Zones.from_config(polygons).to_config())


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


class TablePainter:
    """Draws TableSteps for one game (fixed deck, table texture and camera, from the seed).

    deck: a held-out deck's name (default DEFAULT_DECK), or a folder's faces (sim/face_folder.py),
    laid alike; zones: where the players lay their cards (default: table_zones for this many players);
    printed: the table is a mat printed with PRINTED's cards (of another held-out deck)."""

    def __init__(self, seed: int, players: int = 2, size: tuple[int, int] = SIZE, deck=None,
                 zones: Zones | None = None, printed: bool = False):
        self.seed = seed
        self.size = size
        rng = np.random.default_rng([seed, 7])
        self.deck = deck or DEFAULT_DECK
        self.texture = TEXTURES[int(rng.integers(len(TEXTURES)))]
        self.background = _exposed(make_background(rng, self.texture, size))
        self.view = tilted_view(rng, size, 0.02)
        self.lamp = _lamp(rng, size)  # the lamp does not move during a game: its fall-off is fixed
        # where the stock lies under the starter, off its centre and turned a little, the same all game:
        # drawn from numbers of its own, so that every card lies where it lay before the stock was drawn
        stock = np.random.default_rng([seed, 11])
        self.stock_offset = stock.normal(0.0, STOCK_OFFSET, 2)
        self.stock_turn = float(stock.normal(0.0, STOCK_TURN))
        self.zones: Zones = zones if zones is not None else table_zones(size, players)
        self.card_h = CARD_HEIGHT_SHARE * size[1]
        if printed:
            self.background = print_on(self.background, [
                Placement(Card.parse(card), (across * size[0], size[1] / 2), 0.0, self.card_h)
                for card, across in PRINTED], self.print_deck)

    @property
    def print_deck(self) -> str:
        """The printed mat's deck: a held-out deck other than the one laid."""
        return next(deck for deck in HELD_OUT_DECKS if deck != self.deck)

    # ---- where cards lie -------------------------------------------------------------------

    def _row(self, zone: str, cards, rng: np.random.Generator, far: bool) -> list[Placement]:
        poly = self.zones[zone]
        (x0, y0), (x1, y1) = poly.min(axis=0), poly.max(axis=0)
        pitch = CARD_ASPECT * self.card_h * 1.18
        cy = (y0 + y1) / 2
        start = x0 + 0.09 * (x1 - x0) + pitch / 2
        out = []
        for i, card in enumerate(cards):
            gap = 0.35 * pitch if i >= 4 else 0.0  # the crib lies a little apart from the hand
            x = start + i * pitch + gap + rng.normal(0, 3)
            y = cy + rng.normal(0, 4)
            angle = (180.0 if far else 0.0) + rng.normal(0, 4)
            out.append(Placement(card, (float(x), float(y)), float(angle), self.card_h))
        return out

    def placements(self, step: TableStep, rng: np.random.Generator) -> list[Placement]:
        out: list[Placement] = []
        for zone, cards in step.zones:
            if zone == CENTRE:
                (x0, y0), (x1, y1) = self.zones[zone].min(axis=0), self.zones[zone].max(axis=0)
                for i, card in enumerate(cards):
                    centre = ((x0 + x1) / 2 + i * 0.8 * self.card_h, (y0 + y1) / 2)
                    angle = float(rng.normal(0, 6))
                    if i == 0:  # the starter, turned face up on the stock
                        dx, dy = self.stock_offset * self.card_h
                        out.append(Placement(None, (centre[0] + dx, centre[1] + dy), angle + self.stock_turn,
                                             self.card_h))
                    out.append(Placement(card, centre, angle, self.card_h))
            else:  # a row in front of its player: upside down to the camera on the far side
                far = float(self.zones[zone][:, 1].mean()) < self.size[1] / 2
                out.extend(self._row(zone, cards, rng, far=far))
        return out

    # ---- drawing -----------------------------------------------------------------------------

    def draw(self, step: TableStep, index: int, look: int = 0) -> np.ndarray:
        """The camera's picture of the table at script step `index` (its `look`-th frame)."""
        rng = np.random.default_rng([self.seed, 1000 + index, look])
        placements = self.placements(step, rng)
        # realism=0 draws clean cards; the camera (lamp fall-off, sensor noise) is added below, cheaply:
        # the compositor's full photographic range costs ~6x more per frame and is for training.
        scene = compose(self.background, placements, rng, self.deck, view=self.view, realism=0.0)
        image = _camera(scene.image, self.lamp, rng)
        if step.shadow is not None:
            image = self._shade(image, scene, step.shadow)
        if step.dark:
            image = (image.astype(np.float32) * DARK_GAIN).astype(np.uint8)
        return image

    @staticmethod
    def _shade(image: np.ndarray, scene, card) -> np.ndarray:
        """Put one card in shadow: its outline still shows, its index corners and its pips are too dim and
        soft to read (the whole-card network reads a number card by its pips)."""
        import cv2

        from vision.crops import INDEX_REGION, region_quad

        for placed in scene.cards:
            if placed.card != card:
                continue
            out = image.astype(np.float32)
            card_mask = np.zeros(image.shape[:2], np.float32)
            cv2.fillConvexPoly(card_mask, np.round(placed.quad).astype(np.int32), 1.0)
            index_mask = np.zeros(image.shape[:2], np.float32)
            for corner in (placed.quad, np.roll(placed.quad, -2, axis=0)):
                region = region_quad(corner, INDEX_REGION)
                centre = region.mean(axis=0)
                grown = centre + (region - centre) * 1.6
                cv2.fillConvexPoly(index_mask, np.round(grown).astype(np.int32), 1.0)
            index_mask = cv2.GaussianBlur(index_mask * card_mask, (0, 0), 2)
            soft = cv2.GaussianBlur(out, (0, 0), SHADOW_BLUR)
            out = out * (1 - index_mask[:, :, None]) + soft * index_mask[:, :, None]
            side = float(np.linalg.norm(placed.quad[1] - placed.quad[0]))
            inside = cv2.erode(card_mask, np.ones((3, 3), np.uint8), iterations=max(1, round(0.06 * side)))
            face_mask = cv2.GaussianBlur(inside * (1 - index_mask), (0, 0), 2)
            blurred = cv2.GaussianBlur(out, (0, 0), SHADOW_FACE_BLUR)
            out = out * (1 - face_mask[:, :, None]) + blurred * face_mask[:, :, None]
            gain = 1 - (1 - SHADOW_GAIN) * cv2.GaussianBlur(card_mask, (0, 0), 1.5)
            return np.clip(out * gain[:, :, None], 0, 255).astype(np.uint8)
        return image


def print_on(background: np.ndarray, printed, deck: str) -> np.ndarray:
    """The table plane with cards printed on it: their faces drawn flat, casting no shadow."""
    h, w = background.shape[:2]
    out = background.astype(np.float32)
    for placement in printed:
        sprite = card_sprite(load_face(deck, placement.card), np.random.default_rng(0), 0.0)
        matrix = item_matrix(placement, (sprite.shape[1], sprite.shape[0]))
        warped = cv2.warpPerspective(sprite, matrix, (w, h), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = warped[:, :, 3:] / 255.0
        out = out * (1.0 - alpha) + warped[:, :, :3] * alpha
    return np.clip(out, 0, 255).astype(np.uint8)


def _exposed(background: np.ndarray, low: float = 80.0) -> np.ndarray:
    """A camera exposes for the scene: a dark cloth is not filmed as a dark frame."""
    from vision.sources.base import mean_brightness

    level = mean_brightness(background)
    if level >= low:
        return background
    return np.clip(background.astype(np.float32) * (low / max(level, 1.0)), 0, 255).astype(np.uint8)


def _lamp(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """A lamp's light over the table: brightest near a point, falling off to ~75 % (uint8 gain x255)."""
    import cv2

    w, h = size
    cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
    x = np.arange(w, dtype=np.float32)[None, :]
    y = np.arange(h, dtype=np.float32)[:, None]
    d = np.sqrt((x - cx) ** 2 + (y - cy) ** 2) / np.hypot(w, h)
    gain = np.clip(1.0 - 0.45 * d, 0.6, 1.0) * 255
    return cv2.merge([gain.astype(np.uint8)] * 3)


def _camera(image: np.ndarray, lamp: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The lamp's fall-off and a little sensor noise, as a cheap camera."""
    import cv2

    lit = cv2.multiply(image, lamp, scale=1.0 / 255)
    noise = np.empty(image.shape, np.int16)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(noise, 0, NOISE_SIGMA)
    return cv2.add(lit, noise, dtype=cv2.CV_8U)


def write_replay(seed: int, folder, *, steps: int | None = None, frames_per_step: int = 10,
                 players: int = 2) -> list[tuple[int, object]]:
    """Write the simulated game's table as numbered JPEG frames (a 10 fps replay for `muggins run`).

    Each TableStep is held for frames_per_step frames (dark ones drawn dark). Returns, per step
    written, (index of its first frame, the step), so a benchmark knows when each card appeared.
    """
    import cv2
    from pathlib import Path

    from device.config import GameConfig
    from sim.table_script import build_script

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    script = build_script(seed, GameConfig())
    painter = TablePainter(seed, players)
    written = []
    n = 0
    for index, step in enumerate(script.steps[:steps]):
        if not isinstance(step, TableStep):
            continue
        image = painter.draw(step, index)
        written.append((n, step))
        for _ in range(frames_per_step):
            cv2.imwrite(str(folder / f"frame{n:05d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
            n += 1
    return written
