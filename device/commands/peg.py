"""`muggins peg [--json] C C C ...`: what the last card of a play series earns.

The cards are the series so far, oldest first. With --json the last line is
{"points": N, "reasons": [...], "count": C, "announcement": "..."}.
"""

from __future__ import annotations

import argparse
import json

from cribbage.play_score import score_play


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", nargs="+", metavar="CARD", help="the cards of the series, oldest first")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    score = score_play(args.cards)
    if args.json:
        print(json.dumps({"points": score.points, "reasons": list(score.reasons), "count": score.count,
                          "announcement": score.announcement()}))
    else:
        print(f"{score.announcement()}  ({score.points} point{'s' if score.points != 1 else ''}, "
              f"count {score.count})")
    return 0
