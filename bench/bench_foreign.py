"""Never guess: decks lettered in another language, read as the held-out decks are read.

A Dutch deck letters its jack, queen and king B V H, a French one V D R, and a German-suited deck
has leaves, acorns and bells for suits: no index of theirs but a plain number over a French suit is a
card the recognizer may name. Scenes of separate cards and rows (seeded, as bench_vision's) of each
deck below are read, and every card is judged as bench_vision judges it; what matters here is the
wrong column, split into courts and the rest, and the confusions. "Right" on such a deck is a read
that happens to name the card laid (a Dutch V of hearts read as the queen of hearts), which the
recognizer has no way to know from the index.

The decks (never trained on; chosen on 2026-11-28 before any run they judged, they have been one of
the conditions that chose between runs since: models/HISTORY.md section 16):
`foreign-pysol-sn-dietsche-small` (Dutch courts B V H; its numbers print the rank alone, no suit) and
`foreign-pysol-wilhelmtell` (French courts V D R; no ace index), both from Debian's pysolfc-cardsets,
fetched by sim/render/designs.py; and kdegames' `xskat-german` (German suits, courts U O K), where
that package is installed.

Run: make bench BENCH=foreign   (MUGGINS_BENCH_MODEL etc. as for bench_vision; MUGGINS_BENCH_SCALE)
"""

from __future__ import annotations

import os
import time
from collections import Counter

from bench.bench_vision import evaluate, pct
from bench.chosen_models import chosen_classifier, chosen_finder, chosen_whole_card

SCENES = {"separate": 40, "row": 24}
KDEGAMES_FOREIGN = ("xskat-german",)


def foreign_decks(say=print) -> list[str]:
    """The foreign decks this machine can draw: the fetched designs, and the installed kdegames ones."""
    from sim.render.designs import DesignError, fetch, foreign_decks as fetched
    from sim.render.decks import svg_file

    decks = []
    for deck in fetched():
        try:
            fetch(deck)
            decks.append(deck)
        except DesignError as exc:
            say(f"{deck}: skipped ({exc})")
    for deck in KDEGAMES_FOREIGN:
        if svg_file(deck) is None:
            say(f"{deck}: skipped (not installed: sudo apt install kdegames-card-data-kf5)")
        else:
            decks.append(deck)
    return decks


def main() -> None:
    from vision.recognizer import Recognizer

    classifier = chosen_classifier()
    recognizer = Recognizer(classifier, chosen_finder(), whole_card=chosen_whole_card())
    scale = float(os.environ.get("MUGGINS_BENCH_SCALE", "1"))
    counts = {kind: max(3, round(n * scale)) for kind, n in SCENES.items()}
    decks = foreign_decks()
    if not decks:
        print("no foreign deck to read")
        return
    print(f"model {classifier.model_path}; scenes per deck: " + ", ".join(f"{k} {n}" for k, n in counts.items()))
    started = time.time()
    result = evaluate(recognizer, decks, counts, log=lambda *a: None)
    wrong_on = Counter()
    for deck, _, truth, _ in result["wrong_examples"]:
        wrong_on[(deck, "court" if truth[:-1] in ("J", "Q", "K") else "other")] += 1
    print(f"(pass {time.time() - started:.0f} s)\n")
    print(f"{'deck':34s} {'cards':>6s} {'right':>9s} {'wrong':>9s} {'unreadable':>10s}  wrong reads: courts, others")
    everything = Counter()
    for deck in decks:
        t = Counter()
        for kind in counts:
            t.update(result["tallies"][(deck, kind)])
        everything.update(t)
        wrong = t["wrong"] + t["phantom_read"]
        print(f"{deck:34s} {t['cards']:6d} {pct(t['right'], t['cards']):>9s} {pct(wrong, t['cards']):>9s} "
              f"{pct(t['unreadable'] + t['missed'], t['cards']):>10s}  {wrong_on[(deck, 'court')]:3d}, "
              f"{wrong_on[(deck, 'other')]:3d}")
    wrong = everything["wrong"] + everything["phantom_read"]
    print(f"{'ALL foreign':34s} {everything['cards']:6d} {pct(everything['right'], everything['cards']):>9s} "
          f"{pct(wrong, everything['cards']):>9s} ({wrong} wrong reads)")
    confused = result["confused"].most_common(12)
    print("most confused (truth -> read): " + (", ".join(f"{a}->{b} x{n}" for (a, b), n in confused) or "none"))


if __name__ == "__main__":
    main()
