"""`muggins deck learn NAME DIR`, `muggins deck list`, `muggins deck forget NAME`: the players' own decks.

`learn` reads every photo in DIR (one card face up in each, the file named by its card: `5C.jpg`,
`10h.png`, `qs-2.jpg`), says what it learned, which cards are missing and each photo it could not use
and why, and saves the deck (learning a name again replaces it). Decks live in the state directory's
decks/ folder, or in --decks-dir (device/learned_decks.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    learn = sub.add_parser("learn", help="learn a deck from a folder of photos named by card",
                           description="learn a deck from a folder of photos, one card face up in each, "
                                       "each file named by its card (5C.jpg, 10h.png, qs-2.jpg)")
    learn.add_argument("name", metavar="NAME", help="the deck's name (letters, digits, '-', '_')")
    learn.add_argument("folder", metavar="DIR", type=Path, help="the folder of photos")
    learn.add_argument("--trust-names", action="store_true",
                       help="learn a photo the generic reader reads surely as another card by its name all "
                            "the same (a card it misreads is then left unread, not misread)")
    listing = sub.add_parser("list", help="the learned decks", description="the learned decks")
    forget = sub.add_parser("forget", help="forget a learned deck", description="forget a learned deck")
    forget.add_argument("name", metavar="NAME", help="the deck's name")
    for each in (learn, listing, forget):
        each.add_argument("--decks-dir", metavar="D", type=Path, default=None,
                          help="where decks are kept (default: the state directory's decks/ folder)")
        each.add_argument("--config", type=Path, default=None,
                          help="the TOML config whose state_dir holds the decks (default: $MUGGINS_CONFIG)")


def run(args) -> int:
    from device.config import load_config
    from device.learned_decks import config_path, decks_folder

    folder = decks_folder(load_config(config_path(args.config)), args.decks_dir)
    return {"learn": learn, "list": list_decks, "forget": forget}[args.action](args, folder)


def learn(args, folder: Path) -> int:
    from vision.deck_learning import learn_folder
    from vision.learned_deck import DeckError, check_name, save_deck
    from vision.recognizer import Recognizer

    check_name(args.name)
    print(f"learning deck {args.name!r} from {args.folder}", flush=True)

    def log(file: str, card, reason: str | None) -> None:
        print(f"  {file}: {card}" if reason is None else f"  {file}: not used: {reason}", flush=True)

    deck, report = learn_folder(args.name, args.folder, Recognizer(), log, trust_names=args.trust_names)
    if not deck.cards:
        raise DeckError(f"no card learned from {args.folder}: nothing saved")
    path = save_deck(folder, deck)
    photos = sum(len(files) for files in report.learned.values())
    print(f"learned {counted(len(deck.cards), 'card')} from {counted(photos, 'photo')}; saved {path} "
          f"({path.stat().st_size / 1e3:.0f} kB)")
    missing = report.missing
    print(f"missing {counted(len(missing), 'card')}: {' '.join(map(str, missing))}" if missing
          else "missing no card: all 52 learned")
    if report.refused:
        print(f"{counted(len(report.refused), 'photo')} not used:")
        for file, reason in report.refused:
            print(f"  {file}: {reason}")
    return 0


def counted(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def list_decks(args, folder: Path) -> int:
    from vision.learned_deck import SUFFIX, DeckError, deck_names, read_deck_file

    names = deck_names(folder)
    if not names:
        print(f"no learned decks in {folder}")
        return 0
    for name in names:
        path = folder / (name + SUFFIX)
        try:
            deck = read_deck_file(path)
        except DeckError as exc:
            print(f"{name}: unreadable: {exc}")
            continue
        print(f"{name}: {counted(len(deck.cards), 'card')}, {path.stat().st_size / 1e3:.0f} kB, {path}")
    return 0


def forget(args, folder: Path) -> int:
    from vision.learned_deck import forget_deck

    path = forget_deck(folder, args.name)
    print(f"forgot deck {args.name!r} ({path} removed)", file=sys.stdout)
    return 0
