"""`muggins demo`: the simulated table's script, the controller playing it, and the whole demo run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import MappingProxyType

import pytest

from cribbage import events as ev
from device import device_events as dev
from device.config import GameConfig
from device.controller import Controller
from device.journal import JOURNAL_NAME, Journal
from sim.table_script import PressStep, TableStep, build_script
from vision.tracker import TableState
from vision.zone_events import ZoneEvent

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "models" / "cards.onnx"
ZONES = ("seat:0", "seat:1", "centre")


class Recorder:
    def __init__(self):
        self.shown = []

    def restore(self, records):
        pass

    def present(self, seq, record, scores=None):
        self.shown.append(record)


def play_without_eyes(seed: int, tmp_path: Path):
    """The script fed to the controller as a perfect tracker would report it (no pictures)."""
    script = build_script(seed, GameConfig())
    journal = Journal.open(tmp_path / f"{seed}-{JOURNAL_NAME}", {"seed": seed})
    recorder = Recorder()
    ctl = Controller(GameConfig(), journal, recorder, zones=ZONES)
    ctl.start()
    before = {z: set() for z in ZONES}
    for i, step in enumerate(script.steps):
        if isinstance(step, PressStep):
            ctl.on_panel(step.event, step=i)
        elif step.dark:
            ctl.on_dark(step=i)
        else:
            now = {z: set(step.cards(z)) - {step.shadow} for z in ZONES}
            changes = [ZoneEvent("left", z, c, 0.0) for z in ZONES for c in sorted(before[z] - now[z])]
            changes += [ZoneEvent("appeared", z, c, 0.0) for z in ZONES for c in sorted(now[z] - before[z])]
            blanks = {z: int(step.shadow in step.cards(z)) for z in ZONES}
            changes += [ZoneEvent("unreadable", z, None, 0.0) for z, n in blanks.items() if n]
            state = TableState(MappingProxyType({z: frozenset(c) for z, c in now.items()}),
                               MappingProxyType(blanks))
            ctl.on_table(changes, state, step=i)
            before = now
        if ctl.over:
            break
    journal.close()
    return script, ctl, recorder.shown


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_script_holds_every_scripted_happening(seed):
    script = build_script(seed, GameConfig())
    presses = [s.event.kind for s in script.steps if isinstance(s, PressStep)]
    notes = " ".join(s.note for s in script.steps)
    assert {"dial", "claim", "muggins", "dispute"} <= set(presses)
    assert "over)" in notes and "under)" in notes and "right)" in notes
    assert any(isinstance(s, TableStep) and s.dark for s in script.steps)
    assert any(isinstance(s, TableStep) and s.shadow is not None for s in script.steps)
    assert "by mistake" in notes
    assert max(script.expected["scores"].values()) >= 121 and script.expected["winner"]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_card_laid_in_shadow_cannot_be_read_and_the_others_are(seed):
    # The script lays one card where the device must ask for it to be moved into the light: neither
    # its index nor its pips (the whole-card network reads a number card by them) may be legible.
    from sim.frames import TablePainter
    from vision.recognizer import Recognizer

    script = build_script(seed, GameConfig())
    index, step = next((i, s) for i, s in enumerate(script.steps) if isinstance(s, TableStep) and s.shadow)
    read = [r.card for r in Recognizer().recognize(TablePainter(seed).draw(step, index))]
    on_table = {card for zone, cards in step.zones for card in cards}
    assert step.shadow not in read
    assert set(read) - {None} == on_table - {step.shadow}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_controller_plays_the_script_to_the_scripted_end(seed, tmp_path):
    script, ctl, shown = play_without_eyes(seed, tmp_path)
    final = ctl.final()
    assert final["winner"] == script.expected["winner"]
    assert final["scores"] == script.expected["scores"]
    kinds = {r.kind for r in shown if isinstance(r, dev.Notice)}
    assert {"unreadable", "dark"} <= kinds
    assert kinds & {"over-31", "wrong-leader"}
    verdicts = {r.verdict for r in shown if isinstance(r, ev.ClaimPegged)}
    assert verdicts == {"right", "over", "under"}
    assert any(isinstance(r, ev.MugginsTaken) for r in shown)
    assert any(isinstance(r, dev.DisputeReadout) for r in shown)
    assert isinstance(shown[-1], ev.GameWon)


def test_an_unknown_speed_is_a_usage_error():
    out = subprocess.run([sys.executable, "-m", "device.cli", "demo", "--speed", "warp"],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2 and "Traceback" not in out.stderr

# The whole demo through the real recognizer runs once, as the reference of
# tests/test_resume_after_kill.py, which checks what it says and how it ends.


def test_the_demo_is_the_device_run_with_simulated_parts(tmp_path, monkeypatch):
    """One wiring: the demo builds no journal, board, presenter or controller of its own; the Device
    does, as for `muggins run`, with a simulated camera and a scripted panel in its parts."""
    import io

    import device.app
    import sim.demo_game
    from sim.demo_game import DemoOptions, run_demo
    from sim.parts import ScriptedPanel, SimulatedCamera
    from sketch_table import KnowsTheCards

    built = []

    class Watched(device.app.Device):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            built.append(self)

    monkeypatch.setattr(sim.demo_game, "Device", Watched)
    knows = KnowsTheCards()
    out = io.StringIO()
    code = run_demo(DemoOptions(seed=2, speed="max", mute=True, state_dir=tmp_path), out, io.StringIO(),
                    recognizer=knows, painter_for=knows)
    (dev,) = built
    assert code == 0 and dev.controller.over and dev.journal.path.parent == tmp_path
    assert isinstance(dev.parts.source, SimulatedCamera) and isinstance(dev.parts.panel, ScriptedPanel)
    assert dev.parts.recognizer is knows and dev.board.target == 121 and dev.board.names == ["North", "South"]
    assert dev.board.winner is not None and dev.parts.leds.rendered == dev.board.render()
    text = out.getvalue()
    assert text.startswith("Muggins demo, game 2: North against South, six-card to 121;")
    assert f" {dev.eyes.frames} camera frames," in text.splitlines()[-1]
