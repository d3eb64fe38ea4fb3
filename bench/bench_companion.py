"""The companion's figures: card-to-announcement latency, memory and start-up of `muggins run`, demo time.

- latency: a 10 fps replay of the simulated table, paced in real time, through the whole device;
  from the wall time the frame showing a new card is delivered to the moment its event is
  presented (journaled, pegged, said). Target: median <= 300 ms.
- `muggins run` on a replay, as a separate process: resident memory sampled while it runs
  (target <= 300 MB steady) and from start to its "ready" line (target <= 3 s).
- `muggins demo --speed max`: a whole game, wall time (target: under a minute).

Run: .venv/bin/python -m bench companion
"""

from __future__ import annotations

import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.machine import describe

ROOT = Path(__file__).resolve().parent.parent
FPS = 10.0


def _model_missing() -> bool:
    return not (ROOT / "models" / "cards.onnx").is_file()


def _config(folder: Path, frames: Path, pace: bool) -> Path:
    """A config for a replay. Auto mode: a replay has no one at the buttons, so the device counts
    the show itself and the game goes on round after round."""
    cfg = folder / "muggins.toml"
    cfg.write_text(f"""state_dir = "{folder / 'state'}"
[game]
mode = "auto"
[camera]
source = "replay:{frames}"
fps = {FPS}
[board]
driver = "simulated"
[voice]
engine = "none"
""", encoding="utf-8")
    return cfg


def latency(folder: Path, steps: int = 120) -> list[float]:
    """Seconds from a card's first frame to its announcement, for each card the device announced."""
    from device.app import Device
    from device.config import load_config
    from device.parts import Parts
    from sim.frames import write_replay
    from sim.table_script import TableStep
    from vision.sources.replay import ReplaySource

    frames = folder / "latency-frames"
    written = write_replay(5, frames, steps=steps, frames_per_step=6)
    appearances: dict = {}  # card -> first frames of each time it was laid (a mistake is laid twice)
    before = TableStep(())
    for n, step in written:
        for zone, cards in step.zones:
            for card in set(cards) - set(before.cards(zone)) - {step.shadow}:
                appearances.setdefault(card, []).append(n)
        before = step

    delivered: dict[int, float] = {}

    class Timed:
        def __init__(self):
            self.source = ReplaySource(str(frames), fps=FPS, pace=True)

        def read(self):
            frame = self.source.read()
            delivered[frame.index] = time.monotonic()
            return frame

        def close(self):
            self.source.close()

    shown: list[tuple[float, object]] = []
    config = load_config(_config(folder, frames, pace=True))
    device = Device(config, state_dir=folder / "latency-state", out=io.StringIO(), err=io.StringIO(),
                    parts=Parts(source=Timed()), on_present=lambda seq, r: shown.append((time.monotonic(), r)))
    device.run()
    out = []
    for when, record in shown:
        card = getattr(record, "card", None)
        if card is not None and type(record).__name__ in ("CardPlayed", "StarterTurned", "CardCutForDeal"):
            laid = [delivered[n] for n in appearances.get(card, ()) if n in delivered and delivered[n] <= when]
            if laid:
                out.append(when - laid[-1])
    return out


def run_process(folder: Path) -> tuple[float | None, list[float]]:
    """(seconds from start to 'ready', resident memory samples in MB) of `muggins run` on a replay."""
    from sim.frames import write_replay

    frames = folder / "run-frames"
    write_replay(6, frames, steps=60, frames_per_step=5)
    cfg = _config(folder, frames, pace=False)
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "device.cli", "run", "--config", str(cfg),
                             "--state-dir", str(folder / "run-state")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    ready = None
    samples: list[float] = []
    import os
    import selectors

    sel = selectors.DefaultSelector()
    sel.register(proc.stderr, selectors.EVENT_READ)
    os.set_blocking(proc.stderr.fileno(), False)
    buffer = ""
    while proc.poll() is None:
        for _ in sel.select(timeout=0.1):
            chunk = proc.stderr.read() or ""
            buffer += chunk
            if ready is None and "ready" in buffer:
                ready = time.monotonic() - start
        if ready is not None:
            try:
                with open(f"/proc/{proc.pid}/status", encoding="utf-8") as f:
                    for line in f:
                        if line.startswith("VmRSS:"):
                            samples.append(int(line.split()[1]) / 1024)
            except OSError:
                pass
    proc.wait()
    return ready, samples


def demo_time(folder: Path) -> tuple[float, int]:
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "device.cli", "demo", "--seed", "1", "--speed", "max", "--json",
                          "--mute", "--state-dir", str(folder / "demo-state")],
                         capture_output=True, text=True, cwd=ROOT)
    return time.monotonic() - start, out.returncode


def main() -> None:
    print("companion:", describe())
    if _model_missing():
        print("skipped: models/cards.onnx is not built (make model)")
        return
    with tempfile.TemporaryDirectory(prefix="bench-companion-") as tmp:
        folder = Path(tmp)
        lat = latency(folder)
        if lat:
            print(f"card first seen (10 fps replay) -> announced: median {statistics.median(lat) * 1000:.0f} ms, "
                  f"max {max(lat) * 1000:.0f} ms over {len(lat)} cards (target: median <= 300 ms)")
        else:
            print("latency: no card was announced (the recognizer read nothing?)")
        ready, samples = run_process(folder)
        if ready is not None:
            print(f"muggins run: start to ready {ready:.2f} s (target <= 3 s)")
        if samples:
            steady = samples[len(samples) // 2:]
            print(f"muggins run on replay: resident memory steady {statistics.median(steady):.0f} MB, "
                  f"peak {max(samples):.0f} MB over {len(samples)} samples (target <= 300 MB)")
        seconds, rc = demo_time(folder)
        print(f"muggins demo --speed max: whole game in {seconds:.1f} s (exit {rc}; target under 60 s)")


if __name__ == "__main__":
    main()
