"""`muggins score [--crib] [--json] C C C C STARTER` and `muggins score --batch FILE.jsonl`.

One hand: the breakdown (announcement and each combination), or with --json one JSON object
(ShowScore.to_dict). Batch: each input line {"hand": [...], "starter": "5D", "crib": false} gives one
output line {"total": N}, in order; a bad line gives {"error": "..."} instead and the exit status is 2
at the end. Batch uses the fast total and remembers parsed cards, so big files stream quickly.
"""

from __future__ import annotations

import argparse
import json
import sys

from cribbage.cards import Card
from cribbage.errors import CribbageError
from cribbage.show_score import score_show, show_total
from device.errors import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cards", nargs="*", metavar="CARD",
                        help="the hand (3, 4 or 5 cards), then the starter; e.g. 5H 5D 5C JS 5S")
    parser.add_argument("--crib", action="store_true", help="count it as the crib (flush only with all five)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--batch", metavar="FILE",
                        help="JSON lines {\"hand\": [...], \"starter\": ..., \"crib\": ...}; '-' for stdin")


def run(args: argparse.Namespace) -> int:
    if args.batch is not None:
        if args.cards:
            raise UsageError("give cards or --batch FILE, not both")
        return _run_batch(args.batch)
    if len(args.cards) < 4:
        raise UsageError("give the hand (3, 4 or 5 cards) and then the starter, e.g. 5H 5D 5C JS 5S")
    score = score_show(args.cards[:-1], args.cards[-1], crib=args.crib)
    if args.json:
        print(json.dumps(score.to_dict()))
        return 0
    what = "crib" if score.crib else "hand"
    print(f"{what} {' '.join(map(str, score.hand))}, starter {score.starter}: {score.total}")
    print(score.announcement())
    for item in score.items:
        print(f"  {item.kind:<18} {' '.join(map(str, item.cards)):<15} {item.points:>2}")
    return 0


def _run_batch(source: str) -> int:
    try:
        stream = sys.stdin if source == "-" else open(source, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror}") from None
    cards: dict[str, Card] = {}
    totals: dict[tuple, int] = {}
    bad = 0
    out: list[str] = []
    write = sys.stdout.write
    with stream:
        for number, line in enumerate(stream, 1):
            try:
                out.append('{"total": %d}' % _line_total(line, cards, totals))
            except (CribbageError, ValueError, TypeError, KeyError) as exc:
                bad += 1
                out.append(json.dumps({"error": f"line {number}: {_reason(exc)}"}))
            if len(out) >= 4096:
                write("\n".join(out) + "\n")
                out.clear()
    if out:
        write("\n".join(out) + "\n")
    sys.stdout.flush()
    return 2 if bad else 0


def _line_total(line: str, cards: dict[str, Card], totals: dict[tuple, int]) -> int:
    """The total for one batch line; hands already seen come from the cache."""
    record = json.loads(line)
    if not isinstance(record, dict):
        raise ValueError('expected an object such as {"hand": ["5H", ...], "starter": "5D"}')
    hand_text, starter_text, crib = record["hand"], record["starter"], record.get("crib", False)
    if (not isinstance(hand_text, list) or not all(isinstance(t, str) for t in hand_text)
            or not isinstance(starter_text, str) or not isinstance(crib, bool)):
        raise ValueError('"hand" must be a list of cards, "starter" a card and "crib" true or false')
    key = (*hand_text, starter_text, crib)
    total = totals.get(key)
    if total is None:
        hand = tuple(_card(text, cards) for text in hand_text)
        total = totals[key] = show_total(hand, _card(starter_text, cards), crib=crib)
    return total


def _card(text, cards: dict[str, Card]) -> Card:
    card = cards.get(text) if isinstance(text, str) else None
    if card is None:
        card = Card.parse(text)
        cards[text] = card
    return card


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing {exc.args[0]!r}"
    if isinstance(exc, json.JSONDecodeError):
        return f"not JSON ({exc.msg})" if exc.doc.strip() else "empty line"
    return str(exc)
