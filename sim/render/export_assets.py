"""Write the held-out decks' faces under sim/assets/faces/, so a machine without the SVG package works.

Run where kdegames-card-data-kf5 is installed:  python -m sim.render.export_assets
Each deck gets <CARD>.jpg (and BACK.jpg) plus one mask.png, the median alpha of all its faces
(every face of a deck has the same rounded outline), which keeps the whole set to a few MB.
"""

from __future__ import annotations

import sys

import cv2
import numpy as np

from cribbage.cards import FULL_DECK
from sim.render.decks import HELD_OUT_DECKS, svg_file
from sim.render.faces import ASSET_DIR, MASK_NAME, _load_rendered, card_name

JPEG_QUALITY = 90


def export_deck(deck: str) -> int:
    """Write one deck's assets; return the bytes written."""
    folder = ASSET_DIR / deck
    folder.mkdir(parents=True, exist_ok=True)
    faces = {card: _load_rendered(deck, card) for card in (*FULL_DECK, None)}
    mask = np.median(np.stack([f[:, :, 3] for f in faces.values()]), axis=0).astype(np.uint8)
    total = 0
    cv2.imwrite(str(folder / MASK_NAME), mask, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    total += (folder / MASK_NAME).stat().st_size
    for card, face in faces.items():
        bgr = face[:, :, :3].copy()
        solid = face[:, :, 3] == 255
        bgr[face[:, :, 3] == 0] = np.median(bgr[solid], axis=0) if solid.any() else 255
        path = folder / f"{card_name(card)}.jpg"
        cv2.imwrite(str(path), bgr, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        total += path.stat().st_size
    return total


def main() -> int:
    missing = [d for d in HELD_OUT_DECKS if svg_file(d) is None]
    if missing:
        print(f"not installed: {', '.join(missing)}; run `sudo apt install kdegames-card-data-kf5`",
              file=sys.stderr)
        return 1
    for deck in HELD_OUT_DECKS:
        print(f"{deck}: {export_deck(deck) / 1e6:.2f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
