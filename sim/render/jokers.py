"""Jokers: card-shaped, printed like their deck's cards, and no card the device may read.

A real deck comes with two jokers, and players leave them on the table. Their corner holds a word
stacked letter over letter (JOKER), a star or another sign where a card prints its rank and suit, so
a model that never met one reads it as the card its corner looks most like (a "$"-like sign read as
an 8 of clubs). Training lays a joker in some scenes (`python -m models.training --jokers SHARE`) and
labels its corners "not a card". Each joker is drawn from its deck's own face: the same shape, stock
and, for a font deck, the same font and inks.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from cribbage.cards import Card
from sim.render.fontdecks import (REFERENCE_SUIT_FONT, _glyph, _has_glyphs, _stamp, deck_style, index_fonts,
                                  is_font_deck)

JOKER_WORD = "JOKER"
# Signs printed in a joker's corner: never a rank or a suit.
JOKER_SIGNS = ("\u2605", "\u2606", "\u2726", "\u272a", "\u2736", "$", "&", "?", "%", "@", "*", "#", "+")
CORNER_KINDS = ("word", "sign", "word and sign")


def joker_face(deck: str, rng: np.random.Generator) -> np.ndarray:
    """A joker of `deck` as BGRA uint8, the size and shape of its faces, drawn at random from rng."""
    from sim.render.decks import training_decks
    from sim.render.faces import load_face

    base = load_face(deck, Card(2, "S"))
    h, w = base.shape[:2]
    if is_font_deck(deck):
        style = deck_style(deck, training_decks())
        paper, font = np.float32(style.stock), style.rank_font
        inks = (style.black, style.red)
        margin, letter = style.margin, style.rank_height
    else:
        # Beside a two's pips, between the corner index and the middle: the deck's paper.
        strip = base[round(0.42 * h):round(0.58 * h), round(0.04 * w):round(0.14 * w), :3]
        paper = np.median(strip.reshape(-1, 3), axis=0).astype(np.float32)
        fonts = index_fonts()
        font = fonts[int(rng.integers(len(fonts)))]
        inks = ((int(rng.uniform(0, 60)),) * 3, (int(rng.uniform(0, 90)), int(rng.uniform(0, 80)),
                                                  int(rng.uniform(170, 245))))
        margin, letter = (rng.uniform(0.03, 0.1), rng.uniform(0.02, 0.07)), rng.uniform(0.06, 0.14)
    face = np.empty((h, w, 3), np.uint8)
    face[:] = np.clip(paper, 0, 255).astype(np.uint8)
    colour = inks[int(rng.integers(2))]
    kind = CORNER_KINDS[int(rng.integers(len(CORNER_KINDS)))]
    sign = JOKER_SIGNS[int(rng.integers(len(JOKER_SIGNS)))]
    word_px = h * rng.uniform(0.035, 0.06)  # the stacked letters are small on printed jokers
    sign_font = _sign_font(font, sign)
    for _ in range(2):  # each index corner, then turn the card
        _draw_corner(face, kind, sign, sign_font, font, colour, margin, letter * h, word_px)
        face = cv2.rotate(face, cv2.ROTATE_180)
    _draw_middle(face, rng, sign, sign_font, font, colour)
    return np.dstack([face, base[:, :, 3]])


def _sign_font(font: Path, sign: str) -> Path | None:
    """A font that sets `sign`: the deck's own, else DejaVu Sans; None when neither does."""
    for candidate in (font, REFERENCE_SUIT_FONT):
        if candidate.is_file() and _has_glyphs(candidate, sign):
            return candidate
    return None


def _draw_corner(face: np.ndarray, kind: str, sign: str, sign_font: Path | None, font: Path, colour, margin,
                 sign_px: float, word_px: float) -> None:
    """The top-left corner: JOKER stacked letter over letter in `font`, a sign in `sign_font` (none
    where no font sets it), or the word above the sign."""
    h, w = face.shape[:2]
    left, top = margin[0] * w, margin[1] * h
    axis = left + 0.6 * word_px
    if kind in ("word", "word and sign"):
        for ch in JOKER_WORD:
            ink = _glyph(font, ch, word_px)
            _stamp(face, ink, axis - ink.shape[1] / 2, top, colour)
            top += ink.shape[0] * 1.2
    if kind != "word" and sign_font is not None:
        ink = _glyph(sign_font, sign, sign_px if kind == "sign" else 0.8 * word_px)
        _stamp(face, ink, left if kind == "sign" else axis - ink.shape[1] / 2, top, colour)


def _draw_middle(face: np.ndarray, rng: np.random.Generator, sign: str, sign_font: Path | None, font: Path,
                 colour) -> None:
    """The picture: a big sign, the word across the card, or a jester's bright patches."""
    h, w = face.shape[:2]
    choice = int(rng.integers(3))
    if choice == 0 and sign_font is not None:
        ink = _glyph(sign_font, sign, rng.uniform(0.25, 0.45) * h)
        _stamp(face, ink, (w - ink.shape[1]) / 2, (h - ink.shape[0]) / 2, colour)
    elif choice == 1:
        ink = _glyph(font, JOKER_WORD, rng.uniform(0.08, 0.14) * h)
        ink = cv2.resize(ink, (round(0.6 * w), ink.shape[0]), interpolation=cv2.INTER_AREA)
        _stamp(face, ink, 0.2 * w, (h - ink.shape[0]) / 2, colour)
    else:
        for _ in range(int(rng.integers(4, 9))):
            centre = (int(rng.uniform(0.3, 0.7) * w), int(rng.uniform(0.3, 0.7) * h))
            axes = (int(rng.uniform(0.04, 0.15) * w), int(rng.uniform(0.04, 0.15) * h))
            bright = tuple(int(c) for c in rng.uniform(0, 255, 3))
            cv2.ellipse(face, centre, axes, float(rng.uniform(0, 180)), 0, 360, bright, -1, cv2.LINE_AA)
