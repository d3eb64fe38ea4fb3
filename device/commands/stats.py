"""`muggins stats --exhaustive [--crib] [--hand-size N] [--json]`: every hand with every starter.

JSON: {"distribution": {"0": n0, ..., "29": n29}, "hands": 12994800, "mean": ..., "crib": false}
(plus "hand_size"). The counting is exact, by rank pattern and suit structure (cribbage.stats).
"""

from __future__ import annotations

import argparse
import json

from cribbage.stats import distribution_summary, hand_distribution


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--exhaustive", action="store_true",
                        help="count every hand and starter exactly (the only method; accepted for clarity)")
    parser.add_argument("--crib", action="store_true", help="count them as cribs (flush only with all five)")
    parser.add_argument("--hand-size", type=int, choices=(3, 4, 5), default=4,
                        help="cards kept in hand: 3 (five-card), 4 (six-card, default), 5 (seven-card)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    distribution = hand_distribution(crib=args.crib, hand_size=args.hand_size)
    summary = distribution_summary(distribution, crib=args.crib, top=29 if args.hand_size == 4 else None)
    summary["hand_size"] = args.hand_size
    if args.json:
        print(json.dumps(summary))
        return 0
    what = "cribs" if args.crib else f"{args.hand_size}-card hands"
    print(f"{summary['hands']:,} {what} with a starter; mean score {summary['mean']:.4f}")
    for score, count in summary["distribution"].items():
        share = 100 * count / summary["hands"]
        print(f"{score:>3} {count:>11,} {share:8.4f}%")
    return 0
