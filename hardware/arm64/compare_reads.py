"""Compare two `muggins recognize --json` outputs: the same images read on two machines.

    python3 compare_reads.py HOST.jsonl ARM64.jsonl [--tolerance PIXELS]

The arm64 check (check.sh) reads the same pictures on the x86 host and in the emulated arm64 root;
they must agree card for card (the same cards, in the same order) and outline for outline (every
corner of every quad within the tolerance). Prints one line per image and the largest corner
difference; exits 1 if any image differs, 2 if a file cannot be read. Standard library only, so the
host's system Python runs it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

DEFAULT_TOLERANCE = 0.5  # pixels; the JSON gives corners to 0.1 px


def load_reads(path: Path) -> dict[str, list[dict]]:
    """file name (as given to recognize, its base name) -> its cards, from one JSON line per image."""
    reads = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            reads[Path(row["file"]).name] = row["cards"]
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a recognize --json line ({exc})") from None
    return reads


def corner_gap(a: list, b: list) -> float:
    """The largest distance along x or y between matching corners of two quads."""
    return max(abs(float(p) - float(q)) for pa, pb in zip(a, b) for p, q in zip(pa, pb))


def compare_image(expected: list[dict], got: list[dict], tolerance: float) -> tuple[str | None, float]:
    """(why they differ, or None; the largest corner gap seen) for one image's two reads."""
    names = [c["card"] for c in expected]
    if names != [c["card"] for c in got]:
        return f"cards {names} on the host, {[c['card'] for c in got]} here", 0.0
    worst = 0.0
    for card_a, card_b in zip(expected, got):
        if len(card_a["quad"]) != len(card_b["quad"]):
            return f"{card_a['card']}: quads of {len(card_a['quad'])} and {len(card_b['quad'])} corners", worst
        gap = corner_gap(card_a["quad"], card_b["quad"])
        worst = max(worst, gap)
        if gap > tolerance:
            return f"{card_a['card']}: outline {gap:.2f} px apart (tolerance {tolerance} px)", worst
    return None, worst


def compare(expected: dict[str, list[dict]], got: dict[str, list[dict]], tolerance: float,
            out=sys.stdout) -> bool:
    """Print one line per image; True when every image was read alike."""
    same = True
    worst = 0.0
    for name in sorted(set(expected) | set(got)):
        if name not in got or name not in expected:
            print(f"  {name}: read only {'on the host' if name in expected else 'here'}", file=out)
            same = False
            continue
        problem, gap = compare_image(expected[name], got[name], tolerance)
        worst = max(worst, gap)
        cards = " ".join(str(c["card"]) for c in expected[name]) or "no cards"
        print(f"  {name}: {problem or 'same: ' + cards}", file=out)
        same = same and problem is None
    print(f"  largest corner difference: {worst:.2f} px over {len(expected)} image(s)", file=out)
    return same


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("expected", type=Path, help="the host's recognize --json output")
    parser.add_argument("got", type=Path, help="the arm64 root's recognize --json output")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE, metavar="PIXELS")
    args = parser.parse_args(argv)
    try:
        expected, got = load_reads(args.expected), load_reads(args.got)
    except (OSError, ValueError) as exc:
        print(f"compare_reads: {exc}", file=sys.stderr)
        return 2
    if not expected:
        print(f"compare_reads: {args.expected} holds no reads", file=sys.stderr)
        return 2
    return 0 if compare(expected, got, args.tolerance) else 1


if __name__ == "__main__":
    sys.exit(main())
