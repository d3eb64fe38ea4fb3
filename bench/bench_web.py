"""The web page's cost to the device: twenty phones watching the live board while the frame loop runs.

The device (its frame loop and the server's thread) runs on one core, the phones on another, as on a
Pi whose phones are elsewhere. The real device loop (device.app.Device.step: the camera's picture, the real recognizer and tracker,
the controller, the board) films a still table of nine cards. A run of frames alone is timed against
a run of the same device with its web page served (device.web.table.serve) and twenty clients, in a
process of their own as phones would be, following GET /api/events. In the served runs the device
also shows an event every second frame (ten a second at 20 fps, far more than a game gives), so each
one is turned into a snapshot in the frame loop's thread and sent to every phone. The runs alternate,
A B B A A B ..., so the machine's
drift falls on both alike.

Figures: the frame loop's median time per frame each way and the slowdown (target <= 5 %), the frame
loop's own CPU time per frame each way, and the server thread's CPU time as a share of the core
(what it can take from the loop at most, whatever else the machine is doing); from an
event being shown to each phone receiving it, the median and 99th percentile (target: on the page
within 300 ms).

Run: make bench BENCH=web   (or .venv/bin/python -m bench web)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.machine import describe

ROOT = Path(__file__).resolve().parent.parent
PHONES = 20
FRAMES = 10          # per run
ROUNDS = 24          # A B pairs, short ones: a shared machine's load changes from second to second
EVENT_EVERY = 2      # frames between events shown in the served runs


TABLES = {  # the still tables filmed: (cards laid per zone, frames per run)
    "nine cards": ((("seat:0", ("2C", "6H", "TD", "KC")), ("seat:1", ("5S", "5C", "3S", "7D")),
                    ("centre", ("4H",))), FRAMES),
    "an empty table": ((), FRAMES * 5),   # the cheapest frame: the web's share of the loop is largest
}


class _Still:
    """A camera that always gives the same picture of the painted table."""

    def __init__(self, laid):
        from cribbage.cards import Card
        from sim.frames import TablePainter
        from sim.table_script import TableStep

        step = TableStep(zones=tuple((zone, tuple(Card.parse(c) for c in cards)) for zone, cards in laid))
        self.image = TablePainter(3, 2).draw(step, 0)
        self.index = 0

    def read(self):
        from vision.sources.base import Frame

        self.index += 1
        return Frame(self.image, self.index, self.index / 20)


class _Quiet:
    def poll(self):
        return []

    def show(self, frame):
        pass

    def say(self, text):
        pass


def _device(folder: Path, recognizer, laid):
    from device.app import Device
    from device.config import load_config
    from device.parts import Parts

    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "muggins.toml"
    config.write_text(f'state_dir = "{folder / "state"}"\n[board]\ndriver = "simulated"\n'
                      f'[voice]\nengine = "none"\n', encoding="utf-8")
    quiet = _Quiet()
    sink = open("/dev/null", "w")
    return Device(load_config(config), parts=Parts(source=_Still(laid), recognizer=recognizer, leds=quiet,
                                                   voice=quiet, panel=quiet), out=sink, err=sink)


def _timed(device, frames: int, on_frame=None) -> tuple[list[float], list[float]]:
    """Wall and CPU (this thread's) seconds of each frame."""
    wall, cpu = [], []
    for n in range(frames):
        start, start_cpu = time.perf_counter(), time.thread_time()
        device.step()
        if on_frame is not None:
            on_frame(n)
        wall.append(time.perf_counter() - start)
        cpu.append(time.thread_time() - start_cpu)
    return wall, cpu


def _server_cpu(page) -> float:
    """CPU seconds the server's thread has used so far (asked in that thread)."""
    import asyncio

    async def ask():
        return time.thread_time()

    return asyncio.run_coroutine_threadsafe(ask(), page.server.loop).result(timeout=10)


def _cores() -> tuple[set, set]:
    """(the device's core, the phones' core): different ones where the machine has two."""
    import os

    cores = sorted(os.sched_getaffinity(0))
    return {cores[0]}, {cores[-1]}


def main() -> None:
    print("web:", describe())
    if not (ROOT / "models" / "cards.onnx").is_file():
        print("skipped: models/cards.onnx is not built (make model)")
        return
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        print("skipped: the web page needs aiohttp (pip install 'muggins[web]')")
        return
    from vision.recognizer import Recognizer

    import os

    device_core, phones_core = _cores()
    os.sched_setaffinity(0, device_core)   # before the recognizer's and the server's threads start
    print(f"the device on core {min(device_core)}, the phones on core {min(phones_core)}")
    recognizer = Recognizer()
    for name, (laid, frames) in TABLES.items():
        print(f"\n{name}:")
        _compare(recognizer, laid, frames, phones_core)


def _compare(recognizer, laid, frames: int, phones_core: set | None = None) -> None:
    import os

    from device import device_events as dev
    from device.web.table import serve

    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        plain = _device(Path(tmp) / "plain", recognizer, laid)
        served = _device(Path(tmp) / "served", recognizer, laid)
        page = serve(served, "127.0.0.1:0", out=open("/dev/null", "w"))
        phones = subprocess.Popen([sys.executable, "-m", "bench.bench_web", "--phones", page.url, str(PHONES)],
                                  cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  preexec_fn=lambda: os.sched_setaffinity(0, phones_core) if phones_core else None)
        try:
            connected = phones.stdout.readline().strip()
            shown: dict[int, float] = {}
            seq = [10_000]

            def show_event(n):
                if n % EVENT_EVERY == 0:   # what the presenter's on_present does for each event shown
                    seq[0] += 1
                    shown[seq[0]] = time.time()
                    page.view.on_present(seq[0], dev.Notice("bench", f"event {seq[0]}"))

            _timed(plain, 10)
            _timed(served, 10)                # both warmed up: the recognizer's first frames are slower
            alone, watched, alone_cpu, watched_cpu, ratios = [], [], [], [], []
            server_cpu = 0.0
            for round_no in range(ROUNDS):
                # A B, then B A: neither way always runs second, right after the other
                for which in ((plain, served) if round_no % 2 == 0 else (served, plain)):
                    if which is plain:
                        wall, cpu = _timed(plain, frames)
                        alone += wall
                        alone_cpu += cpu
                    else:
                        before = _server_cpu(page)
                        wall, cpu = _timed(served, frames, show_event)
                        server_cpu += _server_cpu(page) - before
                        watched += wall
                        watched_cpu += cpu
                ratios.append(statistics.median(watched[-frames:]) / statistics.median(alone[-frames:]))
            time.sleep(0.5)
            phones.stdin.close()
            received = json.loads(phones.stdout.read())
        finally:
            if phones.poll() is None:
                phones.kill()
            page.close()
            plain.close()
            served.close()
    a, b = statistics.median(alone), statistics.median(watched)
    rate = len(shown) / sum(watched)
    print(f"{connected}; {len(shown)} events shown ({rate:.0f} a second), {frames * ROUNDS} frames each way "
          f"in {ROUNDS} alternating pairs of runs")
    print(f"frame loop alone: median {a * 1000:.2f} ms/frame; with the page and {PHONES} phones watching: "
          f"{b * 1000:.2f} ms/frame; slowdown {100 * (b - a) / a:+.1f} %, median of the pairs' "
          f"{100 * (statistics.median(ratios) - 1):+.1f} % (target <= 5 %)")
    ca, cb = statistics.median(alone_cpu), statistics.median(watched_cpu)
    print(f"frame loop's own CPU: {ca * 1000:.2f} ms/frame alone, {cb * 1000:.2f} ms/frame watched "
          f"({100 * (cb - ca) / ca:+.1f} %); the server's thread used {server_cpu * 1000:.0f} ms of CPU in "
          f"{sum(watched):.1f} s of watched running: {100 * server_cpu / sum(watched):.2f} % of the core")
    delays = sorted(t - shown[s] for phone in received for s, t in phone if s in shown)
    missing = PHONES * len(shown) - len(delays)
    if delays:
        p99 = delays[min(len(delays) - 1, int(0.99 * len(delays)))]
        print(f"event shown -> received by a phone: median {statistics.median(delays) * 1000:.1f} ms, "
              f"99th percentile {p99 * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms over {len(delays)} "
              f"deliveries (target: on the page within 300 ms)")
    print(f"events a phone skipped (a newer state came first; the newest is always sent): {missing}")


def phones(url: str, count: int) -> None:
    """The watching phones: `count` event streams; when stdin closes, print [[seq, time], ...] per phone."""
    import asyncio

    import aiohttp

    async def watch(session, got, ready):
        async with session.get(url + "api/events") as response:
            ready.set()
            async for line in response.content:
                if line.startswith(b"data: "):
                    got.append((json.loads(line[6:])["seq"], time.time()))

    async def run():
        seen = [[] for _ in range(count)]
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as session:
            readies = [asyncio.Event() for _ in range(count)]
            tasks = [asyncio.create_task(watch(session, seen[i], readies[i])) for i in range(count)]
            await asyncio.gather(*(r.wait() for r in readies))
            print(f"{count} phones watching the event stream", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
            for t in tasks:
                t.cancel()
        print(json.dumps(seen), flush=True)

    asyncio.run(run())


if __name__ == "__main__":
    if sys.argv[1:2] == ["--phones"]:
        phones(sys.argv[2], int(sys.argv[3]))
    else:
        main()
