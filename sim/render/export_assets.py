"""Write the held-out decks' faces under sim/assets/faces/, so a machine without their packages works.

    python -m sim.render.export_assets [--cardsets DIR]

`penguins` is rendered from kdegames-card-data-kf5's SVG. `greywyvern` and `xskat-french-large` are
PySol cardsets, one image a card (`01s.png` .. `13h.gif`), from Debian's pysolfc-cardsets (3.0+dfsg-1,
trixie): DIR is its /usr/share/games/pysolfc, or the same folder of an unpacked package
(`apt-get download pysolfc-cardsets && dpkg-deb -x pysolfc-cardsets_*.deb x`). Those cardsets ship
no back: theirs is the penguins deck's.

Each deck gets <CARD>.jpg (and BACK.jpg) plus one mask.png, the median alpha of all its faces
(every face of a deck has the same rounded outline), which keeps the whole set to a few MB.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from cribbage.cards import FULL_DECK, Card
from sim.render.decks import HELD_OUT_DECKS, INSTALL_HINT, svg_file
from sim.render.faces import ASSET_DIR, FACE_HEIGHT, MASK_NAME, _load_rendered, bitmap_face, card_name
from vision.errors import VisionError

JPEG_QUALITY = 90
# deck: its PySol cardset's folder and file suffix
CARDSETS = {"greywyvern": ("cardset-greywyvern", ".png"), "xskat-french-large": ("cardset-xskat-french-large", ".gif")}
CARDSETS_BACK = "penguins"
CARDSETS_HINT = ("give --cardsets: the /usr/share/games/pysolfc folder of Debian's pysolfc-cardsets "
                 "(`apt-get download pysolfc-cardsets`, then `dpkg-deb -x` it)")


def write_deck(deck: str, faces: dict[Card | None, np.ndarray]) -> int:
    """Write one deck's assets from its BGRA faces (the back under None); return the bytes written."""
    folder = ASSET_DIR / deck
    folder.mkdir(parents=True, exist_ok=True)
    mask = np.median(np.stack([f[:, :, 3] for f in faces.values()]), axis=0).astype(np.uint8)
    total = 0
    cv2.imwrite(str(folder / MASK_NAME), mask, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    total += (folder / MASK_NAME).stat().st_size
    for card, face in faces.items():
        path = folder / f"{card_name(card)}.jpg"
        cv2.imwrite(str(path), flat_face(face), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        total += path.stat().st_size
    return total


def flat_face(face: np.ndarray) -> np.ndarray:
    """A BGRA face as a BGR rectangle, what lies outside its rounded outline painted the card's median
    colour: a JPEG has no alpha (the committed faces lay it back with their deck's mask)."""
    bgr = face[:, :, :3].copy()
    solid = face[:, :, 3] == 255
    bgr[face[:, :, 3] == 0] = np.median(bgr[solid], axis=0) if solid.any() else 255
    return bgr


def svg_faces(deck: str) -> dict[Card | None, np.ndarray]:
    return {card: _load_rendered(deck, card) for card in (*FULL_DECK, None)}


def cardset_faces(folder: Path, suffix: str, back: np.ndarray) -> dict[Card | None, np.ndarray]:
    """A PySol cardset's 52 faces (`01s.png`: the ace of spades), FACE_HEIGHT high, the back given."""
    paths = {card: folder / f"{card.rank:02d}{card.suit.lower()}{suffix}" for card in FULL_DECK}
    try:
        width = bitmap_face(paths[Card(1, "S")], FACE_HEIGHT).shape[1]
        faces: dict[Card | None, np.ndarray] = {card: bitmap_face(path, FACE_HEIGHT, width)
                                                for card, path in paths.items()}
    except VisionError as exc:
        raise SystemExit(f"{exc}; is {folder} a PySol cardset?") from None
    faces[None] = cv2.resize(back, (width, FACE_HEIGHT), interpolation=cv2.INTER_AREA)
    return faces


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sim.render.export_assets", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cardsets", type=Path, help="pysolfc-cardsets' /usr/share/games/pysolfc folder")
    args = parser.parse_args(argv)
    rendered = [d for d in HELD_OUT_DECKS if d not in CARDSETS]
    missing = [d for d in rendered if svg_file(d) is None]
    if missing:
        print(f"not installed: {', '.join(missing)}; run `{INSTALL_HINT}`", file=sys.stderr)
        return 1
    if args.cardsets is None or not all((args.cardsets / folder).is_dir() for folder, _ in CARDSETS.values()):
        print(CARDSETS_HINT, file=sys.stderr)
        return 1
    for deck in rendered:
        print(f"{deck}: {write_deck(deck, svg_faces(deck)) / 1e6:.2f} MB", flush=True)
    back = _load_rendered(CARDSETS_BACK, None)
    for deck in HELD_OUT_DECKS:
        if deck in CARDSETS:
            folder, suffix = CARDSETS[deck]
            faces = cardset_faces(args.cardsets / folder, suffix, back)
            print(f"{deck}: {write_deck(deck, faces) / 1e6:.2f} MB", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
