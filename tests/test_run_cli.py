"""`muggins run` and `muggins calibrate` from the command line: clear errors, and a replay run end to end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from device.journal import JOURNAL_NAME, read_entries

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "models" / "cards.onnx"


def muggins(*args, timeout=120, env=None):
    return subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=None if env is None else {**os.environ, **env})


def write_config(path: Path, body: str) -> Path:
    path.write_text(body, encoding="utf-8")
    return path


def test_a_bad_config_is_one_clear_line(tmp_path):
    cfg = write_config(tmp_path / "m.toml", "[game]\nvariant = 'nine-card'\n")
    out = muggins("run", "--config", str(cfg))
    assert out.returncode == 2
    assert "variant" in out.stderr and "Traceback" not in out.stderr


def test_a_missing_config_file(tmp_path):
    out = muggins("run", "--config", str(tmp_path / "nope.toml"))
    assert out.returncode == 2 and "no such config file" in out.stderr and "Traceback" not in out.stderr


def test_a_replay_that_is_not_there(tmp_path):
    cfg = write_config(tmp_path / "m.toml", f"""state_dir = "{tmp_path}/state"
[camera]
source = "replay:{tmp_path}/no-frames"
[board]
driver = "simulated"
[voice]
engine = "none"
""")
    out = muggins("run", "--config", str(cfg))
    assert out.returncode == 2 and "no such file or folder" in out.stderr and "Traceback" not in out.stderr


def foreign_journal_in(state: Path) -> None:
    state.mkdir()
    (state / JOURNAL_NAME).write_bytes(b"not a database at all" * 100)


def config_without_frames(tmp_path: Path, state: Path) -> Path:
    """A config whose replay has no frames: `muggins run` opens the journal, then stops."""
    return write_config(tmp_path / "m.toml", f"""state_dir = "{state}"
[camera]
source = "replay:{tmp_path}/no-frames"
[board]
driver = "simulated"
""")


def test_a_foreign_journal_is_set_aside_and_said(tmp_path):
    state = tmp_path / "state"
    foreign_journal_in(state)
    out = muggins("run", "--config", str(config_without_frames(tmp_path, state)))
    assert "moved aside" in out.stderr
    assert any(p.name.startswith(JOURNAL_NAME + ".corrupt-") for p in state.iterdir())


def test_the_state_directory_in_the_environment_wins_over_the_config(tmp_path):
    # As `muggins record` and `muggins deck` find it: the journal opened is $MUGGINS_STATE_DIR's.
    chosen, configured = tmp_path / "chosen", tmp_path / "configured"
    foreign_journal_in(chosen)
    out = muggins("run", "--config", str(config_without_frames(tmp_path, configured)),
                  env={"MUGGINS_STATE_DIR": str(chosen)})
    assert "moved aside" in out.stderr and "Traceback" not in out.stderr
    assert any(p.name.startswith(JOURNAL_NAME + ".corrupt-") for p in chosen.iterdir())
    assert not configured.exists()


def test_calibrate_without_a_screen_writes_a_picture(tmp_path):
    from sim.frames import write_replay

    write_replay(2, tmp_path / "frames", steps=3, frames_per_step=1)
    cfg = write_config(tmp_path / "m.toml", f"""[camera]
source = "replay:{tmp_path}/frames"
""")
    out = muggins("calibrate", "--config", str(cfg), "--no-window", "--png", str(tmp_path / "zones.png"))
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "zones.png").stat().st_size > 10_000
    assert "zones" in out.stdout


@pytest.mark.slow
@pytest.mark.skipif(not MODEL.is_file(), reason="models/cards.onnx is not built yet")
def test_run_on_a_replay_plays_and_journals_then_resumes(tmp_path):
    from sim.frames import write_replay

    write_replay(1, tmp_path / "frames", steps=16, frames_per_step=7)
    cfg = write_config(tmp_path / "m.toml", f"""state_dir = "{tmp_path}/state"
[camera]
source = "replay:{tmp_path}/frames"
fps = 10
[board]
driver = "simulated"
[voice]
engine = "none"
""")
    out = muggins("run", "--config", str(cfg))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "ready" in out.stderr
    assert "starter" in out.stdout and "plays" in out.stdout
    first = read_entries(tmp_path / "state" / JOURNAL_NAME)
    assert any(e.event["type"] == "CardPlayed" for e in first)
    again = muggins("run", "--config", str(cfg))   # the same replay again: everything already journaled
    assert again.returncode == 0
    assert len(read_entries(tmp_path / "state" / JOURNAL_NAME)) >= len(first)


def test_calibrated_zones_are_saved_into_the_config_and_read_back(tmp_path):
    from device.calibration import move_corner, save_zones
    from device.config import load_config
    from vision.zones import Zones, default_zones

    cfg = write_config(tmp_path / "m.toml", "# my table\n[game]\nplayers = ['Ann', 'Bob']\n\n"
                                            "[zones]\ncentre = [[0, 0], [1, 0], [1, 1]]\n\n[voice]\nmute = true\n")
    zones = move_corner(default_zones(1280, 720, 2), "centre", 0, 400.0, 250.0)
    save_zones(cfg, zones)
    config = load_config(cfg)
    assert config.game.players == ("Ann", "Bob") and config.voice.mute       # the rest kept
    assert Zones.from_config(config.zones).to_config() == zones.to_config()
    assert "# my table" in cfg.read_text()
