"""Card recognition on the held-out decks: accuracy per deck and scene kind, speed, model size, memory.

Scenes are rendered (seeded) from the three decks the model never saw in training. A card counts as
read right, read wrong, or unreadable (reported with card null, or not reported at all), each report
judged by the card whose face lies under its index crop; cards reported where there is no face-up
card (empty tables, backs, props) or reported a second time are counted apart, and their reads as
wrong: "wrong" is the misread cards and those reads, over the cards. Separate cards are read at four
more bands of card size after the scenes' own. Set
MUGGINS_BENCH_SCALE=0.2 for a quick look with fewer scenes; MUGGINS_BENCH_MODEL, MUGGINS_BENCH_CORNERS
and MUGGINS_BENCH_WHOLE_CARD measure models other than the committed ones (bench/chosen_models.py).
MUGGINS_BENCH_DECKS=validation reads the ten synthetic validation decks instead (index fonts no
training deck uses, which set the classifier's threshold): the place to judge a change to the
recognizer's rules before it meets the held-out decks, at 0.3 of the scenes per deck.
MUGGINS_BENCH_DECKS=validation-4c reads the same decks on the same scenes printed in four colours (clubs
green, diamonds blue), as many poker decks are.
MUGGINS_BENCH_DECKS=xskat-french-large (held-out deck names, comma-separated) reads those alone, each
on the very scenes it has among all three: one deck's figure read without reading the others'.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from bench.chosen_models import chosen_classifier, chosen_finder, chosen_whole_card
from bench.machine import pi_estimate, pin_to_one_core, sysbench_score

SEED = 20260611
# Scenes per held-out deck and kind: about 5 cards a separate scene, 6 a row scene (over the three
# decks: over 1000 separate cards, over 500 in rows), about 5 showing their index in a fan scene.
# Fans came last, and oblique views (separate cards 25-45 degrees off vertical) after them, so that
# every other kind keeps its seeds and its figures stay comparable.
SCENES = {"separate": 75, "row": 35, "backs": 30, "empty": 30, "distractors": 20, "fan": 30, "oblique": 30}
TIMING_FRAMES = 20
PHOTO_SIZE, PHOTO_FRAMES = (4032, 3024), 6  # a phone's photo
# Card sizes beside the scenes' own (0.17-0.30 of the frame height): far off, and near or close up.
SCALE_BANDS = ((0.10, 0.16), (0.30, 0.40), (0.40, 0.60), (0.60, 0.80))
BAND_SCENES = 15


VALIDATION_SCALE = 0.3      # ten validation decks: 0.3 of the scenes per deck keeps the pass short


def bench_decks() -> tuple[str, tuple[str, ...], float]:
    """Which decks are read ("held-out", or the "validation" font decks), the decks, and the share of
    SCENES read of each."""
    from sim.render.decks import HELD_OUT_DECKS
    from sim.render.fontdecks import FOUR_COLOUR, validation_deck_names

    choice = os.environ.get("MUGGINS_BENCH_DECKS", "held-out")
    if choice == "validation":
        return choice, validation_deck_names(), VALIDATION_SCALE
    if choice == "validation-4c":  # the same decks on the same scenes, printed in four colours
        return "validation", tuple(deck + FOUR_COLOUR for deck in validation_deck_names()), VALIDATION_SCALE
    if choice == "held-out":
        return choice, tuple(HELD_OUT_DECKS), 1.0
    named = tuple(name.strip() for name in choice.split(",") if name.strip())
    if not named or not set(named) <= set(HELD_OUT_DECKS):
        raise SystemExit(f"MUGGINS_BENCH_DECKS={choice!r}: choose held-out, validation, validation-4c or held-out decks "
                         f"by name ({', '.join(HELD_OUT_DECKS)})")
    return "held-out", named, 1.0


def scene_place(deck: str, decks) -> int:
    """The place that seeds a deck's scenes: a held-out deck's own among HELD_OUT_DECKS, so that it is
    read on the same scenes alone as among all three; else its place in decks."""
    from sim.render.decks import HELD_OUT_DECKS

    return HELD_OUT_DECKS.index(deck) if deck in HELD_OUT_DECKS else list(decks).index(deck)


def scale_counts(share: float = 1.0) -> dict[str, int]:
    scale = float(os.environ.get("MUGGINS_BENCH_SCALE", "1")) * share
    return {kind: max(3, round(n * scale)) for kind, n in SCENES.items()}


def place_of(scene, point) -> int | None:
    """Index in scene.cards of the card on top at a point (cards are listed bottom first), or None.

    Props are left out: a hand's outline is its picture's rectangle, mostly bare table, and where a
    hand does cover a card's index the ground truth already says that index does not show.
    """
    on = [i for i, t in enumerate(scene.cards)
          if cv2.pointPolygonTest(np.asarray(t.quad, np.float32), (float(point[0]), float(point[1])), False) >= 0]
    return on[-1] if on else None


def score_reads(scene, recognitions) -> tuple[list[tuple], list]:
    """Judge each recognition by the card whose face lies under its index crop (its centre).

    A recognition reading card X is right where X's face is on top there; a card reported over
    another card, a back, a prop or the table is wrong. (Matching whole-card outlines by overlap, as
    this benchmark did before, pairs a row card's read with its neighbour's outline, and a deck that
    prints an index in all four corners is read right at corners the ground truth calls blank.)
    Returns ([(truth card, verdict)] for each face-up card whose index shows, with verdict one of
    "right", "wrong", "unreadable", "missed"; [(recognition, card under it or None)] reported where no
    such card is, or reporting again a card already reported: one card read twice is a wrong report).
    """
    from vision.crops import index_centre

    reads_on: dict[int, list] = defaultdict(list)
    extra = []
    for rec in recognitions:
        j = place_of(scene, index_centre(rec.quad))
        truth = None if j is None else scene.cards[j]
        if truth is not None and truth.card is not None and truth.index_visible:
            reads_on[j].append(rec)
        elif truth is not None and truth.card is not None and rec.card in (None, truth.card):
            continue  # a card whose index hardly shows, read right or not read: no fault
        else:
            extra.append((rec, None if truth is None else truth.card))
    verdicts = []
    for j, truth in enumerate(scene.cards):
        if truth.card is None or not truth.index_visible:
            continue
        cards = [rec.card for rec in reads_on[j]]
        extra += [(rec, truth.card) for rec in [rec for rec in reads_on[j] if rec.card == truth.card][1:]]
        if any(card is not None and card != truth.card for card in cards):
            verdicts.append((truth.card, "wrong", next(c for c in cards if c is not None and c != truth.card)))
        elif truth.card in cards:
            verdicts.append((truth.card, "right", truth.card))
        else:
            verdicts.append((truth.card, "unreadable" if cards else "missed", None))
    return verdicts, extra


def scenes_seed(card_share: tuple[float, float] | None = None) -> list[int]:
    """The seed of the scenes read at a size band (card_share), or at the scenes' own sizes (None);
    the deck's place and the kind's follow it."""
    return [SEED] if card_share is None else [SEED, round(1000 * card_share[0]), round(1000 * card_share[1])]


def evaluate(recognizer, decks, counts, log=print, card_share: tuple[float, float] | None = None) -> dict:
    """Tallies per (deck, kind): right, wrong, unreadable, missed, phantom (reported on no card).
    card_share: the cards' long side as a share of the frame height (None: the scenes' own range)."""
    from sim.render.scenes import CARD_HEIGHT_SHARE, make_scene

    share = card_share or CARD_HEIGHT_SHARE
    seed = scenes_seed(card_share)
    tallies: dict = defaultdict(Counter)
    confused: Counter = Counter()
    wrong_examples = []
    for deck in decks:
        for k_i, (kind, n) in enumerate(counts.items()):
            rng = np.random.default_rng([*seed, scene_place(deck, decks), k_i])
            for _ in range(n):
                scene = make_scene(rng, kind, deck, card_share=share)
                verdicts, extra = score_reads(scene, recognizer.recognize(scene.image))
                t = tallies[(deck, kind)]
                t["scenes"] += 1
                for truth, verdict, read in verdicts:
                    t["cards"] += 1
                    t[verdict] += 1
                    if verdict == "wrong":
                        confused[(str(truth), str(read))] += 1
                        wrong_examples.append((deck, kind, str(truth), str(read)))
                t["phantom"] += len(extra)
                t["phantom_read"] += sum(rec.card is not None for rec, _ in extra)
                for rec, under in extra:
                    if rec.card is not None:
                        wrong_examples.append((deck, kind, f"{under or 'no face-up card'}", str(rec.card)))
        log(f"  {deck}: done")
    return {"tallies": tallies, "confused": confused, "wrong_examples": wrong_examples}


def print_mistakes(result: dict, examples: int = 10) -> None:
    confused = result["confused"].most_common(10)
    if examples >= 10 or confused:
        print("most confused (truth -> read): " + (", ".join(f"{a}->{b} x{n}" for (a, b), n in confused) or "none"))
    for example in result["wrong_examples"][:examples]:
        print(f"  wrong: deck {example[0]}, {example[1]}: {example[2]} read as {example[3]}")


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:6.2f} %" if b else "     -  "


def print_tallies(tallies: dict, decks, kinds, label: str = "held-out") -> None:
    print(f"{'deck':24s} {'kind':12s} {'cards':>6s} {'right':>9s} {'wrong':>9s} {'unreadable':>10s} "
          f"{'(missed)':>9s} {'reported on no card':>20s}")
    for kind in kinds:
        total = Counter()
        for deck in decks:
            t = tallies[(deck, kind)]
            total.update(t)
            _row(deck, kind, t)
        _row(f"ALL {label}", kind, total)
        print()


def _row(deck: str, kind: str, t: Counter) -> None:
    unread = t["unreadable"] + t["missed"]
    print(f"{deck:24s} {kind:12s} {t['cards']:6d} {pct(t['right'], t['cards']):>9s} "
          f"{pct(t['wrong'] + t['phantom_read'], t['cards']):>9s} {pct(unread, t['cards']):>10s} {t['missed']:9d} "
          f"{t['phantom']:10d} ({t['phantom_read']} read) in {t['scenes']} scenes")


def six_card_frames(n: int, deck: str, size: tuple[int, int] = (1280, 720)) -> list[np.ndarray]:
    """n rendered frames of `size` of separate cards holding exactly six cards."""
    from sim.render.scenes import make_scene

    rng = np.random.default_rng([SEED, 99, *size])
    frames = []
    while len(frames) < n:
        scene = make_scene(rng, "separate", deck, size)
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
    from vision.recognizer import Recognizer

    classifier = chosen_classifier()
    recognizer = Recognizer(classifier, chosen_finder(), whole_card=chosen_whole_card())
    label, decks, share = bench_decks()
    counts = scale_counts(share)
    model = classifier.model_path
    print(f"model {model}: {model.stat().st_size / 1e6:.2f} MB, "
          f"threshold {classifier.threshold:.4f}, temperature {classifier.temperature:.3f}")
    print(f"{label} decks: {', '.join(decks)}; scenes per deck: "
          + ", ".join(f"{k} {n}" for k, n in counts.items()) + f"; seed {SEED}")
    started = time.time()
    result = evaluate(recognizer, decks, counts)
    print(f"(accuracy pass {time.time() - started:.0f} s)\n")
    print_tallies(result["tallies"], decks, list(counts), label)
    print_mistakes(result)
    print("\nseparate cards by size (long side as a share of the frame height), "
          f"{BAND_SCENES} scenes per deck and band:")
    for band in SCALE_BANDS:
        result = evaluate(recognizer, decks, {"separate": max(3, round(BAND_SCENES * share))}, log=lambda *a: None,
                          card_share=band)
        total = Counter()
        for deck in decks:
            total.update(result["tallies"][(deck, "separate")])
        _row(f"{100 * band[0]:.0f}-{100 * band[1]:.0f} %", "separate", total)
        print_mistakes(result, 3)

    pin_to_one_core()
    frames = six_card_frames(TIMING_FRAMES, decks[0])
    times = time_frames(recognizer, frames)
    print(f"\n1280x720 frame, six cards, one core, the whole recognizer (finder as above, crops, classify, whole cards): median {statistics.median(times):.1f} ms, "
          f"p90 {np.percentile(times, 90):.1f} ms over {len(times)} runs")
    print(pi_estimate(statistics.median(times), sysbench_score()))
    # A phone's photo: rendered at a third of its size and enlarged (rendering 12 megapixels takes 20 s a frame).
    photos = [cv2.resize(frame, PHOTO_SIZE, interpolation=cv2.INTER_CUBIC)
              for frame in six_card_frames(PHOTO_FRAMES, decks[0], (PHOTO_SIZE[0] // 3, PHOTO_SIZE[1] // 3))]
    times = time_frames(recognizer, photos)
    print(f"{PHOTO_SIZE[0]}x{PHOTO_SIZE[1]} photo, six cards, one core, the whole recognizer: "
          f"median {statistics.median(times):.1f} ms, p90 {np.percentile(times, 90):.1f} ms over {len(times)} runs")
    print(f"peak RSS of `muggins recognize --json` on 4 frames: {peak_rss_of_cli(frames):.0f} MB")


if __name__ == "__main__":
    main()
