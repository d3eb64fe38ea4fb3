"""Where the cards of rendered scenes that are not read right are lost, stage by stage.

Each face-up card whose index shows and that the recognizer does not report read right is put in the
first stage that lost it:
- "never offered": no candidate reads it at its index corner (no outline or detector corner starting
  within OFFERED_NEAR of a card's length of the corner and running within OFFERED_TURN of its way);
- "offered, left unread": one does, but no reading before the settle stage is of that card there;
- "read, then settled away": a reading of it there was made, and the settle stage (vision.settle)
  left it out;
- "read wrong": a report there names another card.

It reads the ten validation decks only: they may steer, and this is for choosing what to work on; the
held-out decks are for reporting, not for looking into. Run:
    python -m bench.lost_cards                       fans of the ten validation decks, 8 scenes a deck
    python -m bench.lost_cards --kind row --scenes 4
    python -m bench.lost_cards --kind separate --band 0.10 0.16   cards 10-16 % of the frame high
The scenes are the first of `python -m bench vision`'s for that kind and deck (the same seeds); with
--band, of its separate cards in that size band.
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from bench.bench_vision import SCENES, place_of, scenes_seed, score_reads

OFFERED_NEAR = 0.12   # a candidate's corner within this share of the card's length of the index corner ...
OFFERED_TURN = 15.0   # ... and its long side within this many degrees of the card's
STAGES = ("never offered", "offered, left unread", "read, then settled away", "read wrong")


def offered(candidates, quad: np.ndarray) -> bool:
    """Whether any candidate offers a reading that starts at quad's index corner and runs its way."""
    from vision.corners import turn_between
    from vision.recognizer import orderings

    down = quad[3] - quad[0]
    near = OFFERED_NEAR * float(np.linalg.norm(down))
    return any(float(np.linalg.norm(q[0] - quad[0])) <= near and turn_between(q[3] - q[0], down) <= OFFERED_TURN
               for candidate in candidates for q in orderings(candidate))


def lost_in_scene(scene, reports, candidates, readings) -> Counter:
    """The stage each card of the scene not read right was lost at (STAGES), from the last read pass's
    candidates and readings before settling."""
    from vision.crops import index_centre

    stages: Counter = Counter()
    verdicts, _ = score_reads(scene, reports)
    for truth, verdict, _ in verdicts:
        if verdict == "right":
            continue
        if verdict == "wrong":
            stages["read wrong"] += 1
            continue
        j = next(i for i, t in enumerate(scene.cards) if t.card == truth and t.index_visible)
        read_there = any(rec.card == truth and place_of(scene, index_centre(rec.quad)) == j for rec in readings)
        if read_there:
            stages["read, then settled away"] += 1
        elif offered(candidates, np.asarray(scene.cards[j].quad, np.float32)):
            stages["offered, left unread"] += 1
        else:
            stages["never offered"] += 1
    return stages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lost_cards", description=__doc__.split("\n")[0])
    parser.add_argument("--kind", choices=sorted(SCENES), default="fan")
    parser.add_argument("--scenes", type=int, default=8, help="scenes a deck (the bench's first ones)")
    parser.add_argument("--band", type=float, nargs=2, metavar=("LOW", "HIGH"),
                        help="cards' long side as a share of the frame height (default: the scenes' own range)")
    args = parser.parse_args(argv)
    if args.band is not None and not 0 < args.band[0] <= args.band[1] <= 1:
        parser.error(f"--band {args.band[0]} {args.band[1]}: give two shares of the frame height, 0 < LOW <= HIGH <= 1")

    from bench.chosen_models import chosen_classifier, chosen_finder, chosen_whole_card
    from sim.render.fontdecks import validation_deck_names
    from sim.render.scenes import CARD_HEIGHT_SHARE, make_scene
    from vision.recognizer import Recognizer

    last: dict = {}
    recognizer = Recognizer(classifier=chosen_classifier(), finder=chosen_finder(), whole_card=chosen_whole_card(),
                            observe=lambda candidates, readings: last.update(candidates=candidates, readings=readings))
    decks = validation_deck_names()
    # The bench seeds a size band's scenes by the band, each band read as its only kind (index 0).
    seed = scenes_seed(None if args.band is None else tuple(args.band))
    kind_index = list(SCENES).index(args.kind) if args.band is None else 0
    print(f"{'deck':24} {'cards':>6} {'right':>6}  " + "  ".join(f"{s:>24}" for s in STAGES))
    total: Counter = Counter()
    for d_i, deck in enumerate(decks):
        rng = np.random.default_rng([*seed, d_i, kind_index])
        tally: Counter = Counter()
        for _ in range(args.scenes):
            scene = make_scene(rng, args.kind, deck, card_share=tuple(args.band or CARD_HEIGHT_SHARE))
            reports = recognizer.recognize(scene.image)
            tally["cards"] += sum(t.card is not None and t.index_visible for t in scene.cards)
            tally.update(lost_in_scene(scene, reports, last.get("candidates", []), last.get("readings", [])))
        tally["right"] = tally["cards"] - sum(tally[s] for s in STAGES)
        total.update(tally)
        print(f"{deck:24} {tally['cards']:>6} {tally['right']:>6}  " + "  ".join(f"{tally[s]:>24}" for s in STAGES))
    print(f"{'all':24} {total['cards']:>6} {total['right']:>6}  " + "  ".join(f"{total[s]:>24}" for s in STAGES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
