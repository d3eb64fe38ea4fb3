"""`muggins demo`: a whole simulated game through the device, end to end, no hardware needed
(six-card for two by default; --variant plays the others)."""

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
    parser.add_argument("--deck", default=None,
                        help="which held-out card deck lies on the table (tigullio-international, dondorf, "
                             "penguins; default dondorf)")
    parser.add_argument("--variant", choices=VARIANT_NAMES, default="six-card",
                        help="which cribbage: six-card for two (default), five-card, seven-card, "
                             "three-player, or four-player in partnerships")
    parser.add_argument("--web", metavar="[HOST:]PORT", default=None,
                        help="watch the game on the table's web page, served here (a PORT alone: on every "
                             "interface); it keeps showing the final board until interrupted")


def run(args) -> int:
    from sim.demo_game import DemoOptions, run_demo

    return run_demo(DemoOptions(seed=args.seed, speed=args.speed, json=args.json, mute=args.mute,
                                state_dir=args.state_dir, new_game=args.new_game, deck=args.deck,
                                variant=args.variant, web=args.web))
