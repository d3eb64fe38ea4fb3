"""The simulated table without its pictures, for quick whole games through the device.

`muggins demo` films rendered frames and reads them with the real recognizer (a few minutes a game).
Here the camera's frames are plain and the recognizer stand-in reports the cards where the painter
would lay them, so the rest of the device (tracker, zones, controller, journal, board) plays a whole
game in seconds: `run_demo(options, recognizer=knows, painter_for=knows)` with `knows = KnowsTheCards()`.
"""

from __future__ import annotations

import numpy as np

from sim.frames import TablePainter
from sim.table_script import TableStep
from vision.types import Recognition


class Sketch:
    """The painter's table without its pictures: a plain lit (or dark) frame of the same size, and
    the cards where the painter would lay them for the recognizer stand-in to report."""

    def __init__(self, painter: TablePainter):
        self.painter, self.size = painter, painter.size
        self.lit = np.full((painter.size[1], painter.size[0], 3), 140, np.uint8)
        self.dark = np.zeros_like(self.lit)
        self.laid: list[Recognition] = []

    def draw(self, step: TableStep, index: int, look: int = 0) -> np.ndarray:
        rng = np.random.default_rng([self.painter.seed, 1000 + index, look])
        self.laid = [] if step.dark else seen_cards(self.painter.placements(step, rng), step.shadow)
        return self.dark if step.dark else self.lit


def seen_cards(placements, shadow) -> list[Recognition]:
    """What a recognizer that never errs reports of these placements: every card face up, at its
    place, the one in shadow unread; a card face down (the stock under the starter) is no card to it."""
    return [_seen(p, shadow) for p in placements if p.card is not None]


def _seen(placement, shadow) -> Recognition:
    x, y = placement.centre
    w, h = 0.7 * placement.height, placement.height
    quad = np.float32([[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2],
                       [x - w / 2, y + h / 2]])
    return Recognition(None if placement.card == shadow else placement.card, 0.99, quad)


class KnowsTheCards:
    """A recognizer stand-in, and the painter_for of sim.demo_game.run_demo: it reads what the Sketch laid."""

    def __init__(self):
        self.sketch: Sketch | None = None

    def __call__(self, painter: TablePainter) -> Sketch:
        self.sketch = Sketch(painter)
        return self.sketch

    def recognize(self, image):
        return list(self.sketch.laid)
