"""A device with stand-in parts and its web page, for the web tests: the test is the frame loop.

The device is the real one (device.app.Device: controller, journal, presenter, board) with a camera
that gives one still picture, a recognizer that reports what the test lays on the table, and no
panel; the page is served by device.web.table.serve on a free local port. `put`/`take`/`clear`
change the table as the tracker would report it; `step()` runs one turn of the device's loop, which
is where the phone's presses are taken up.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest

from cribbage.cards import Card
from device.app import Device
from device.config import load_config
from device.parts import Parts
from vision.sources.base import Frame
from vision.tracker import TableState
from vision.zone_events import ZoneEvent

ZONES = ("seat:0", "seat:1", "centre")


class StillCamera:
    """A camera that always sees the same grey table (not dark)."""

    def __init__(self, width=640, height=480):
        self.image = np.full((height, width, 3), 120, np.uint8)
        self.index = 0

    def read(self):
        self.index += 1
        return Frame(self.image, self.index, self.index / 10)


class PaintedTable(StillCamera):
    """A camera that always sees one rendered table: both hands laid out and the starter (sim's painter)."""

    def __init__(self, seed: int = 3):
        from cribbage.cards import Card as C
        from sim.frames import TablePainter
        from sim.table_script import TableStep

        painter = TablePainter(seed, 2)
        step = TableStep(zones=(("seat:0", tuple(C.parse(c) for c in ("2C", "6H", "TD", "KC"))),
                                ("seat:1", tuple(C.parse(c) for c in ("5S", "5C", "3S", "7D"))),
                                ("centre", (C.parse("4H"),))))
        self.image = painter.draw(step, 0)
        self.index = 0


class ReadOnce:
    """The real recognizer, run once on a still camera's picture and its reading given again after."""

    def __init__(self):
        from vision.recognizer import Recognizer

        self.recognizer = Recognizer()
        self.cards = None

    def recognize(self, image):
        if self.cards is None:
            self.cards = self.recognizer.recognize(image)
        return self.cards


class NoCards:
    """A recognizer that sees nothing: the test reports the table's changes itself."""

    def recognize(self, image):
        return []


class Leds:
    def __init__(self):
        self.frames = 0

    def show(self, frame):
        self.frames += 1


class Voice:
    def __init__(self):
        self.said: list[str] = []

    def say(self, text):
        self.said.append(text)


class QuietPanel:
    def poll(self):
        return []


def write_config(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "muggins.toml"
    path.write_text(f'state_dir = "{tmp_path / "state"}"\n[board]\ndriver = "simulated"\n'
                    f'[voice]\nengine = "none"\n{extra}', encoding="utf-8")
    return path


class WebTable:
    def __init__(self, tmp_path: Path, config_extra: str = "", pin: str = "246810", camera=None, recognizer=None,
                 **serve_args):
        from device.web.pairing import Pairing
        from device.web.table import serve

        self.config_path = write_config(tmp_path, config_extra)
        config = load_config(self.config_path)
        self.voice = Voice()
        self.device = Device(config, parts=Parts(source=camera or StillCamera(), recognizer=recognizer or NoCards(), leds=Leds(),
                                                 voice=self.voice, panel=QuietPanel()),
                             out=_Sink(), err=_Sink())
        self.printed = _Sink()
        self.page = serve(self.device, "127.0.0.1:0", out=self.printed,
                          pairing=Pairing(pin, lock_s=30.0), **serve_args)
        self.port = self.page.server.port
        self.cards = {z: [] for z in ZONES}
        self.cookie: str | None = None
        self.lock = threading.RLock()   # the device's loop and the test's table changes take turns
        self._looping = False
        self._loop: threading.Thread | None = None

    def close(self):
        self._looping = False
        if self._loop is not None:
            self._loop.join(timeout=5)
        self.page.close()
        self.device.close()

    def run_loop(self):
        """Run the device's frame loop in a thread of its own (as `muggins run` does), until close()."""
        def loop():
            while self._looping:
                with self.lock:
                    self.device.step()
                time.sleep(0.01)

        self._looping = True
        self._loop = threading.Thread(target=loop, daemon=True)
        self._loop.start()

    # ---- the table, as the tracker reports it ------------------------------------------------

    @property
    def controller(self):
        return self.device.controller

    def _state(self):
        return TableState(MappingProxyType({z: frozenset(c) for z, c in self.cards.items()}),
                          MappingProxyType({z: 0 for z in self.cards}))

    def put(self, zone, *cards):
        with self.lock:
            self._put(zone, *cards)

    def _put(self, zone, *cards):
        changes = []
        for text in cards:
            self.cards[zone].append(Card.parse(text))
            changes.append(ZoneEvent("appeared", zone, Card.parse(text), 0.0))
        self.controller.on_table(changes, self._state())

    def clear(self):
        with self.lock:
            self._clear()

    def _clear(self):
        changes = [ZoneEvent("left", z, c, 0.0) for z, cs in self.cards.items() for c in cs]
        self.cards = {z: [] for z in ZONES}
        self.controller.on_table(changes, self._state())

    def deal_and_play(self):
        """North deals, starter 4H, the play as tests/test_controller.py's play_out: South's hand is due."""
        self.put("seat:0", "AC")
        self.put("seat:1", "KD")
        self.clear()
        self.put("centre", "4H")
        for zone, card in [("seat:1", "5S"), ("seat:0", "TD"), ("seat:1", "5C"), ("seat:0", "6H"),
                           ("seat:1", "3S"), ("seat:0", "KC"), ("seat:1", "7D"), ("seat:0", "2C")]:
            self.put(zone, card)

    def step(self, turns: int = 1):
        for _ in range(turns):
            self.device.step()

    # ---- a phone ------------------------------------------------------------------------------

    def request(self, method, path, body=None, headers=None, raw: bytes | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        h = dict(headers or {})
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        if self.cookie and "Cookie" not in h:
            h["Cookie"] = self.cookie
        conn.request(method, path, body=data, headers=h)
        response = conn.getresponse()
        payload = response.read()
        conn.close()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        kind = response.getheader("Content-Type", "")
        parsed = json.loads(payload) if "json" in kind else payload
        return response.status, parsed, response

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, body=body if body is not None or "raw" in kw else {}, **kw)

    def pair(self, pin="246810"):
        return self.post("/api/pair", {"pin": pin})


class _Sink:
    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s

    def flush(self):
        pass


@pytest.fixture
def table(tmp_path):
    """A WebTable with its loop running, closed after the test (import it into a test module to use it)."""
    t = WebTable(tmp_path)
    t.run_loop()
    yield t
    t.close()
