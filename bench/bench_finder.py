"""Card finder: recall and precision per scene kind and table texture, and its speed on one core.

Scenes are rendered from the held-out decks (committed assets), seeded, at 1280x720.
A face-up card counts as found when a candidate's quad (in any of its orderings) has every corner
within CORNER_TOLERANCE pixels of the truth; in rows, when a candidate starts at the card's visible
index corner within INDEX_TOLERANCE.  Precision counts candidates that match no card, back or prop
as false, and those over a card that match none (an outline misplaced, or a whole card where a row
card's visible index is wanted) as misplaced: the classifier may misread them.  Run: python -m bench finder   (or python bench/bench_finder.py [scenes per cell])

The finder measured is the recognizer's: vision.finder's outlines and the corner detector's
(vision.corners); MUGGINS_BENCH_CORNERS=none measures vision.finder alone, =path another detector.
"""

from __future__ import annotations

import statistics
import sys
import time

import cv2
import numpy as np

from bench.machine import describe, pin_to_one_core
from bench.chosen_models import chosen_finder
from sim.render.backgrounds import TEXTURES
from sim.render.decks import HELD_OUT_DECKS
from sim.render.scenes import SCENE_KINDS, make_scene

CORNER_TOLERANCE = 6.0
INDEX_TOLERANCE = 10.0
SIX_CARD_FRAMES = 40


def corner_error(quad: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance between two quads, over the four cyclic orderings of the first."""
    return min(float(np.hypot(*(np.roll(quad, r, axis=0) - truth).T).max()) for r in range(4))


def inside(quad: np.ndarray, size: tuple[int, int]) -> bool:
    w, h = size
    return bool((quad[:, 0] >= 0).all() and (quad[:, 0] <= w - 1).all() and (quad[:, 1] >= 0).all()
                and (quad[:, 1] <= h - 1).all())


def score_scene(scene, candidates, size) -> dict:
    """Counts for one scene: cards expected and found, candidates and false candidates."""
    out = {"cards": 0, "found": 0, "candidates": len(candidates), "false": 0, "misplaced": 0, "errors": []}
    used = set()
    for truth in scene.cards:
        if truth.card is None:
            continue
        if scene.kind == "row" or not truth.index_visible or not inside(truth.quad, size):
            if not truth.index_visible:
                continue
            dists = [(float(np.hypot(*(q[0] - truth.quad[0]))), i) for i, c in enumerate(candidates)
                     for q in c.quads]
            ok = [i for d, i in dists if d <= INDEX_TOLERANCE]
        else:
            errs = [(corner_error(c.quad, truth.quad), i) for i, c in enumerate(candidates)]
            ok = [i for e, i in errs if e <= CORNER_TOLERANCE]
            if ok:
                out["errors"].append(min(e for e, i in errs if e <= CORNER_TOLERANCE))
        out["cards"] += 1
        if ok:
            out["found"] += 1
            used.update(ok)
    # A candidate over a back, a prop or a card counts as explained (the classifier rejects backs/props).
    things = [t.quad for t in scene.cards] + [q for _, q in scene.props]
    for i, c in enumerate(candidates):
        if i in used:
            continue
        centre = c.quad.mean(axis=0)
        over = [j for j, q in enumerate(things)
                if cv2.pointPolygonTest(q.astype(np.float32), (float(centre[0]), float(centre[1])), False) >= 0]
        if not over:
            out["false"] += 1
        elif any(j < len(scene.cards) and scene.cards[j].card is not None for j in over):
            out["misplaced"] += 1
    return out


def main(per_cell: int = 10) -> None:
    pin_to_one_core()
    find_cards = chosen_finder()
    size = (1280, 720)
    print(f"finder on held-out decks {', '.join(HELD_OUT_DECKS)}; {per_cell} scenes per kind and texture; "
          f"corners within {CORNER_TOLERANCE:g} px (rows: index corner within {INDEX_TOLERANCE:g} px)")
    print(f"{'kind':12s} {'texture':12s} {'recall':>14s} {'mean err px':>11s} {'false cand.':>11s} {'misplaced':>9s} "
          f"{'ms median':>9s}")
    for kind in SCENE_KINDS:
        for texture in TEXTURES:
            total = {"cards": 0, "found": 0, "candidates": 0, "false": 0, "misplaced": 0, "errors": []}
            times = []
            for i in range(per_cell):
                deck = HELD_OUT_DECKS[i % len(HELD_OUT_DECKS)]
                scene = make_scene(np.random.default_rng(10_000 + i), kind, deck, size, texture=texture)
                start = time.perf_counter()
                candidates = find_cards(scene.image)
                times.append((time.perf_counter() - start) * 1000)
                for key, value in score_scene(scene, candidates, size).items():
                    total[key] += value
            recall = f"{total['found']}/{total['cards']}" + (
                f" {100 * total['found'] / total['cards']:.0f}%" if total["cards"] else "")
            err = f"{np.mean(total['errors']):.2f}" if total["errors"] else "-"
            print(f"{kind:12s} {texture:12s} {recall:>14s} {err:>11s} {total['false']:>11d} {total['misplaced']:>9d} "
                  f"{statistics.median(times):9.1f}", flush=True)
    frames = []
    rng = np.random.default_rng(77)
    while len(frames) < SIX_CARD_FRAMES:
        scene = make_scene(rng, "separate", HELD_OUT_DECKS[len(frames) % 3], size)
        if len(scene.cards) == 6:
            frames.append(scene.image)
    times = []
    for image in frames:
        start = time.perf_counter()
        find_cards(image)
        times.append((time.perf_counter() - start) * 1000)
    print(f"finder, 1280x720 frame with six separate cards, one core: median {statistics.median(times):.1f} ms, "
          f"90th percentile {np.percentile(times, 90):.1f} ms over {len(times)} frames")


if __name__ == "__main__":
    print(describe())
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10)
