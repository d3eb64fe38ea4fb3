"""Make a clean rendered face look like a real card: bowed-card shading, a greyish edge, yellowing, wear."""

from __future__ import annotations

import cv2
import numpy as np

from sim.render.backgrounds import smooth_noise


def card_sprite(face: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """A BGRA float32 copy of `face` (BGRA uint8) with random real-card imperfections.

    strength 0 gives the clean face; 1 the full range used for training scenes.
    """
    sprite = face.astype(np.float32)
    h, w = face.shape[:2]
    bgr = sprite[:, :, :3]
    if strength <= 0:
        return sprite
    # A card bows a little: brightness follows a smooth profile across one axis.
    axis = np.linspace(-1, 1, w if rng.random() < 0.5 else h, dtype=np.float32)
    profile = 1.0 + strength * rng.uniform(-0.08, 0.05) * (1 - axis ** 2) + strength * rng.uniform(-0.05, 0.05) * axis
    bgr *= profile[None, :, None] if len(axis) == w else profile[:, None, None]
    # Aged or cream stock, and soiling that varies slowly over the face.
    if rng.random() < 0.4 * strength:
        bgr *= np.float32([rng.uniform(0.82, 0.97), rng.uniform(0.92, 1.0), 1.0])
    if rng.random() < 0.4 * strength:
        bgr *= (1.0 - strength * rng.uniform(0.01, 0.05) * np.abs(smooth_noise(rng, w, h, w / 3)))[:, :, None]
    # Worn cards: faint scratches and specks.
    if rng.random() < 0.3 * strength:
        marks = np.zeros((h, w), np.float32)
        for _ in range(int(rng.integers(3, 15))):
            p = rng.uniform([0, 0], [w, h]).astype(int)
            q = (p + rng.normal(0, w / 6, 2)).astype(int)
            cv2.line(marks, tuple(int(v) for v in p), tuple(int(v) for v in q), 1.0, 1, cv2.LINE_AA)
        specks = (rng.random((h, w)) < 0.0015).astype(np.float32)
        marks = np.maximum(marks * rng.uniform(0.05, 0.2), specks * rng.uniform(0.1, 0.4))
        bgr *= (1.0 - marks)[:, :, None]
    # The cut edge of the card reads darker than its face.
    if rng.random() < 0.6 * strength:
        alpha = (face[:, :, 3] > 128).astype(np.uint8)
        ring = alpha - cv2.erode(alpha, np.ones((3, 3), np.uint8), iterations=int(rng.integers(1, 3)))
        bgr *= (1.0 - rng.uniform(0.1, 0.35) * ring.astype(np.float32))[:, :, None]
    np.clip(bgr, 0, 255, out=bgr)
    return sprite
