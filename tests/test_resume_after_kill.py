"""Kill `muggins demo` with SIGKILL at random moments: each restart resumes from the journal exactly.

One uninterrupted run is the reference. A second run in its own state directory is killed again and
again at random moments (after a random number of printed events, plus a random few milliseconds)
and started again each time. Each time we check:
- nothing was shown before it was journaled (every printed event is in the journal);
- the restart reports exactly the state the journal's last event left (scores, event number), and
  that is the reference run's state at that event;
- every event after the resume point is the reference run's event of the same number;
and at the end the final line is the reference's.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cribbage.events import Event
from cribbage.game import Game
from device.device_events import record_from_dict
from device.journal import JOURNAL_NAME, read_entries

ROOT = Path(__file__).resolve().parent.parent
SEED = 3
KILLS = 8
MODEL = ROOT / "models" / "cards.onnx"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not MODEL.is_file() and not os.environ.get("MUGGINS_DEMO_COMMAND"),
                                 reason="models/cards.onnx is not built yet")]


def demo_command(state_dir: Path) -> list[str]:
    command = os.environ.get("MUGGINS_DEMO_COMMAND")  # a developer may point this at another build
    base = command.split() if command else [sys.executable, "-m", "device.cli", "demo"]
    return base + ["--seed", str(SEED), "--speed", "max", "--json", "--mute", "--state-dir", str(state_dir)]


def parse(lines: list[str]) -> tuple[dict[int, dict], dict | None, dict | None]:
    events, resumed, final = {}, None, None
    for line in lines:
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            continue  # a line cut off by the kill
        if "seq" in obj:
            events[obj["seq"]] = obj
        elif "resumed" in obj:
            resumed = obj["resumed"]
        elif "final" in obj:
            final = obj["final"]
    return events, resumed, final


def journal_state(state_dir: Path) -> tuple[int, dict]:
    """(last event number, scores) as the journal on disk has them, rebuilt by the rules engine."""
    if not (state_dir / JOURNAL_NAME).exists():
        return 0, {}
    entries = read_entries(state_dir / JOURNAL_NAME)
    records = [record_from_dict(e.event) for e in entries]
    game_events = [r for r in records if isinstance(r, Event)]
    if not game_events:
        return (entries[-1].seq if entries else 0), {}
    game = Game.from_events(game_events)
    scores = {" & ".join(side): score for side, score in zip(game.sides, game.scores)}
    return (entries[-1].seq if entries else 0), scores


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    state = tmp_path_factory.mktemp("reference")
    out = subprocess.run(demo_command(state), capture_output=True, text=True, timeout=200, cwd=ROOT)
    # 0: the game ended; 1: the simulated table ran out first (the eyes read it otherwise)
    assert out.returncode in (0, 1), out.stderr[-2000:]
    events, resumed, final = parse(out.stdout.splitlines())
    assert resumed is None and final is not None
    assert sorted(events) == list(range(1, len(events) + 1))
    return events, final, state, out.returncode


def test_the_demo_plays_the_whole_scripted_game_through_the_real_recognizer(reference):
    events, final, _, returncode = reference
    assert returncode == 0 and final["as_scripted"] and final["winner"] and max(final["scores"].values()) >= 121
    types = {line["event"]["type"] for line in events.values()}
    assert {"CardPlayed", "ClaimPegged", "MugginsTaken", "DisputeReadout", "Notice", "GameWon"} <= types
    verdicts = {line["event"]["verdict"] for line in events.values() if line["event"]["type"] == "ClaimPegged"}
    assert verdicts == {"right", "over", "under"}
    said = " ".join(line["spoken"] for line in events.values())
    assert "move it into the light" in said and "too dark to see the cards" in said


def test_a_finished_game_restarted_says_the_same_final_line(reference):
    ref_events, ref_final, state, returncode = reference
    again = subprocess.run(demo_command(state), capture_output=True, text=True, timeout=60, cwd=ROOT)
    events, resumed, final = parse(again.stdout.splitlines())
    assert again.returncode == returncode and events == {}
    assert resumed["seq"] == len(ref_events) and final == ref_final


def run_until_killed(state: Path, kill_after_lines: int, extra_ms: float) -> list[str]:
    proc = subprocess.Popen(demo_command(state), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, cwd=ROOT)
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if sum('"seq"' in x for x in lines) >= kill_after_lines:
                time.sleep(extra_ms / 1000)
                break
        proc.send_signal(signal.SIGKILL)
        rest, _ = proc.communicate(timeout=30)
        lines += rest.splitlines(keepends=True)  # what it printed before it died
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return lines


def test_sigkill_at_random_moments_resumes_exactly(reference, tmp_path):
    ref_events, ref_final, _, returncode = reference
    total = len(ref_events)
    rng = random.Random(20261122)
    state = tmp_path / "state"
    kills = 0
    while True:
        before_seq, before_scores = journal_state(state)
        if kills < KILLS and total - before_seq > 4:
            kills += 1
            target = rng.randint(1, max(1, min(total - before_seq - 2, 2 * total // KILLS)))
            lines = run_until_killed(state, target, rng.uniform(0, 40))
        else:  # the last restart runs to the end
            out = subprocess.run(demo_command(state), capture_output=True, text=True, timeout=200, cwd=ROOT)
            assert out.returncode == returncode, out.stderr[-2000:]
            lines = out.stdout.splitlines()
        events, resumed, final = parse(lines)
        after_seq, after_scores = journal_state(state)
        if before_seq:
            # the restart came back exactly where the journal's last event left the game
            assert resumed is not None and resumed["seq"] == before_seq
            assert resumed["scores"] == before_scores == _scores_at(ref_events, before_seq)
            assert min(events, default=before_seq + 1) == before_seq + 1
        # nothing was shown before it was journaled
        assert all(seq <= after_seq for seq in events), (sorted(events)[-3:], after_seq)
        # and every event is the uninterrupted run's event of the same number
        for seq, line in events.items():
            assert line == ref_events[seq], seq
        if after_seq:
            assert after_scores == _scores_at(ref_events, after_seq)
        if final is not None:
            break
    assert final == ref_final
    assert kills >= 3


def _scores_at(ref_events: dict[int, dict], seq: int) -> dict:
    """Scores after event `seq`: the reference prints the scores after the step that event ended."""
    line = ref_events[seq]
    players = ["North", "South"]
    return dict(zip(players, line["scores"]))
