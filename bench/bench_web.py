"""The web page's cost to the device: twenty phones watching the live board while the frame loop runs.

The device (its frame loop and the server's thread) runs on one core, the phones on another, as on a
Pi whose phones are elsewhere. The real device loop (device.app.Device.step: the camera's picture, the
real recognizer and tracker, the controller, the board) films a still table: nine cards, and an empty
one (the cheapest frame, where the web's share is largest). Four kinds of run are timed, in turn:
a plain device; a second plain device (two plain devices differ by the machine's noise alone); a device
with its page served (device.web.table.serve) to twenty clients in a process of their own following
GET /api/events, with nothing to send; and the same device showing an event every second frame (ten a
second at 20 fps, far more than a game gives), each turned into a snapshot in the frame loop's thread
and sent to every phone. Each round runs every kind, each kind first in its turn.

Figures: the frame loop's median time per frame for each kind and the slowdowns (target <= 5 %); the
frame loop's own CPU time per frame, and the server thread's CPU time as a share of the core (what it
can take from the loop at most, whatever else the machine is doing); from an event being shown to
each phone receiving it, the median and 99th percentile (target: on the page within 300 ms); the board
page's weight and fetching time.

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
ROUNDS = 16          # rounds of the four kinds of run, short ones: a shared machine's load changes by the second
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
        other = _device(Path(tmp) / "other", recognizer, laid)   # a second plain one: the noise between two
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

            runs = {"plain": (plain, None), "other": (other, None), "idle": (served, None),
                    "streaming": (served, show_event)}
            for device in (plain, other, served):
                _timed(device, 10)         # warmed up: the recognizer's first frames are slower
            wall = {k: [] for k in runs}
            cpu = {k: [] for k in runs}
            server_cpu = 0.0
            order = list(runs)
            for round_no in range(ROUNDS):
                for kind in order[round_no % 4:] + order[:round_no % 4]:   # each kind in each place in turn
                    device, on_frame = runs[kind]
                    before = _server_cpu(page)
                    w, c = _timed(device, frames, on_frame)
                    if kind == "streaming":
                        server_cpu += _server_cpu(page) - before
                    wall[kind] += w
                    cpu[kind] += c
            weight = _page_weight(page.url)
            time.sleep(0.5)
            phones.stdin.close()
            received = json.loads(phones.stdout.read())
        finally:
            if phones.poll() is None:
                phones.kill()
            page.close()
            for device in (plain, other, served):
                device.close()
    med = {k: statistics.median(v) for k, v in wall.items()}

    def change(a, b):
        return f"{100 * (med[b] - med[a]) / med[a]:+.1f} %"

    streaming = sum(wall["streaming"])
    print(f"{connected}; {len(shown)} events shown ({len(shown) / streaming:.0f} a second), {frames * ROUNDS} "
          f"frames of each kind of run, in {ROUNDS} rounds")
    ms = {k: f"{v * 1000:.2f}" for k, v in med.items()}
    print(f"frame loop, median ms/frame: plain {ms['plain']}, another plain {ms['other']} "
          f"(the noise between two: {change('plain', 'other')}), served with {PHONES} phones watching and "
          f"nothing to send {ms['idle']}, the same streaming an event every {EVENT_EVERY} frames "
          f"{ms['streaming']}")
    print(f"slowdown: served and streaming to {PHONES} phones against plain {change('plain', 'streaming')}, "
          f"against the other plain {change('other', 'streaming')} (target <= 5 %); streaming against the "
          f"same device with nothing to send {change('idle', 'streaming')}")
    ca, cb = statistics.median(cpu["plain"]), statistics.median(cpu["streaming"])
    print(f"frame loop's own CPU: {ca * 1000:.2f} ms/frame plain, {cb * 1000:.2f} ms/frame streaming "
          f"({100 * (cb - ca) / ca:+.1f} %); the server's thread used {server_cpu * 1000:.0f} ms of CPU in "
          f"{streaming:.1f} s of streaming: {100 * server_cpu / streaming:.2f} % of the core")
    delays = sorted(t - shown[s] for phone in received for s, t in phone if s in shown)
    missing = PHONES * len(shown) - len(delays)
    if delays:
        p99 = delays[min(len(delays) - 1, int(0.99 * len(delays)))]
        print(f"event shown -> received by a phone: median {statistics.median(delays) * 1000:.1f} ms, "
              f"99th percentile {p99 * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms over {len(delays)} "
              f"deliveries (target: on the page within 300 ms)")
    print(f"events a phone skipped (a newer state came first; the newest is always sent): {missing}")
    files, size, seconds = weight
    print(f"the board page: {files} requests, {size / 1024:.1f} KiB, all fetched in {seconds * 1000:.0f} ms "
          f"(one after another, while the loop runs)")


PAGE_FILES = ("", "static/app.css", "static/common.js", "static/board.js", "static/live.js", "api/state")


def _page_weight(url: str) -> tuple[int, int, float]:
    """What a phone fetches to show the board: requests, bytes, and the seconds they took in turn."""
    import urllib.request

    start, size = time.perf_counter(), 0
    for name in PAGE_FILES:
        with urllib.request.urlopen(url + name, timeout=10) as response:
            size += len(response.read())
    return len(PAGE_FILES), size, time.perf_counter() - start


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
