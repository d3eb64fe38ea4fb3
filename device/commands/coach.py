"""`muggins coach [--json] [--dealer] [--discard N] [--top N] C C C C C C`: what to lay away.

Every lay-away of the dealt cards, best first, with the kept hand's expected points over every unseen
starter and the crib's expected points from the discards (cribbage.coach). With --json, one object:
{"dealer": ..., "lay_aways": [{"keep", "discard", "hand_points", "hand_min", "hand_max",
"crib_points", "value", "dealer"}, ...]}.
"""

from __future__ import annotations

import argparse
import json

from cribbage.coach import lay_aways


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", nargs="+", metavar="CARD", help="the dealt cards (5, 6 or 7)")
    parser.add_argument("--dealer", action="store_true", help="you deal, so the crib is yours")
    parser.add_argument("--discard", type=int, choices=(1, 2),
                        help="cards to lay away (default: 2 from 6 or 7 dealt, 1 from 5; "
                             "five-card cribbage lays 2 of 5)")
    parser.add_argument("--top", type=int, metavar="N", help="show only the N best")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    results = lay_aways(args.cards, discard=args.discard, dealer=args.dealer)
    if args.top is not None:
        results = results[:max(args.top, 0)]
    if args.json:
        print(json.dumps({"dealer": args.dealer, "lay_aways": [r.to_dict() for r in results]}))
        return 0
    sign = "+" if args.dealer else "-"
    print(f"{'keep':<16}{'lay away':<10}{'hand':>7}{'(min-max)':>11}{'crib':>8}{'value':>8}")
    for r in results:
        keep = " ".join(map(str, r.keep))
        thrown = " ".join(map(str, r.discard))
        print(f"{keep:<16}{thrown:<10}{r.hand_points:>7.2f}{f'({r.hand_min}-{r.hand_max})':>11}"
              f"{sign + format(r.crib_points, '.2f'):>8}{r.value:>8.2f}")
    return 0
