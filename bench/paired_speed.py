"""A candidate's models against the committed ones, timed frame by frame in turn in one process.

This machine's speed moves by the minute (by a quarter or more within an hour, models/HISTORY.md section 5):
two runs of `make bench BENCH=vision` minutes apart cannot show a change of two milliseconds a frame,
but two recognizers timed on the same frame one after the other can. The candidate is named as for the
other benches (bench.chosen_models: MUGGINS_BENCH_MODEL, MUGGINS_BENCH_CORNERS,
MUGGINS_BENCH_WHOLE_CARD); the frames are the vision bench's timing frames (six cards, 1280 x 720),
read for their time only, on one core. Run:
    MUGGINS_BENCH_CORNERS=/tmp/new/corners.onnx python -m bench.paired_speed [--rounds 4]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable, Sequence

from bench.machine import describe, pin_to_one_core

Clock = Callable[[], float]


def paired_round(committed, candidate, frames: Sequence, clock: Clock = time.perf_counter) \
        -> tuple[float, float, float]:
    """One pass over the frames, each read by the committed recognizer and then the candidate: the
    medians (ms) of the committed times, of the candidate's, and of each frame's difference
    (committed minus candidate: positive where the candidate is faster)."""
    old, new, saved = [], [], []
    for frame in frames:
        start = clock()
        committed.recognize(frame)
        middle = clock()
        candidate.recognize(frame)
        end = clock()
        old.append((middle - start) * 1000.0)
        new.append((end - middle) * 1000.0)
        saved.append(old[-1] - new[-1])
    return statistics.median(old), statistics.median(new), statistics.median(saved)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.paired_speed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=4, help="passes over the frames")
    args = parser.parse_args(argv)
    from bench.bench_vision import TIMING_FRAMES, bench_decks, six_card_frames
    from bench.chosen_models import chosen_recognizer
    from vision.errors import ModelError
    from vision.recognizer import Recognizer

    print(describe())
    try:
        candidate, committed = chosen_recognizer(), Recognizer()
    except ModelError as exc:
        parser.exit(2, f"{exc}\n")
    frames = six_card_frames(TIMING_FRAMES, bench_decks()[1][0])
    pin_to_one_core()
    paired_round(committed, candidate, frames[:3])  # warm up both
    for n in range(args.rounds):
        old, new, saved = paired_round(committed, candidate, frames)
        print(f"round {n + 1}: committed {old:.1f} ms, candidate {new:.1f} ms a frame (medians); the candidate "
              f"saves {saved:+.2f} ms a frame (median of {len(frames)} paired differences)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
