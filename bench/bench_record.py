"""`muggins record` over 200 journaled games (target: at most 2 s on this machine).

The games are played by the rules engine's autoplay (cribbage.autoplay: a shuffled deal, random
lay-aways and plays, one claim in ten wrong, Muggins called on half the short ones), 120 of six-card
and 20 of each other variant, from fixed seeds. Each game's events are written through the device's
journal writer (device.journal.Journal: one synced transaction per action, as the device writes them),
and each new game archives the journal before it, as `--new-game` does: 199 archived journals and a
current one. They hold no device events (notices, claim previews, dispute read-outs): a camera-played
game has about a fifth more records, which the record reads and mostly skips. The demo through the
device would make the same journals at some 3 s a game (with eyes that know the cards).

Figures: the whole command as a person runs it (a fresh Python: start, imports, reading every journal,
the figures, the output printed), the median of five runs, text and --json, in wall-clock and CPU
seconds (the machine's load average is printed: on a shared machine the wall-clock time stretches);
and inside one process, reading the journals and working out the figures, apart.

Run: make bench BENCH=record   (or .venv/bin/python -m bench record)
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("six-card", 120), ("five-card", 20), ("seven-card", 20), ("three-player", 20), ("four-player", 20)]
RUNS = 5


def write_games(state_dir: Path) -> tuple[int, int]:
    """Play and journal every game; (games, events) written."""
    from cribbage.autoplay import autoplay
    from device.journal import JOURNAL_NAME, Journal

    seed, events = 0, 0
    for variant, count in GAMES:
        for _ in range(count):
            seed += 1
            game, _ = autoplay(random.Random(seed), variant, claim_errors=0.1)
            with Journal.open(state_dir / JOURNAL_NAME, {"bench": seed}, new_game=True) as journal:
                journal.conn.execute("PRAGMA synchronous=OFF")  # what is timed is the reading, not the fsyncs
                step: list[dict] = []
                for event in game.events:
                    if step and event.step != step[-1]["step"]:
                        journal.append(step, step[-1]["step"])
                        step = []
                    step.append(event.to_dict())
                journal.append(step, step[-1]["step"])
                events += len(game.events)
    return seed, events


def command_seconds(state_dir: Path, *extra: str) -> tuple[list[float], list[float]]:
    """(wall-clock seconds, CPU seconds) of each run of the command in a fresh Python."""
    walls, cpus = [], []
    for _ in range(RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "device.cli", "record", "--state-dir", str(state_dir), *extra],
                              cwd=ROOT, capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"muggins record failed: {done.stderr.strip()}")
    return walls, cpus


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="muggins-record-bench-") as tmp:
        state_dir = Path(tmp)
        start = time.perf_counter()
        games, events = write_games(state_dir)
        print(f"{games} games journaled ({events} events, {len(list(state_dir.iterdir()))} journal files) "
              f"in {time.perf_counter() - start:.1f} s")

        from device.record import record
        from device.record_games import read_games

        start = time.perf_counter()
        found = read_games(state_dir)
        read_s = time.perf_counter() - start
        start = time.perf_counter()
        rec = record(found)
        figures_s = time.perf_counter() - start
        assert rec["covers"]["games"] == games and not rec["covers"]["not_counted"]
        print(f"in one process: reading the journals {read_s:.2f} s, the figures {figures_s:.2f} s "
              f"({sum(len(g.deals) for g in found.games)} deals)")
        print(f"load average before the runs: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
              f"(on {os.cpu_count()} cores; a busy machine stretches the wall-clock time, less the CPU time)")
        for label, extra in (("text", ()), ("--json", ("--json",))):
            walls, cpus = command_seconds(state_dir, *extra)
            print(f"muggins record {label}: median {statistics.median(walls):.2f} s wall-clock, "
                  f"{statistics.median(cpus):.2f} s CPU (runs {', '.join(f'{t:.2f}' for t in walls)}; "
                  f"target <= 2 s)")


if __name__ == "__main__":
    main()
