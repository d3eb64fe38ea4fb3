"""Procedural table surfaces: wood, felt of any colour, woven and patterned cloth, a dark mat, a light table.

Generated rather than photographed, so there is no licence to track and every seed gives a new table.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import VisionError

TEXTURES = ("wood", "felt", "cloth", "dark_mat", "light_table")


def make_background(rng: np.random.Generator, kind: str, size: tuple[int, int]) -> np.ndarray:
    """A table surface of `kind` (one of TEXTURES), BGR uint8, size (width, height)."""
    makers = {"wood": _wood, "felt": _felt, "cloth": _cloth, "dark_mat": _dark_mat,
              "light_table": _light_table}
    if kind not in makers:
        raise VisionError(f"unknown table texture {kind!r}: choose one of {', '.join(TEXTURES)}")
    width, height = size
    image = makers[kind](rng, width, height)
    return np.clip(image, 0, 255).astype(np.uint8)


def smooth_noise(rng: np.random.Generator, width: int, height: int, cell: float) -> np.ndarray:
    """Zero-mean, unit-ish noise varying over about `cell` pixels, float32 height x width."""
    gw, gh = max(2, int(width / cell) + 2), max(2, int(height / cell) + 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    return cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC)


def _hsv_colour(h: float, s: float, v: float) -> np.ndarray:
    pixel = np.uint8([[[int(h) % 180, int(np.clip(s, 0, 255)), int(np.clip(v, 0, 255))]]])
    return cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _fill(colour: np.ndarray, width: int, height: int) -> np.ndarray:
    return np.broadcast_to(colour, (height, width, 3)).astype(np.float32).copy()


def _wood(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    vertical = rng.random() < 0.5
    w, h = (height, width) if vertical else (width, height)
    base = _hsv_colour(rng.uniform(8, 22), rng.uniform(90, 200), rng.uniform(70, 210))
    # Growth rings: stripes along x, bent by slow noise.
    y = np.arange(h, dtype=np.float32)[:, None]
    bend = smooth_noise(rng, w, h, rng.uniform(150, 400)) * rng.uniform(10, 40)
    rings = np.sin((y + bend) * rng.uniform(0.05, 0.25))
    rings = np.sign(rings) * np.abs(rings) ** 0.5
    # Fine streaks: noise stretched along the grain.
    streaks = cv2.resize(rng.standard_normal((h, max(2, w // 60))).astype(np.float32), (w, h),
                         interpolation=cv2.INTER_LINEAR)
    shade = 1.0 + 0.07 * rings + 0.05 * streaks + 0.06 * smooth_noise(rng, w, h, 250)
    image = _fill(base, w, h) * shade[:, :, None]
    # Planks: seams across the grain, a colour shift per plank.
    pitch = int(rng.uniform(0.12, 0.4) * h)
    for top in range(int(rng.uniform(0, pitch)), h, pitch):
        image[top:top + pitch] *= rng.uniform(0.88, 1.12)
        image[top:top + 2] *= 0.55
    return image.transpose(1, 0, 2).copy() if vertical else image


def _felt(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    base = _hsv_colour(rng.uniform(0, 180), rng.uniform(60, 255), rng.uniform(50, 200))
    fibres = cv2.GaussianBlur(rng.standard_normal((height, width)).astype(np.float32), (0, 0), 0.8)
    shade = 1.0 + 0.10 * fibres + 0.05 * smooth_noise(rng, width, height, 120)
    return _fill(base, width, height) * shade[:, :, None]


def _cloth(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    base = _hsv_colour(rng.uniform(0, 180), rng.uniform(30, 230), rng.uniform(60, 230))
    x = np.arange(width, dtype=np.float32)[None, :]
    y = np.arange(height, dtype=np.float32)[:, None]
    period = rng.uniform(2.5, 6)
    weave = np.sin(2 * np.pi * x / period) * np.sin(2 * np.pi * y / period)
    image = _fill(base, width, height) * (1.0 + 0.08 * weave + 0.04 * smooth_noise(rng, width, height, 90))[:, :, None]
    pattern = rng.choice(["plain", "stripes", "check"], p=[0.4, 0.3, 0.3])
    if pattern != "plain":
        other = _hsv_colour(rng.uniform(0, 180), rng.uniform(0, 200), rng.uniform(80, 250))
        pitch = rng.uniform(12, 60)
        band_x = (np.mod(x, pitch) < pitch / 2).astype(np.float32)
        band = band_x if pattern == "stripes" else 0.5 * (band_x + (np.mod(y, pitch) < pitch / 2))
        band = np.broadcast_to(band, (height, width))
        mix = rng.uniform(0.3, 0.8) * band[:, :, None]
        image = image * (1 - mix) + other * mix * (1.0 + 0.08 * weave[:, :, None])
    return image


def _dark_mat(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    base = _hsv_colour(rng.uniform(0, 180), rng.uniform(0, 120), rng.uniform(15, 60))
    grain = rng.standard_normal((height, width)).astype(np.float32)
    shade = 1.0 + 0.08 * grain + 0.08 * smooth_noise(rng, width, height, 200)
    return _fill(base, width, height) * shade[:, :, None]


def _light_table(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    base = _hsv_colour(rng.uniform(10, 40), rng.uniform(0, 45), rng.uniform(170, 235))
    shade = 1.0 + 0.01 * smooth_noise(rng, width, height, 40) + 0.02 * smooth_noise(rng, width, height, 300)
    return _fill(base, width, height) * shade[:, :, None]
