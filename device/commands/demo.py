"""`muggins demo`: a whole simulated game through the device, end to end, no hardware needed
(six-card for two by default; --variant plays the others), with a held-out rendered deck or the
players' own faces (--faces DIR, the folder `muggins deck learn` learns from; with --deck NAME the
device reads with that learned deck). The last line says what it took to see the game."""

from __future__ import annotations

import argparse
from pathlib import Path

from cribbage.variants import VARIANTS

VARIANT_NAMES = tuple(VARIANTS)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=1, help="which game to play (default 1)")
    parser.add_argument("--speed", choices=("max", "fast", "normal"), default="normal",
                        help="max: no pauses and nothing spoken; fast: brisk; normal: each announcement "
                             "spoken before the next (default)")
    parser.add_argument("--json", action="store_true",
                        help="events as JSON lines; the last line is {\"final\": {...}}")
    parser.add_argument("--mute", action="store_true", help="print announcements, never speak them")
    parser.add_argument("--state-dir", type=Path, default=None,
                        help="keep the journal here: a killed demo started again resumes from it "
                             "(default: a temporary folder, removed at the end)")
    parser.add_argument("--new-game", action="store_true",
                        help="archive the journal in --state-dir and start the game afresh")
    parser.add_argument("--deck", metavar="NAME", default=None,
                        help="which held-out card deck lies on the table (penguins, greywyvern, "
                             "xskat-french-large; default greywyvern); with --faces: the learned deck "
                             "(`muggins deck learn NAME DIR`) the device reads with")
    parser.add_argument("--faces", metavar="DIR", type=Path, default=None,
                        help="lay this folder's card faces instead: 52 images named by card as `muggins deck "
                             "learn` names them (5C.png, qs.jpg, 10h.jpg), upright, e.g. cut from photos of "
                             "a real deck")
    parser.add_argument("--decks-dir", metavar="D", type=Path, default=None,
                        help="with --faces and --deck: where learned decks are kept (default: the state "
                             "directory's decks/ folder, as `muggins deck learn`)")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default="six-card",
                        help="which cribbage: six-card for two (default), five-card, seven-card, "
                             "three-player, or four-player in partnerships")
    parser.add_argument("--printed-table", nargs="?", const="learnt", choices=("learnt", "unlearnt"),
                        default=None,
                        help="play on a mat printed with two aces of another deck; the device first learns "
                             "the empty table as `muggins calibrate --table` does (unlearnt: it does not, "
                             "to show what the print does to a game)")
    parser.add_argument("--web", metavar="[HOST:]PORT", default=None,
                        help="watch the game on the table's web page, served here (a PORT alone: on every "
                             "interface); it keeps showing the final board until interrupted")


def run(args) -> int:
    from sim.demo_game import DemoOptions, run_demo

    return run_demo(DemoOptions(seed=args.seed, speed=args.speed, json=args.json, mute=args.mute,
                                state_dir=args.state_dir, new_game=args.new_game, deck=args.deck,
                                variant=args.variant, web=args.web, faces=args.faces,
                                decks_dir=args.decks_dir, printed_table=args.printed_table))
