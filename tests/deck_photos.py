"""Rendered learning photos for the learned-deck tests: one card of a held-out deck face up on a table."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from cribbage.cards import Card

DECK = "penguins"


def photo(rng: np.random.Generator, cards: list[Card], texture: str = "felt", size=(960, 540),
          height: float = 0.5, tilt: float = 15.0) -> np.ndarray:
    """The cards laid in a row across a table, upright within `tilt` degrees, each `height` of the
    frame high."""
    from sim.render.backgrounds import make_background
    from sim.render.table import Placement, compose

    step = size[0] / (len(cards) + 1)
    placements = [Placement(card, (step * (k + 1), size[1] / 2), float(rng.uniform(-tilt, tilt)), height * size[1])
                  for k, card in enumerate(cards)]
    return compose(make_background(rng, texture, size), placements, rng, DECK, realism=0.3).image


def write(folder: Path, name: str, image: np.ndarray) -> Path:
    path = folder / name
    cv2.imwrite(str(path), image)
    return path
