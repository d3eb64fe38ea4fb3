"""Things on a table that are not cards: hands, phones, sheets of paper, sticky notes, and print.

Each is a BGRA float32 sprite drawn upright; the compositor places and warps it like a card, so the
finder and classifier meet skin, dark glass and white paper — the usual sources of false cards.
"Print" (a book, a box, a newspaper) is set in the training fonts with Pillow, so only training
draws it: letters, numbers and suit signs that are no card's index.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.errors import VisionError

PROPS = ("hand", "phone", "paper", "note", "print")
# Size of each prop relative to the card height: (low, high).
PROP_SCALE = {"hand": (1.3, 2.2), "phone": (1.5, 1.8), "paper": (2.0, 3.5), "note": (0.8, 1.0), "print": (1.6, 3.5)}


def make_prop(rng: np.random.Generator, kind: str, height: int) -> np.ndarray:
    """A prop of `kind` (one of PROPS), BGRA float32, `height` pixels high."""
    makers = {"hand": _hand, "phone": _phone, "paper": _paper, "note": _note, "print": _print}
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


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _token(rng: np.random.Generator, suits: bool) -> str:
    """A word of print: mostly letters, sometimes a number or a lone rank, and with `suits` a suit sign."""
    roll = rng.random()
    if roll < 0.15:
        return str(int(rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 52, 121, 1999, 2024])))
    if roll < 0.25:
        return str(rng.choice(list("AKQJ") + ["10", "9", "7"]))
    if suits and roll < 0.35:
        return str(rng.choice(list("\u2660\u2663\u2665\u2666")))
    word = "".join(rng.choice(list(_LETTERS), size=int(rng.integers(2, 10))))
    return word.upper() if rng.random() < 0.3 else word.capitalize() if rng.random() < 0.4 else word.lower()


def _stamp(canvas: np.ndarray, ink: np.ndarray, x: int, y: int, colour: np.ndarray) -> None:
    h, w = canvas.shape[:2]
    ih, iw = ink.shape
    x1, y1 = min(x + iw, w), min(y + ih, h)
    if x1 <= x or y1 <= y or x < 0 or y < 0:
        return
    a = ink[:y1 - y, :x1 - x, None]
    canvas[y:y1, x:x1] = canvas[y:y1, x:x1] * (1 - a) + colour * a


def _print(rng: np.random.Generator, height: int) -> np.ndarray:
    """A book's or a box's cover, or a page of a newspaper: artwork and lines of text, some of it big."""
    from sim.render.fontdecks import INSTALL_HINT, glyph_ink, index_fonts, split_fonts, suit_fonts

    training_fonts = split_fonts(index_fonts())[0]
    if not training_fonts:
        raise VisionError(f"print props are set in the training fonts, and none is installed: run `{INSTALL_HINT}`")
    w = int(height * rng.uniform(0.6, 1.4))
    page = rng.random() < 0.4
    if page:
        bgr = np.full((height, w, 3), rng.uniform(200, 245), np.float32) * np.float32([rng.uniform(0.9, 1.0), 1, 1])
    else:
        hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(40, 255), rng.uniform(40, 255)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
        bgr = np.broadcast_to(base, (height, w, 3)).copy()
        bgr *= np.linspace(rng.uniform(0.7, 1.1), rng.uniform(0.7, 1.1), height, dtype=np.float32)[:, None, None]
        for _ in range(int(rng.integers(1, 7))):  # artwork: bold shapes in other colours
            colour = tuple(float(v) for v in rng.uniform(0, 255, 3))
            centre = (int(rng.uniform(0, w)), int(rng.uniform(0, height)))
            axes = (int(rng.uniform(0.05, 0.4) * w), int(rng.uniform(0.05, 0.4) * height))
            if rng.random() < 0.5:
                cv2.ellipse(bgr, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
            else:
                cv2.rectangle(bgr, (centre[0] - axes[0], centre[1] - axes[1]), (centre[0] + axes[0], centre[1] + axes[1]),
                              colour, -1 if rng.random() < 0.7 else max(1, height // 80))
    with_suits = [f for f in suit_fonts() if f in training_fonts]
    y = int(height * rng.uniform(0.03, 0.1))
    title = not page or rng.random() < 0.5
    while y < height * 0.95:
        size = height * (rng.uniform(0.07, 0.2) if title else rng.uniform(0.015, 0.05))
        title = rng.random() < 0.15
        font = training_fonts[int(rng.integers(len(training_fonts)))]
        suits = font in with_suits and rng.random() < 0.5
        if page or rng.random() < 0.5:
            colour = np.float32(rng.uniform(0, 70, 3)) if rng.random() < 0.8 else np.float32([40, 40, rng.uniform(150, 220)])
        else:
            colour = np.float32(rng.uniform(0, 255, 3))
        x = int(w * rng.uniform(0.03, 0.15))
        while x < w * 0.95:
            ink = glyph_ink(font, _token(rng, suits), size * rng.uniform(0.7, 1.0))
            _stamp(bgr, ink, x, y + int(size - ink.shape[0]), colour)
            x += ink.shape[1] + int(size * rng.uniform(0.25, 0.6))
        y += int(size * rng.uniform(1.2, 1.8))
    return np.dstack([np.clip(bgr, 0, 255), np.full((height, w), 255, np.float32)])
