"""Learned decks (issue 26): a deck learned from one photo a card, read in other photos of it.

Rendered: each held-out deck (the models never trained on it) is learned from 52 photos of one card
each, on the felt table under the renderer's gentler light (realism 0.6), then read in scenes on the
four other tables at full realism: separate cards and overlapping rows. Each scene is read once by the
generic recognizer; the learned deck's check (vision.deck_reader.DeckReader, the recognizer's last
step) is then applied to those same reports with the whole deck, with half of it (every other card),
and with each other held-out deck learned instead (another deck on the table). Scored as
bench_vision scores the held-out decks; "wrong" counts misreads and reads where no such card lies,
the generic recognizer's with the deck's, and a last line counts those the learned deck made itself.

Real photographs of the steer part (bench/real/, rebuilt into .cache/real; the report part is left to
`python -m bench real`): the sources with several photos of one physical deck, each learned from one
photo of each card (the first, by file name) and read in all its other photos; and every other steer
source read with each learned deck (another deck on the table).

Also: learning time for 52 photos, a six-card frame's time with and without a learned deck (one
core, paired), a deck's size on disk, and learning from photos of a card filling the frame (kentdoan's
one-card photos cut inside the card's edges). MUGGINS_BENCH_SCALE=0.2 reads fewer scenes;
MUGGINS_BENCH_DECKS=validation reads the ten synthetic validation font decks in place of the held-out
decks (index fonts no training deck uses, at 0.3 of the scenes a deck), and MUGGINS_BENCH_REAL=0 leaves
the real photographs out. MUGGINS_BENCH_MODEL, MUGGINS_BENCH_CORNERS and MUGGINS_BENCH_WHOLE_CARD read
with other models (bench/chosen_models.py).

    make bench BENCH=deck          (or python -m bench deck)
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

SEED = 20261124
LEARN_TEXTURE = "felt"
READ_TEXTURES = ("wood", "cloth", "dark_mat", "light_table")
SCENES = {"separate": 40, "row": 24}     # per held-out deck
LEARN_REALISM = 0.6
LEARN_CARD_SHARE = (0.35, 0.6)           # learning photos: the card's long side over the frame height
TIMING_FRAMES = 12
# Real sources holding many photos of one physical deck, one photo of each card among them.
REAL_DECKS = ("kentdoan/playing-card-recognition",
              "EdjeElectronics/TensorFlow-Object-Detection-API-Tutorial-Train-Multiple-Objects-Windows-10",
              "Denuha/Recognition_playing_cards_IRT")


def scale() -> float:
    return float(os.environ.get("MUGGINS_BENCH_SCALE", "1"))


def pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:6.2f} %" if b else "     -  "


# ---- rendered decks ----------------------------------------------------------------------------------

def learning_photo(rng, deck: str, card, size=(1280, 720)):
    from sim.render.backgrounds import make_background
    from sim.render.camera import tilted_view
    from sim.render.table import Placement, compose

    height = rng.uniform(*LEARN_CARD_SHARE) * size[1]
    placement = Placement(card, (size[0] / 2 + rng.uniform(-80, 80), size[1] / 2 + rng.uniform(-40, 40)),
                          float(rng.uniform(-180, 180)), height)
    return compose(make_background(rng, LEARN_TEXTURE, size), [placement], rng, deck,
                   view=tilted_view(rng, size, 0.03), realism=LEARN_REALISM).image


def learn_rendered(recognizer, deck: str):
    """The deck learned from 52 rendered photos: (LearnedDeck, seconds learning, refusals)."""
    from cribbage.cards import FULL_DECK
    from vision.deck_learning import PhotoRefused, card_photo
    from vision.learned_deck import LearnedDeck

    rng = np.random.default_rng([SEED, sum(map(ord, deck))])
    photos = [(card, learning_photo(rng, deck, card)) for card in FULL_DECK]
    learned, refused = LearnedDeck(deck), []
    start = time.perf_counter()
    for card, image in photos:
        try:
            learned.learn(card, card_photo(recognizer, image, card))
        except PhotoRefused as exc:
            refused.append(f"{card}: {exc}")
    return learned, time.perf_counter() - start, refused


def reader_of(recognizer, learned):
    """The learned deck's check as the recognizer makes it (vision.recognizer.Recognizer, deck=)."""
    from vision.deck_reader import DeckReader

    return DeckReader(learned, recognizer.classifier, recognizer.cropper, recognizer.whole_card)


def half_of(deck):
    """Every other card of the learned deck (by the deck's order): 26 cards."""
    from vision.learned_deck import LearnedDeck

    half = LearnedDeck(deck.name + "-half")
    for card in deck.cards:
        if card.index % 2 == 0:
            half.add(card, deck.crops[card], deck.faces.get(card, []))
    return half


def tally(scene, reports, tallies: Counter, known=None) -> None:
    """Add a scene's verdicts; with `known` (cards learned), split into known and other cards."""
    from bench.bench_vision import score_reads

    verdicts, extra = score_reads(scene, reports)
    for truth, verdict, _ in verdicts:
        group = "" if known is None else ("known " if truth in known else "other ")
        tallies[group + "cards"] += 1
        tallies[group + verdict] += 1
    tallies["wrong"] += sum(rec.card is not None for rec, _ in extra)
    tallies["extra wrong"] += sum(rec.card is not None for rec, _ in extra)


def made_wrong(scene, generic, learned) -> int:
    """Wrong reads the learned deck made itself: cards read wrong with it and not without, and reads
    where no such card lies that it added."""
    from bench.bench_vision import score_reads

    verdicts, extra = score_reads(scene, generic)
    verdicts_learned, extra_learned = score_reads(scene, learned)
    made = sum(after == "wrong" and before != "wrong"
               for (_, before, _), (_, after, _) in zip(verdicts, verdicts_learned))
    added = sum(rec.card is not None for rec, _ in extra_learned) - sum(rec.card is not None for rec, _ in extra)
    return made + max(0, added)


def row(label: str, t: Counter, group: str = "") -> str:
    cards = t[group + "cards"]
    return (f"{label:44s} {cards:6d} {pct(t[group + 'right'], cards):>9s} "
            f"{pct(t[group + 'wrong'], cards):>9s} ({t[group + 'wrong']:3d}) "
            f"{pct(t[group + 'unreadable'] + t[group + 'missed'], cards):>9s} ({t[group + 'missed']:3d})")


HEADER = f"{'':44s} {'cards':>6s} {'right':>9s} {'wrong':>15s} {'not read (missed)':>17s}"


class Targets:
    """Issue 26's figures as this run measured them, each with whether it is reached; printed last."""

    def __init__(self):
        self.lines: list[tuple[str, str, bool]] = []

    def add(self, target: str, measured: str, reached: bool) -> None:
        self.lines.append((target, measured, reached))

    def print(self) -> None:
        print("\nIssue 26's targets, as measured above:")
        for target, measured, reached in self.lines:
            print(f"  {target:56s} {'reached' if reached else 'NOT reached':12s} {measured}")


def percent_of(t: Counter, what: str, group: str = "") -> float:
    return 100.0 * t[group + what] / t[group + "cards"] if t[group + "cards"] else 100.0


def rendered(recognizer, targets: Targets) -> dict:
    from bench.bench_vision import bench_decks
    from sim.render.scenes import make_scene

    label, deck_names, share = bench_decks()

    decks = {}
    for deck in deck_names:
        learned, seconds, refused = learn_rendered(recognizer, deck)
        decks[deck] = learned
        print(f"{deck}: learned {len(learned.cards)} cards from 52 photos in {seconds:.1f} s "
              f"({1000 * seconds / 52:.0f} ms a photo); refused: {'; '.join(refused) or 'none'}")
    readers = {deck: reader_of(recognizer, learned) for deck, learned in decks.items()}
    halves = {deck: half_of(learned) for deck, learned in decks.items()}
    half_readers = {deck: reader_of(recognizer, h) for deck, h in halves.items()}
    tallies: dict[tuple, Counter] = defaultdict(Counter)
    made: Counter = Counter()                 # (mode, kind) -> wrong reads the learned deck made itself
    started = time.time()
    for deck in deck_names:
        rng = np.random.default_rng([SEED, 7, sum(map(ord, deck))])
        for kind, n in SCENES.items():
            for k in range(max(3, round(n * scale() * share))):
                scene = make_scene(rng, kind, deck, texture=READ_TEXTURES[k % len(READ_TEXTURES)])
                reports = recognizer.recognize(scene.image)
                tally(scene, reports, tallies[(deck, kind, "generic")])
                learned = readers[deck].reread(scene.image, reports)
                tally(scene, learned, tallies[(deck, kind, "learned")])
                made[("learned", kind)] += made_wrong(scene, reports, learned)
                known = set(halves[deck].cards)
                tally(scene, reports, tallies[(deck, kind, "generic split")], known)
                half = half_readers[deck].reread(scene.image, reports)
                tally(scene, half, tallies[(deck, kind, "half")], known)
                made[("half", kind)] += made_wrong(scene, reports, half)
                for other in deck_names:
                    if other != deck:
                        theirs = readers[other].reread(scene.image, reports)
                        tally(scene, theirs, tallies[(deck, kind, "other")])
                        made[("other", kind)] += made_wrong(scene, reports, theirs)
    print(f"(reading pass {time.time() - started:.0f} s)\n")
    print(f"Rendered {label} decks, learned on the felt table, read on the four others:")
    print(HEADER)
    totals: dict[tuple, Counter] = defaultdict(Counter)
    for kind in SCENES:
        for mode, words in (("generic", "without a learned deck"), ("learned", "with the deck learned")):
            for deck in deck_names:
                totals[(kind, mode)].update(tallies[(deck, kind, mode)])
                print(row(f"  {deck} {kind}, {words}", tallies[(deck, kind, mode)]))
            print(row(f"ALL {kind}, {words}", totals[(kind, mode)]))
        print()
    learned = [totals[(kind, "learned")] for kind in SCENES]
    targets.add(f"rendered {label}, deck learned: >= 99.9 % right",
                ", ".join(f"{kind} {percent_of(t, 'right'):.2f} %" for kind, t in zip(SCENES, learned)),
                all(percent_of(t, "right") >= 99.9 for t in learned))
    print("Half the deck learned (every other card): the cards it knows, and the others")
    print(HEADER)
    halves_known, halves_other, wrong_learned = [], [], sum(t["wrong"] for t in learned)
    for kind in SCENES:
        generic, half = Counter(), Counter()
        for deck in deck_names:
            generic.update(tallies[(deck, kind, "generic split")])
            half.update(tallies[(deck, kind, "half")])
        for group, name in (("known ", "known cards"), ("other ", "other cards")):
            print(row(f"ALL {kind}, {name}, without", generic, group))
            print(row(f"ALL {kind}, {name}, half learned", half, group))
        print(f"{'ALL ' + kind + ', reads where no such card lies':44s} without {generic['extra wrong']}, "
              f"half learned {half['extra wrong']}")
        halves_known.append((kind, percent_of(half, "right", "known ")))
        halves_other.append((kind, percent_of(generic, "right", "other "), percent_of(half, "right", "other ")))
        wrong_learned += half["wrong"]
    targets.add(f"rendered {label}, half learned: its cards >= 99.9 %",
                ", ".join(f"{kind} {value:.2f} %" for kind, value in halves_known),
                all(value >= 99.9 for _, value in halves_known))
    targets.add(f"rendered {label}, half learned: the others as without",
                ", ".join(f"{kind} {a:.2f} -> {b:.2f} %" for kind, a, b in halves_other),
                all(b >= a for _, a, b in halves_other))
    targets.add(f"rendered {label}: 0 wrong with a deck learned", f"{wrong_learned} wrong (whole and half)",
                wrong_learned == 0)
    others = len(deck_names) - 1
    print(f"\nAnother deck on the table (each deck read with each other {label} deck learned, {others} readings a card):")
    print(HEADER)
    for kind in SCENES:
        generic, other = Counter(), Counter()
        for deck in deck_names:
            generic.update(tallies[(deck, kind, "generic")])
            other.update(tallies[(deck, kind, "other")])
        generic = Counter({k: others * v for k, v in generic.items()})
        print(row(f"ALL {kind}, without (counted {others} times)", generic))
        print(row(f"ALL {kind}, another deck learned", other))
        targets.add(f"rendered {label} {kind}, another deck learned: wrong", f"{generic['wrong']} -> {other['wrong']}",
                    other["wrong"] <= generic["wrong"])
    print("\nWrong reads the learned deck made itself (read wrong with it, not without): "
          + "; ".join(f"{words} " + ", ".join(f"{kind} {made[(mode, kind)]}" for kind in SCENES)
                      for mode, words in (("learned", "its own deck"), ("half", "half of it"),
                                          ("other", "another deck"))))
    return decks


def timing(recognizer, decks: dict, targets: Targets) -> None:
    from bench.bench_vision import six_card_frames
    from bench.machine import pin_to_one_core
    from vision.learned_deck import save_deck

    pin_to_one_core()
    deck = next(iter(decks))
    frames = six_card_frames(TIMING_FRAMES, deck)
    reader = reader_of(recognizer, decks[deck])
    for frame in frames[:3]:
        recognizer.recognize(frame)
    plain, learned = [], []
    for _ in range(3):
        for frame in frames:  # paired: the same frame without, then with the learned deck
            start = time.perf_counter()
            recognizer.recognize(frame)
            plain.append((time.perf_counter() - start) * 1000.0)
            recognizer.deck = reader
            start = time.perf_counter()
            recognizer.recognize(frame)
            learned.append((time.perf_counter() - start) * 1000.0)
            recognizer.deck = None
    ratio = statistics.median([b / a for a, b in zip(plain, learned)])
    print(f"\n1280x720 frame, six cards of {deck}, one core, paired: without {statistics.median(plain):.1f} ms, "
          f"with the learned deck {statistics.median(learned):.1f} ms (median; median ratio {ratio:.3f}, "
          f"{100 * (ratio - 1):+.1f} %) over {len(plain)} pairs")
    face_cost(recognizer, reader, frames, statistics.median(plain))
    with tempfile.TemporaryDirectory() as folder:
        sizes = [save_deck(Path(folder), learned).stat().st_size for learned in decks.values()]
    crops = [sum(len(v) for v in learned.crops.values()) for learned in decks.values()]
    print(f"deck file on disk: {', '.join(f'{s / 1e3:.0f} kB ({c} crops)' for s, c in zip(sizes, crops))}")
    targets.add("a frame with a learned deck: <= 10 % slower", f"{100 * (ratio - 1):+.1f} %", ratio <= 1.10)
    targets.add("a learned deck: <= 5 MB on disk", f"largest {max(sizes) / 1e3:.0f} kB", max(sizes) <= 5e6)


def face_cost(recognizer, reader, frames: list, frame_ms: float) -> None:
    """What reading a lone unread card's whole face adds to a frame (the timed frames may hold none)."""
    from vision.deck_reader import alone

    if reader.whole_card is None:
        return
    faced = 0
    for frame in frames:
        reports = recognizer.recognize(frame)
        faced += any(rec.card is None and alone(rec.quad, [o.quad for o in reports if o is not rec]) for rec in reports)
    quad = np.float32([[100, 100], [275, 100], [275, 350], [100, 350]])
    reader.face_matches(frames[0], [quad])
    start = time.perf_counter()
    for _ in range(20):
        reader.face_matches(frames[0], [quad])
    cost = (time.perf_counter() - start) / 20 * 1000.0
    print(f"an unread card lying alone, its face read and matched: +{cost:.2f} ms a card "
          f"({100 * cost / frame_ms:+.1f} % of the frame); timed frames holding one: {faced} of {len(frames)}")


# ---- real photographs --------------------------------------------------------------------------------

def photo_scores(label: dict, image, reports, reader) -> dict:
    """A real photo's score (bench.real.score) read without and with a learned deck."""
    from bench.real.score import score_photo

    return {mode: score_photo(label["cards"], [None if r.card is None else str(r.card) for r in out])
            for mode, out in (("generic", reports), ("learned", reader.reread(image, reports)))}


def real(recognizer, targets: Targets) -> None:
    import cv2

    from bench.bench_real import present
    from bench.real.build import DEFAULT_OUT, load_labels, load_sources
    from bench.real.parts import STEER, part_of
    from cribbage.cards import Card
    from vision.deck_learning import PhotoRefused, card_photo
    from vision.learned_deck import LearnedDeck

    # Only the steer part: these figures carry targets and so steer the learned decks; the report
    # part is only ever read by `python -m bench real` (bench/real/parts.py).
    sources = load_sources()
    photos = present([label for label in load_labels() if part_of(label["source"], sources) == STEER], DEFAULT_OUT)
    if not photos:
        print(f"\nno real photographs under {DEFAULT_OUT}: run python -m bench.real.build first")
        return
    print(f"\nReal photographs of the steer part ({len(photos)} present): generic reads first")
    started = time.time()
    reports = {}
    for label, path in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is not None:
            reports[str(path)] = (label, image, recognizer.recognize(image))
    print(f"(reading pass {time.time() - started:.0f} s)")
    readers, learning = {}, {}
    for source in REAL_DECKS:
        learned, refused, used, seconds = LearnedDeck(source.split("/")[0]), [], set(), 0.0
        for key, (label, image, _) in sorted(reports.items()):
            if label["source"] != source or len(label["cards"]) != 1:
                continue
            card = Card.parse(label["cards"][0])
            if card in learned.crops or any(r.startswith(label["cards"][0] + " ") for r in refused):
                continue
            start = time.perf_counter()
            try:
                learned.learn(card, card_photo(recognizer, image, card))
                used.add(key)
            except PhotoRefused as exc:
                refused.append(f"{label['cards'][0]} ({Path(key).name}): {exc}")
            seconds += time.perf_counter() - start
        readers[source] = reader_of(recognizer, learned)
        learning[source] = used
        print(f"\n{source}: learned {len(learned.cards)} cards from {len(used) + len(refused)} photos "
              f"({seconds:.1f} s); refused {len(refused)}: {'; '.join(refused) or 'none'}")
    print(f"{'':44s} {'cards':>6s} {'right':>9s} {'wrong':>15s} {'unread, missed':>15s}")
    own, made = {}, Counter()
    for source in REAL_DECKS:
        rows = defaultdict(Counter)
        for key, (label, image, recs) in reports.items():
            if label["source"] != source or key in learning[source]:
                continue
            scores = photo_scores(label, image, recs, readers[source])
            for mode, score in scores.items():
                rows[mode].update(score.as_counter())
            made["own"] += max(0, scores["learned"].wrong - scores["generic"].wrong)
        for mode in ("generic", "learned"):
            t = rows[mode]
            print(f"{source.split('/')[0] + ' other photos, ' + mode:44s} {t['cards']:6d} {pct(t['right'], t['cards']):>9s} "
                  f"{pct(t['wrong'], t['cards']):>9s} ({t['wrong']:3d}) {t['unread']:5d}, {t['missed']}")
        own[source.split("/")[0]] = rows
    targets.add("real photographs, own deck learned: >= 99.9 % right",
                ", ".join(f"{name} {percent_of(rows['learned'], 'right'):.2f} %" for name, rows in own.items()),
                all(percent_of(rows["learned"], "right") >= 99.9 for rows in own.values()))
    targets.add("real photographs, own deck learned: 0 wrong",
                ", ".join(f"{name} {rows['learned']['wrong']} (without it {rows['generic']['wrong']})"
                          for name, rows in own.items()),
                all(rows["learned"]["wrong"] == 0 for rows in own.values()))
    others = []
    print("\nAnother deck on the table: every photo of the other sources, read with each learned deck:")
    for source in REAL_DECKS:
        rows = defaultdict(Counter)
        for key, (label, image, recs) in reports.items():
            if label["source"] == source:
                continue
            scores = photo_scores(label, image, recs, readers[source])
            for mode, score in scores.items():
                rows[mode].update(score.as_counter())
            made["other"] += max(0, scores["learned"].wrong - scores["generic"].wrong)
        print(f"  {source.split('/')[0]} learned: {rows['generic']['cards']} cards; right "
              f"{pct(rows['generic']['right'], rows['generic']['cards'])} -> {pct(rows['learned']['right'], rows['learned']['cards'])}, "
              f"wrong {rows['generic']['wrong']} -> {rows['learned']['wrong']}")
        others.append((source.split("/")[0], rows["generic"]["wrong"], rows["learned"]["wrong"]))
    print(f"Wrong reads the learned decks made themselves (more wrong in a photo with the deck than without): "
          f"their own photos {made['own']}, the other sources' {made['other']}")
    targets.add("real photographs, another deck learned: wrong", ", ".join(f"{name} {a} -> {b}" for name, a, b in others),
                all(b <= a for _, a, b in others))


def learning_time_real(targets: Targets) -> None:
    """`muggins deck learn`'s own path on kentdoan's 52 one-card photos (phone photos), one core."""
    from bench.real.build import DEFAULT_OUT, folder_name
    from bench.chosen_models import chosen_recognizer
    from vision.deck_learning import learn_folder

    folder = DEFAULT_OUT / folder_name(REAL_DECKS[0])
    recognizer = chosen_recognizer(lambda *a: None)
    with tempfile.TemporaryDirectory() as tmp:
        from bench.real.build import load_labels

        named = 0
        for label in load_labels():
            if label["source"] == REAL_DECKS[0] and len(label["cards"]) == 1:
                src = folder / label["path"]
                if src.is_file():
                    os.symlink(src, Path(tmp) / f"{label['cards'][0]}{src.suffix.lower()}")
                    named += 1
        if not named:
            return
        start = time.perf_counter()
        deck, report = learn_folder("timing", Path(tmp), recognizer)
        seconds = time.perf_counter() - start
    print(f"\n`muggins deck learn` path on {named} real one-card photos ({REAL_DECKS[0]}), one core, models "
          f"loaded first: {seconds:.1f} s, {len(report.learned)} cards learned, {len(report.refused)} refused")
    targets.add("learning 52 photos: <= 60 s", f"{seconds:.1f} s for {named} real photos", seconds <= 60.0)


def close_ups(recognizer, inside: float = 0.03) -> None:
    """Learning from phone photos of one card filling the frame: kentdoan's one-card photos cut to the
    card's box, `inside` of a card's length within it on every side, so the frame cuts its edges."""
    import cv2

    from bench.real.build import DEFAULT_OUT, folder_name, load_labels
    from cribbage.cards import Card
    from vision.deck_learning import PhotoRefused, card_photo
    from vision.one_card import long_side

    folder = DEFAULT_OUT / folder_name(REAL_DECKS[0])
    photos, found, learned, refused = 0, 0, 0, Counter()
    for label in load_labels():
        path = folder / label["path"]
        if label["source"] != REAL_DECKS[0] or len(label["cards"]) != 1 or not path.is_file():
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        reads = [rec for rec in recognizer.recognize(image) if rec.card is not None]
        if len(reads) != 1:
            continue
        cut = int(round(inside * long_side(reads[0].quad)))
        (x0, y0), (x1, y1) = np.maximum(reads[0].quad.min(axis=0), 0).astype(int), reads[0].quad.max(axis=0).astype(int)
        close = np.ascontiguousarray(image[y0 + cut:y1 - cut, x0 + cut:x1 - cut])
        photos += 1
        found += bool(recognizer.recognize(close))
        try:
            card_photo(recognizer, close, Card.parse(label["cards"][0]))
            learned += 1
        except PhotoRefused as exc:
            refused[str(exc).split(" (")[0]] += 1
    if photos:
        print(f"\nA card filling the photo ({REAL_DECKS[0]}'s one-card photos cut {inside:.0%} of a card inside "
              f"its box on every side): a card found in {found} of {photos} as they are; learned from {learned} "
              f"(looked at again inside a dark border where none is found); refused: "
              f"{', '.join(f'{n} {why}' for why, n in refused.items()) or 'none'}")


def main() -> None:
    from bench.chosen_models import chosen_recognizer
    from bench.machine import describe

    if __name__ == "__main__":
        print(describe())
    recognizer = chosen_recognizer()
    targets = Targets()
    decks = rendered(recognizer, targets)
    if os.environ.get("MUGGINS_BENCH_REAL", "1") != "0":
        real(recognizer, targets)
    timing(recognizer, decks, targets)
    if os.environ.get("MUGGINS_BENCH_REAL", "1") != "0":
        learning_time_real(targets)
        close_ups(recognizer)
    targets.print()


if __name__ == "__main__":
    main()
