"""Card recognition on the held-out decks: accuracy per deck and scene kind, speed, model size, memory.

Scenes are rendered (seeded) from the three decks the model never saw in training. A card counts as
read right, read wrong, or unreadable (reported with card null, or not reported at all); cards
reported where there is no face-up card (empty tables, backs, props) are counted apart. Set
MUGGINS_BENCH_SCALE=0.2 for a quick look with fewer scenes, and MUGGINS_BENCH_MODEL=path/to/cards.onnx
to measure a model other than the committed one (its labels.json beside it).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from bench.machine import pin_to_one_core

SEED = 20260611
# Scenes per held-out deck and kind: about 5 cards a separate scene, 6 a row scene (over the three
# decks: over 1000 separate cards, over 500 in rows).
SCENES = {"separate": 75, "row": 35, "backs": 30, "empty": 30, "distractors": 20}
TIMING_FRAMES = 20


def scale_counts() -> dict[str, int]:
    scale = float(os.environ.get("MUGGINS_BENCH_SCALE", "1"))
    return {kind: max(3, round(n * scale)) for kind, n in SCENES.items()}


def match_reads(scene, recognitions, quad_iou) -> tuple[list[tuple], list]:
    """Pair each face-up card of the ground truth with the recognition over it (greedy by IoU).

    Returns ([(truth card, recognition or None)], [recognitions over no face-up card]).
    """
    truths = [t for t in scene.cards if t.card is not None and t.index_visible]
    pairs = sorted(((quad_iou(t.quad, r.quad), i, j) for i, t in enumerate(truths)
                    for j, r in enumerate(recognitions)), reverse=True)
    used_t, used_r, match = set(), set(), {}
    for iou, i, j in pairs:
        if iou < 0.4:
            break
        if i not in used_t and j not in used_r:
            used_t.add(i)
            used_r.add(j)
            match[i] = recognitions[j]
    # A card whose index is hidden, or a back, may be reported as unread (null) without fault.
    others = [t for t in scene.cards if not (t.card is not None and t.index_visible)]
    extra = []
    for j, r in enumerate(recognitions):
        if j in used_r:
            continue
        if r.card is None and any(quad_iou(t.quad, r.quad) >= 0.4 for t in others if t.card is not None):
            continue
        extra.append(r)
    return [(t.card, match.get(i)) for i, t in enumerate(truths)], extra


def evaluate(recognizer, decks, counts, log=print) -> dict:
    """Tallies per (deck, kind): right, wrong, unreadable, missed, phantom (reported on no card)."""
    from vision.recognizer import quad_iou
    from vision.render.scenes import make_scene

    tallies: dict = defaultdict(Counter)
    confused: Counter = Counter()
    wrong_examples = []
    for d_i, deck in enumerate(decks):
        for k_i, (kind, n) in enumerate(counts.items()):
            rng = np.random.default_rng([SEED, d_i, k_i])
            for _ in range(n):
                scene = make_scene(rng, kind, deck)
                pairs, extra = match_reads(scene, recognizer.recognize(scene.image), quad_iou)
                t = tallies[(deck, kind)]
                t["scenes"] += 1
                for truth, rec in pairs:
                    t["cards"] += 1
                    if rec is None:
                        t["missed"] += 1
                    elif rec.card is None:
                        t["unreadable"] += 1
                    elif rec.card == truth:
                        t["right"] += 1
                    else:
                        t["wrong"] += 1
                        confused[(str(truth), str(rec.card))] += 1
                        wrong_examples.append((deck, kind, str(truth), str(rec.card), round(rec.confidence, 3)))
                t["phantom"] += len(extra)
                t["phantom_read"] += sum(r.card is not None for r in extra)
        log(f"  {deck}: done")
    return {"tallies": tallies, "confused": confused, "wrong_examples": wrong_examples}


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:6.2f} %" if b else "     -  "


def print_tallies(tallies: dict, decks, kinds) -> None:
    print(f"{'deck':24s} {'kind':12s} {'cards':>6s} {'right':>9s} {'wrong':>9s} {'unreadable':>10s} "
          f"{'(missed)':>9s} {'reported on no card':>20s}")
    for kind in kinds:
        total = Counter()
        for deck in decks:
            t = tallies[(deck, kind)]
            total.update(t)
            _row(deck, kind, t)
        _row("ALL held-out", kind, total)
        print()


def _row(deck: str, kind: str, t: Counter) -> None:
    unread = t["unreadable"] + t["missed"]
    print(f"{deck:24s} {kind:12s} {t['cards']:6d} {pct(t['right'], t['cards']):>9s} "
          f"{pct(t['wrong'], t['cards']):>9s} {pct(unread, t['cards']):>10s} {t['missed']:9d} "
          f"{t['phantom']:10d} ({t['phantom_read']} read) in {t['scenes']} scenes")


def six_card_frames(n: int, deck: str) -> list[np.ndarray]:
    """n rendered 1280x720 frames of separate cards holding exactly six cards."""
    from vision.render.scenes import make_scene

    rng = np.random.default_rng([SEED, 99])
    frames = []
    while len(frames) < n:
        scene = make_scene(rng, "separate", deck)
        if sum(t.card is not None for t in scene.cards) == 6:
            frames.append(scene.image)
    return frames


def time_frames(recognizer, frames) -> list[float]:
    for frame in frames[:3]:
        recognizer.recognize(frame)  # warm up
    times = []
    for _ in range(3):
        for frame in frames:
            start = time.perf_counter()
            recognizer.recognize(frame)
            times.append((time.perf_counter() - start) * 1000.0)
    return times


# Measured from a small helper process: a child's ru_maxrss also counts the memory of the process
# it was forked from, and this benchmark's own process is large by the time it gets here.
_RSS_HELPER = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(done.stderr)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_rss_of_cli(frames) -> float:
    """Peak resident memory (MB) of `muggins recognize --json` on a few frames, in a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, frame in enumerate(frames[:4]):
            path = Path(tmp) / f"frame{i}.jpg"
            cv2.imwrite(str(path), frame)
            paths.append(str(path))
        done = subprocess.run([sys.executable, "-c", _RSS_HELPER, sys.executable, "-m", "device.cli",
                               "recognize", "--json", *paths], capture_output=True, text=True, check=False)
    code, rss_kb = done.stdout.split()
    if code != "0":
        print(f"muggins recognize failed: {done.stderr.strip()}")
    return int(rss_kb) / 1024.0


def main() -> None:
    from vision.classifier import CardClassifier
    from vision.recognizer import Recognizer
    from vision.render.decks import HELD_OUT_DECKS

    classifier = CardClassifier(os.environ.get("MUGGINS_BENCH_MODEL") or None)
    recognizer = Recognizer(classifier)
    counts = scale_counts()
    model = classifier.model_path
    print(f"model {model}: {model.stat().st_size / 1e6:.2f} MB, "
          f"threshold {classifier.threshold:.4f}, temperature {classifier.temperature:.3f}")
    print(f"held-out decks: {', '.join(HELD_OUT_DECKS)}; scenes per deck: "
          + ", ".join(f"{k} {n}" for k, n in counts.items()) + f"; seed {SEED}")
    started = time.time()
    result = evaluate(recognizer, HELD_OUT_DECKS, counts)
    print(f"(accuracy pass {time.time() - started:.0f} s)\n")
    print_tallies(result["tallies"], HELD_OUT_DECKS, list(counts))
    confused = result["confused"].most_common(10)
    print("most confused (truth -> read): " + (", ".join(f"{a}->{b} x{n}" for (a, b), n in confused) or "none"))
    for example in result["wrong_examples"][:10]:
        print(f"  wrong: deck {example[0]}, {example[1]}: {example[2]} read as {example[3]} ({example[4]})")

    pin_to_one_core()
    frames = six_card_frames(TIMING_FRAMES, HELD_OUT_DECKS[0])
    times = time_frames(recognizer, frames)
    print(f"\n1280x720 frame, six cards, one core, finder+crops+classify: median {statistics.median(times):.1f} ms, "
          f"p90 {np.percentile(times, 90):.1f} ms over {len(times)} runs")
    print(f"peak RSS of `muggins recognize --json` on 4 frames: {peak_rss_of_cli(frames):.0f} MB")


if __name__ == "__main__":
    main()
