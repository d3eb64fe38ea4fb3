"""Things on a table that are not cards: hands, phones, sheets of paper, sticky notes.

Each is a BGRA float32 sprite drawn upright; the compositor places and warps it like a card, so the
finder and classifier meet skin, dark glass and white paper — the usual sources of false cards.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import VisionError

PROPS = ("hand", "phone", "paper", "note")
# Size of each prop relative to the card height: (low, high).
PROP_SCALE = {"hand": (1.3, 2.2), "phone": (1.5, 1.8), "paper": (2.0, 3.5), "note": (0.8, 1.0)}


def make_prop(rng: np.random.Generator, kind: str, height: int) -> np.ndarray:
    """A prop of `kind` (one of PROPS), BGRA float32, `height` pixels high."""
    makers = {"hand": _hand, "phone": _phone, "paper": _paper, "note": _note}
    if kind not in makers:
        raise VisionError(f"unknown prop {kind!r}: choose one of {', '.join(PROPS)}")
    return makers[kind](rng, max(16, int(height)))


def _skin(rng: np.random.Generator) -> np.ndarray:
    hsv = np.uint8([[[rng.uniform(4, 18), rng.uniform(50, 170), rng.uniform(70, 235)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _hand(rng: np.random.Generator, height: int) -> np.ndarray:
    w = int(height * 0.75)
    mask = np.zeros((height, w), np.uint8)
    palm_c = (w // 2, int(height * 0.68))
    cv2.ellipse(mask, palm_c, (int(w * 0.36), int(height * 0.26)), 0, 0, 360, 255, -1)
    cv2.rectangle(mask, (int(w * 0.28), int(height * 0.8)), (int(w * 0.72), height), 255, -1)  # wrist
    fingers = int(rng.integers(3, 5))
    thick = max(3, int(w * rng.uniform(0.13, 0.17)))
    for i in range(fingers):
        x = int(w * (0.22 + 0.56 * i / max(1, fingers - 1)))
        top = int(height * rng.uniform(0.05, 0.3))
        bend = int(rng.normal(0, w * 0.04))
        cv2.line(mask, (x, int(height * 0.55)), (x + bend, top), 255, thick, cv2.LINE_AA)
    # Thumb, to one side.
    side = 1 if rng.random() < 0.5 else -1
    cv2.line(mask, palm_c, (int(w / 2 + side * w * 0.48), int(height * 0.42)), 255, thick + 2, cv2.LINE_AA)
    alpha = cv2.GaussianBlur(mask, (0, 0), 1.0).astype(np.float32)
    shade = cv2.GaussianBlur(mask, (0, 0), max(2.0, w * 0.06)).astype(np.float32) / 255.0
    bgr = _skin(rng)[None, None, :] * (0.65 + 0.4 * shade[:, :, None])
    return np.dstack([bgr, alpha])


def _rounded_mask(width: int, height: int, radius: int) -> np.ndarray:
    mask = np.zeros((height, width), np.uint8)
    r = max(1, min(radius, width // 2 - 1, height // 2 - 1))
    cv2.rectangle(mask, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width - 1, height - 1 - r), 255, -1)
    for cx, cy in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _phone(rng: np.random.Generator, height: int) -> np.ndarray:
    w = int(height * rng.uniform(0.46, 0.52))
    mask = _rounded_mask(w, height, int(w * 0.15))
    body = rng.uniform(10, 60) * np.ones(3, np.float32)
    bgr = np.broadcast_to(body, (height, w, 3)).copy()
    m = max(2, int(w * 0.05))
    screen = bgr[m:height - m, m:w - m]
    if rng.random() < 0.5:  # screen on: a bright app with a few blocks
        screen[:] = rng.uniform(120, 255, 3)
        for _ in range(int(rng.integers(2, 8))):
            x0, y0 = int(rng.uniform(0, screen.shape[1] - 4)), int(rng.uniform(0, screen.shape[0] - 4))
            cv2.rectangle(screen, (x0, y0), (x0 + int(rng.uniform(4, w / 2)), y0 + int(rng.uniform(4, height / 8))),
                          tuple(float(v) for v in rng.uniform(0, 255, 3)), -1)
    else:
        screen[:] = rng.uniform(5, 35) + np.linspace(0, rng.uniform(0, 40), screen.shape[0])[:, None, None]
    return np.dstack([bgr, mask.astype(np.float32)])


def _paper(rng: np.random.Generator, height: int) -> np.ndarray:
    w = int(height * rng.uniform(0.68, 0.75))
    tone = rng.uniform(215, 250)
    bgr = np.full((height, w, 3), tone, np.float32) * np.float32([rng.uniform(0.92, 1.0), 1.0, 1.0])
    gap = max(6, int(height * rng.uniform(0.025, 0.04)))
    for y in range(int(height * 0.08), int(height * 0.92), gap):  # printed or written lines
        x1 = int(w * rng.uniform(0.5, 0.9))
        cv2.line(bgr, (int(w * 0.08), y), (x1, y), (90.0, 90.0, 90.0) if rng.random() < 0.7 else (140.0, 60.0, 40.0),
                 max(1, gap // 5))
    return np.dstack([bgr, np.full((height, w), 255, np.float32)])


def _note(rng: np.random.Generator, height: int) -> np.ndarray:
    hsv = np.uint8([[[rng.choice([25, 30, 90, 160, 10]), rng.uniform(60, 200), rng.uniform(200, 255)]]])
    colour = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    bgr = np.broadcast_to(colour, (height, height, 3)).copy()
    for y in range(height // 5, height - 4, max(5, height // 7)):  # a score pad: pencilled numbers
        cv2.line(bgr, (height // 8, y), (int(height * rng.uniform(0.3, 0.8)), y), (70.0, 70.0, 70.0), 1)
    return np.dstack([bgr, np.full((height, height), 255, np.float32)])
