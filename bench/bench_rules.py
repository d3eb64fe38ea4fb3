"""Rules engine speed (issue 2 budgets, one core): a hand with its breakdown <= 10 us, the total alone
<= 3 us, `muggins stats --exhaustive` <= 5 s per process, every lay-away of a six-card hand <= 5 ms.

Figures are medians over many repetitions, on one core. The first count of a given hand size in a
process fills the rank-pattern table for that size once (printed as "table build"); every later
count is warm, and the per-call figures are those.
Set MUGGINS_BENCH_BRUTE=0 to skip the brute-force run over all 12,994,800 hands (about half a minute).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from itertools import combinations
from pathlib import Path

from bench.machine import pin_to_one_core
from cribbage._score_ranks import clear_memo
from cribbage.cards import FULL_DECK
from cribbage.coach import lay_aways
from cribbage.show_score import score_show, show_total
from cribbage.stats import hand_distribution

SEED = 20261122


def random_hands(n: int, size: int = 4) -> list[tuple]:
    rnd = random.Random(SEED)
    hands = []
    for _ in range(n):
        cards = rnd.sample(FULL_DECK, size + 1)
        hands.append((tuple(cards[:size]), cards[size]))
    return hands


def per_call_us(func, hands, *, repeats: int) -> float:
    """Median time of one call, each call timed on its own (timer overhead subtracted)."""
    clock = time.perf_counter_ns
    overhead = statistics.median(-clock() + clock() for _ in range(10000))
    times = []
    for _ in range(repeats):
        for hand, starter in hands:
            start = clock()
            func(hand, starter)
            times.append(clock() - start - overhead)
    return statistics.median(times) / 1000


def per_batch_us(func, hands, *, repeats: int) -> float:
    """Median over repeats of (time for the whole batch / hands): includes the loop, so a bit higher."""
    means = []
    for _ in range(repeats):
        start = time.perf_counter()
        for hand, starter in hands:
            func(hand, starter)
        means.append((time.perf_counter() - start) / len(hands) * 1e6)
    return statistics.median(means)


def first_call_ms(func, hand, starter, repeats: int = 7) -> float:
    """Median time of the first count in a process: it fills the pattern table for that hand size."""
    times = []
    for _ in range(repeats):
        clear_memo()
        start = time.perf_counter()
        func(hand, starter)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_hands() -> None:
    hands = random_hands(5000)
    for func in (score_show, show_total):
        name = "breakdown (score_show)" if func is score_show else "total alone (show_total)"
        build = first_call_ms(func, *hands[0])
        for hand, starter in hands:
            func(hand, starter)
        warm = per_call_us(func, hands, repeats=5)
        batch = per_batch_us(func, hands, repeats=15)
        print(f"{name:<26} {warm:6.2f} us median per call; batch mean {batch:5.2f} us/hand "
              f"(random 4-card hands, 5000 x 5 calls timed); first call of a process, table build "
              f"included: {build:.0f} ms, once")
    clear_memo()
    for name, size in (("3-card hands", 3), ("5-card hands", 5)):
        sample = random_hands(3000, size)
        for hand, starter in sample:
            score_show(hand, starter)
        print(f"{name:<26} {per_call_us(score_show, sample, repeats=3):6.2f} us "
              f"breakdown, {per_call_us(show_total, sample, repeats=3):6.2f} us total")
    from cribbage.cards import parse_cards
    worst = (parse_cards("5H 5D 5C JS"), parse_cards("5S")[0])
    print(f"{'the 29 hand (10 items)':<26} {per_call_us(score_show, [worst], repeats=5000):6.2f} us "
          "breakdown")


def muggins_command() -> list[str]:
    script = Path(sys.executable).with_name("muggins")
    return [str(script)] if script.exists() else [sys.executable, "-m", "device.cli"]


def bench_stats_process() -> None:
    for crib in (False, True):
        args = [*muggins_command(), "stats", "--exhaustive", *(["--crib"] if crib else []), "--json"]
        times = []
        for _ in range(7):
            start = time.perf_counter()
            out = subprocess.run(args, capture_output=True, text=True)
            times.append(time.perf_counter() - start)
            if out.returncode != 0:
                print(f"`{' '.join(args)}` failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}")
                return
        data = json.loads(out.stdout)
        print(f"`{' '.join(args[-4:] if crib else args[-3:])}`: whole process {statistics.median(times):.2f} s "
              f"median of 7 (min {min(times):.2f}); hands {data['hands']:,}, zero-point "
              f"{data['distribution']['0']:,}, 29s {data['distribution']['29']}")
    clear_memo()
    start = time.perf_counter()
    hand_distribution()
    print(f"hand_distribution() in-process, table build included: {time.perf_counter() - start:.3f} s")


def bench_coach() -> None:
    rnd = random.Random(SEED)
    deals = [tuple(rnd.sample(FULL_DECK, 6)) for _ in range(200)]
    clear_memo()
    start = time.perf_counter()
    lay_aways(deals[0], crib=False)
    first = (time.perf_counter() - start) * 1000
    times = []
    for deal in deals:
        start = time.perf_counter()
        lay_aways(deal, crib=False)
        times.append((time.perf_counter() - start) * 1000)
    print(f"coach, 15 lay-aways x 46 starters (hand points): {statistics.median(times):.2f} ms median "
          f"(200 random deals); first of a process, table build included: {first:.0f} ms, once")
    times = []
    for deal in deals[:50]:
        start = time.perf_counter()
        lay_aways(deal, dealer=True)
        times.append((time.perf_counter() - start) * 1000)
    print(f"coach with exact crib expectation too: {statistics.median(times):.1f} ms median (50 deals, warm)")


def bench_batch() -> None:
    hands = random_hands(20000)
    lines = "".join(json.dumps({"hand": [str(c) for c in hand], "starter": str(starter), "crib": False})
                    + "\n" for hand, starter in hands)
    start = time.perf_counter()
    out = subprocess.run([*muggins_command(), "score", "--batch", "-"], input=lines, capture_output=True,
                         text=True)
    elapsed = time.perf_counter() - start
    if out.returncode != 0:
        print(f"`muggins score --batch -` failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}")
        return
    assert len(out.stdout.splitlines()) == len(hands)
    print(f"`muggins score --batch -`: {len(hands):,} distinct random lines in {elapsed:.2f} s whole process "
          f"({len(hands) / elapsed:,.0f} lines/s)")


def bench_brute_force() -> None:
    """Independent check of the fast statistics: count every hand and starter with show_total."""
    if os.environ.get("MUGGINS_BENCH_BRUTE", "1") == "0":
        print("brute force over all hands: skipped (MUGGINS_BENCH_BRUTE=0)")
        return
    start = time.perf_counter()
    counts = [0] * 30
    deck = FULL_DECK
    for hand in combinations(deck, 4):
        for starter in deck:
            if starter not in hand:
                counts[show_total(hand, starter)] += 1
    elapsed = time.perf_counter() - start
    fast = hand_distribution()
    same = {score: n for score, n in enumerate(counts) if n} == fast
    print(f"brute force: all {sum(counts):,} hands scored one by one with show_total in {elapsed:.1f} s "
          f"({elapsed / sum(counts) * 1e6:.2f} us/hand); equals the fast statistics: {same}")


def main() -> None:
    pin_to_one_core()
    print("one core; medians over repetitions; per-call figures after the once-per-process table build")
    bench_hands()
    bench_coach()
    bench_stats_process()
    bench_batch()
    bench_brute_force()


if __name__ == "__main__":
    main()
