"""Card recognition on photographs of real cards: how the recognizer fares off the render.

The photos come from public repositories (bench/real/sources.json: several physical decks, tables,
hands, distances, oblique views), labelled by hand in bench/real/labels.jsonl; `python -m
bench.real.build` copies them into .cache/real from the fetched mirrors. Each photo is scored by
multisets of cards (bench/real/score.py): right, wrong (misreads, doubles, cards where none is
labelled), unread (seen, not read), missed; per source, per band (the card's long side as a share of
the frame height), per scene and in all, with the median time a photo. Sources marked "eval" in
sources.json are never to be trained on; where the models train on some of a part's sources, its other
sources are summed apart too, the figure training does not flatter.

Every table is printed per part (bench/real/parts.py): first the report part, sources that steered no
choice, the figure a player should expect; then the steer part, sources that steered choices, whose
figures are fitted. The whole set appears only as "all". Judge a change on the steer part; the report
part is only read, never tuned on.

    python -m bench real                        (or make bench BENCH=real)
    python -m bench.bench_real --list-wrong     each photo with its wrong reads
    python -m bench.bench_real --overlay DIR    annotated copies of the photos (vision/overlay.py)
    python -m bench.bench_real --max-side 1024  every photo larger than that shrunk to it first
    python -m bench.bench_real --part steer     one part's photos alone: judge a change without
                                                reading the report part

After the tables, the same photos are read again shrunk to SMALLER_SIDES (where larger), a row per
part and size: a camera of another resolution sees the same table with fewer pixels a card, and a
read that holds only at the photos' own sizes is a weakness the tables above would hide.

MUGGINS_BENCH_MODEL, MUGGINS_BENCH_CORNERS and MUGGINS_BENCH_WHOLE_CARD read with other models
(bench/chosen_models.py).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from bench.real.build import DEFAULT_OUT, folder_name, load_labels, load_sources
from bench.real.parts import PARTS, TITLES, by_part, only_part, trained_on
from bench.real.score import confusion_line, format_table, score_photo, tally

BANDS = ("10-16", "16-40", "40-80", ">80")
SMALLER_SIDES = (1024, 640)  # the photos read again with their longer side shrunk to these


def present(labels: list[dict], root: Path) -> list[tuple[dict, Path]]:
    """The labelled photos found under root (.cache/real), each with its file."""
    found = []
    for label in labels:
        path = root / folder_name(label["source"]) / label["path"]
        if path.is_file():
            found.append((label, path))
    return found


def read_photos(recognizer, photos: list[tuple[dict, Path]], overlay: Path | None = None,
                max_side: int | None = None):
    """Recognize every photo (shrunk first where its longer side is over max_side): [(label, score)],
    per-photo times (ms), the photos that would not load, and how many were shrunk."""
    import cv2

    rows, times, unreadable, shrunk = [], [], [], 0
    for label, path in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            unreadable.append(path)
            continue
        if max_side is not None and max(image.shape[:2]) > max_side:
            fit = max_side / max(image.shape[:2])
            image = cv2.resize(image, None, fx=fit, fy=fit, interpolation=cv2.INTER_AREA)
            shrunk += 1
        start = time.perf_counter()
        recognitions = recognizer.recognize(image)
        times.append((time.perf_counter() - start) * 1000.0)
        reported = [None if rec.card is None else str(rec.card) for rec in recognitions]
        rows.append((label, score_photo(label["cards"], reported)))
        if overlay is not None:
            from vision.overlay import draw_recognitions

            target = overlay / folder_name(label["source"]) / (label["path"] + ".png")
            target.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(target), draw_recognitions(image, recognitions))
    return rows, times, unreadable, shrunk


def report(rows, times, sources: dict[str, dict], sizes: str = "photos at their own size") -> None:
    """Print each part's tables (report part first), then the whole set as "all" only, where rows hold
    more than one part. rows and times are read_photos' (one time a row, in the same order)."""
    parts = by_part(list(zip(rows, times)), sources, lambda row: row[0][0])
    for part, timed in parts.items():
        print(f"== {TITLES.get(part, part + ': sources.json names no part for these sources')} ==")
        part_tables(part, [row for row, _ in timed], [ms for _, ms in timed], sources, sizes)
        print()
    if len(parts) < 2:
        return
    everything = tally(rows, lambda label: "all")
    print("== all: both parts together, fitted and unfitted figures mixed ==")
    for line in format_table("all", everything):
        print(line)
    if everything:
        print(twice_line(everything["all"]))


def part_tables(part: str, rows, times, sources: dict[str, dict], sizes: str) -> None:
    """One part's tables: per source (with its use), per band, per scene, the part in all (and, where a
    model trains on some of its sources, its other sources alone: the figure training does not flatter),
    its wrong reads and its median time a photo."""
    by_source = tally(rows, lambda label: label["source"])
    named = {f"{repo} ({sources[repo]['use']})" if repo in sources else repo: t for repo, t in by_source.items()}
    for line in format_table("source", named):
        print(line)
    print()
    for line in format_table("band (card / frame height)", tally(rows, lambda label: label["band"]), BANDS):
        print(line)
    print()
    for line in format_table("scene", tally(rows, lambda label: label["scene"])):
        print(line)
    print()
    total = tally(rows, lambda label: part)
    unseen = [row for row in rows if not trained_on(row[0]["source"], sources)]
    if total and len(unseen) < len(rows):  # the models learn from some of its sources: the others apart too
        total.update(tally(unseen, lambda label: f"{part}, sources no model trains on"))
    for line in format_table(f"{part} part, in all", total):
        print(line)
    if total:
        print(twice_line(total[part]))
        print(confusion_line(score for _, score in rows))
    if times:
        print(f"median {statistics.median(times):.1f} ms a photo (p90 {sorted(times)[int(0.9 * (len(times) - 1))]:.1f} ms) "
              f"over {len(times)} photos, all cores, whole recognizer, {sizes}")


def twice_line(total: Counter) -> str:
    """How many of the wrong reads name a card read twice in its photo, which the device would
    question ("I see the 8 of clubs twice"), and how many pass silently."""
    twice, silent = total["twice"], total["wrong"] - total["twice"]
    return (f"of {total['wrong']} wrong reads, {twice} {'names' if twice == 1 else 'name'} a card read twice "
            f"in the photo (a card seen twice, which the device questions), {silent} "
            f"{'passes' if silent == 1 else 'pass'} silently")


def smaller(recognizer, photos: list[tuple[dict, Path]], sources: dict[str, dict], sides=SMALLER_SIDES) -> None:
    """A table row per part and longer side in `sides`: the photos read again shrunk to it (where
    larger), each part in all; then each size's wrong reads, named with their part."""
    totals, notes = {}, []
    for side in sides:
        rows, _, _, shrunk = read_photos(recognizer, photos, max_side=side)
        for part, part_rows in by_part(rows, sources).items():
            totals.update(tally(part_rows, lambda label: f"{part}, {side} px"))
        wrong = [f"{part}:{label['source'].split('/')[0]}:{Path(label['path']).name} {' '.join(score.wrong_reads)}"
                 for part, part_rows in by_part(rows, sources).items() for label, score in part_rows if score.wrong]
        every = tally(rows, lambda label: "all")
        notes.append(f"  {side} px ({shrunk} photos shrunk), wrong: {', '.join(wrong) or 'none'}; "
                     f"{twice_line(every['all']) if every else 'no photos'}")
    print()
    for line in format_table("the same photos shrunk, per part", totals, list(totals)):
        print(line)
    for note in notes:
        print(note)


def list_wrong(rows) -> None:
    """Each photo with a wrong read: its path, label and wrong reads."""
    wrong = [(label, score) for label, score in rows if score.wrong]
    print(f"\n{len(wrong)} photos with wrong reads:")
    for label, score in wrong:
        print(f"  {label['source']}:{label['path']}  label {' '.join(label['cards']) or '-'}  "
              f"wrong {' '.join(score.wrong_reads)}")
    confused = Counter(card for _, score in wrong for card in score.wrong_reads)
    print("most often read wrongly as: " + (", ".join(f"{c} x{n}" for c, n in confused.most_common(10)) or "none"))


def main(argv: list[str] | None = None) -> None:
    from bench.machine import describe

    parser = argparse.ArgumentParser(prog="python -m bench.bench_real", description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=Path, default=DEFAULT_OUT, help="where build put the photos")
    parser.add_argument("--list-wrong", action="store_true", help="list each photo's wrong reads")
    parser.add_argument("--overlay", type=Path, metavar="DIR", help="write annotated photos under DIR")
    parser.add_argument("--max-side", type=int, metavar="N",
                        help="shrink each photo whose longer side is over N pixels to N first (no smaller sizes after)")
    parser.add_argument("--part", choices=PARTS, help="read only this part's photos (default: both)")
    args = parser.parse_args(argv if argv is not None else [])
    labels = load_labels()
    sources = load_sources()
    photos = present(labels, args.photos)
    if not photos:
        print(f"no photos under {args.photos}: run python -m bench.real.build first")
        return
    if args.part is not None:
        photos = only_part(photos, sources, args.part)
        if not photos:
            print(f"no photo of the {args.part} part under {args.photos}: run python -m bench.real.build first")
            return
    if __name__ == "__main__":
        print(describe())
    from bench.chosen_models import chosen_recognizer

    recognizer = chosen_recognizer()
    print(f"{len(photos)} of {len(labels)} labelled photos present under {args.photos}"
          + ("" if args.part is None else f" and in the {args.part} part") + ", "
          f"{sum(len(label['cards']) for label, _ in photos)} cards, {len({label['source'] for label, _ in photos})} sources")
    started = time.time()
    rows, times, unreadable, shrunk = read_photos(recognizer, photos, args.overlay, args.max_side)
    print(f"(pass {time.time() - started:.0f} s)\n")
    for path in unreadable:
        print(f"could not load {path}")
    sizes = "photos at their own size" if args.max_side is None else \
        f"{shrunk} photos shrunk to a longer side of {args.max_side} pixels"
    report(rows, times, sources, sizes)
    if args.list_wrong:
        list_wrong(rows)
    if args.max_side is None:
        smaller(recognizer, photos, sources)
    if args.overlay is not None:
        print(f"annotated photos under {args.overlay}")


if __name__ == "__main__":
    main(sys.argv[1:])
