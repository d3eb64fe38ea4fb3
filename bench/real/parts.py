"""The real photographs split by source into the part that may steer choices and the part only reported.

Every source in sources.json names its part. `steer`: photos a change to the recognizer may be judged
on, and so chosen by (every source labelled before issue 43: they all steered choices, so their figures
are fitted). `report`: photos looked at only to report how the recognizer fares on cards it was never
tuned to, the figure a player should expect; a choice that looks at them is no longer measured by them,
and its source must move to `steer`. A figure says which part it comes from; the whole set only ever
appears as "all". Pure functions, standard library only, so the tests can check them.
"""

from __future__ import annotations

STEER, REPORT = "steer", "report"
PARTS = (REPORT, STEER)  # the order the benchmark prints them: the honest figure first
TITLES = {
    REPORT: "report part: sources that steered nothing, the figure a player should expect",
    STEER: "steer part: sources that steered choices of the recognizer, their figures fitted",
}


def part_of(source: str, sources: dict[str, dict]) -> str:
    """The part of the source 'owner/name' as sources.json names it; 'unassigned' where it names none
    (a source missing from sources.json, or without a part), so such photos stay out of both parts."""
    part = sources.get(source, {}).get("part")
    return part if part in PARTS else "unassigned"


def by_part(rows: list, sources: dict[str, dict], label_of=lambda row: row[0]) -> dict[str, list]:
    """rows grouped by their photo's part, in PARTS order (report first), parts without rows left out,
    'unassigned' last where any row has no part. label_of gives a row's label dict (its first item by
    default, as in the benchmark's (label, score) rows)."""
    grouped: dict[str, list] = {}
    for row in rows:
        grouped.setdefault(part_of(label_of(row)["source"], sources), []).append(row)
    order = [*PARTS, "unassigned"]
    return {part: grouped[part] for part in order if part in grouped}


def trained_on(source: str, sources: dict[str, dict]) -> bool:
    """Whether the models may learn from the source's photos: its licence allows it (use `train+eval`)
    and it is not kept to report on. Its figures then hold the models' own training photos."""
    entry = sources.get(source, {})
    return entry.get("use") == "train+eval" and entry.get("part") != REPORT


def only_part(rows: list, sources: dict[str, dict], part: str, label_of=lambda row: row[0]) -> list:
    """The rows of one part alone, in their order: a change judged on the steer part is read without
    the report part being read at all (`python -m bench.bench_real --part steer`)."""
    return by_part(rows, sources, label_of).get(part, [])
