"""`muggins recognize [--json] [--overlay DIR] [--deck NAME] IMAGE...`: read the cards in still images.

With --json, one line per image, exactly docs/DESIGN.md's contract:
{"file": ..., "cards": [{"card": "5H", "confidence": 0.998, "quad": [[x, y], ...4]}], "ms": ...}
A file that cannot be read gets one error line on stderr; the others are still read, and the exit
status is 2 at the end. --deck reads with a learned deck (`muggins deck learn`); one that is corrupt or
foreign is refused on stderr, naming its file, and the images are read without it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG, ...)")
    parser.add_argument("--json", action="store_true", help="one JSON line per image")
    parser.add_argument("--overlay", metavar="DIR", type=Path,
                        help="write each image with outlines and labels drawn into DIR")
    parser.add_argument("--model", metavar="FILE", type=Path,
                        help="card model (.onnx, with labels.json beside it); default: the bundled one")
    parser.add_argument("--card-length", metavar="PIXELS", type=card_pixels,
                        help="a card's long side in these images' pixels, where known (as `muggins calibrate "
                             "--card` measures it): cards of that size are looked for; default: any size")
    parser.add_argument("--deck", metavar="NAME", help="read with this learned deck (`muggins deck learn`)")
    parser.add_argument("--decks-dir", metavar="D", type=Path, default=None,
                        help="where learned decks are kept (default: the state directory's decks/ folder)")
    parser.add_argument("--config", type=Path, default=None,
                        help="the TOML config whose state_dir holds the decks (default: $MUGGINS_CONFIG)")


def card_pixels(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 8 <= value <= 8192:
        raise argparse.ArgumentTypeError(f"{text!r} is no card length: give pixels, 8-8192")
    return value


def learned_deck(args):
    """The learned deck --deck names, or None; a missing one is an error, a corrupt one a warning."""
    if args.deck is None:
        if args.decks_dir is not None:
            from device.errors import UsageError

            raise UsageError("--decks-dir needs --deck NAME")
        return None
    from device.config import load_config
    from device.learned_decks import config_path, decks_folder
    from vision.learned_deck import DeckError, check_name, deck_path, load_deck

    folder = decks_folder(load_config(config_path(args.config)), args.decks_dir)
    check_name(args.deck)
    if not deck_path(folder, args.deck).is_file():
        return load_deck(folder, args.deck)  # DeckError: no such deck, naming those there are
    try:
        return load_deck(folder, args.deck)
    except DeckError as exc:
        print(f"muggins recognize: warning: {exc}; reading without the learned deck", file=sys.stderr)
        return None


def read_image(path: Path):
    """The image as BGR pixels, or a one-line reason why not."""
    from vision.images import read_image as pixels_of

    if not path.exists():
        return None, "no such file"
    if path.is_dir():
        return None, "is a folder, not an image"
    image = pixels_of(path)
    if image is None:
        return None, "not an image OpenCV can read"
    return image, None


def human_line(name: str, cards: list, ms: float) -> str:
    reads = [f"{r.card} ({r.confidence:.3f})" if r.card is not None else "? (unreadable)" for r in cards]
    return f"{name}: {', '.join(reads) if reads else 'no cards'}  [{ms:.1f} ms]"


def run(args: argparse.Namespace) -> int:
    from vision.classifier import CardClassifier
    from vision.errors import RecognitionFault
    from vision.faults import recognize_picture
    from vision.recognizer import Recognizer

    recognizer = Recognizer(classifier=CardClassifier(args.model), card_length=args.card_length,
                            deck=learned_deck(args))
    if args.overlay is not None:
        args.overlay.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name in args.images:
        path = Path(name)
        image, problem = read_image(path)
        if image is None:
            print(f"muggins recognize: error: {name}: {problem}", file=sys.stderr)
            failures += 1
            continue
        start = time.perf_counter()
        try:
            cards = recognize_picture(recognizer, image)
        except RecognitionFault as exc:
            print(f"muggins recognize: error: {name}: {exc}", file=sys.stderr)
            failures += 1
            continue
        ms = (time.perf_counter() - start) * 1000.0
        if args.json:
            print(json.dumps({"file": name, "cards": [r.to_dict() for r in cards], "ms": round(ms, 1)}),
                  flush=True)
        else:
            print(human_line(name, cards, ms), flush=True)
        if args.overlay is not None:
            failures += not write_overlay(args.overlay, path, image, cards)
    return 2 if failures else 0


def write_overlay(folder: Path, path: Path, image, cards) -> bool:
    import cv2

    from vision.overlay import draw_recognitions

    target = folder / (path.stem + ".overlay.png")
    try:
        ok = cv2.imwrite(str(target), draw_recognitions(image, cards))
    except cv2.error:
        ok = False
    if not ok:
        print(f"muggins recognize: error: cannot write overlay {target}", file=sys.stderr)
    return bool(ok)
