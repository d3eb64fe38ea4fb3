"""`muggins demo --web`: the page's address first, the game watched, the final board kept until interrupted.

The demo runs in a process of its own, as from the command line, with eyes that know the cards
(tests/sketch_table.py) so the whole game takes seconds."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("aiohttp", reason="the web page needs aiohttp: pip install 'muggins[web]'")

ROOT = Path(__file__).resolve().parent.parent
DEMO = """
import faulthandler, signal, sys
faulthandler.register(signal.SIGUSR1, all_threads=True)  # the test asks for the stacks of a demo that hangs
sys.path.insert(0, "tests")
from sketch_table import KnowsTheCards
from sim.demo_game import DemoOptions, run_demo
from device.cli import main
knows = KnowsTheCards()
try:
    sys.exit(run_demo(DemoOptions(speed="max", json=True, web="127.0.0.1:0"), recognizer=knows,
                      painter_for=knows))
except KeyboardInterrupt:
    sys.exit(130)
"""


def call(url, body=None, cookie=None):
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **({"Cookie": cookie} if cookie else {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read()), response.headers
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), exc.headers


def exit_status(demo: subprocess.Popen, timeout: float) -> int:
    """The demo's exit status; one that has not ended in time fails with every thread's stack."""
    try:
        return demo.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        demo.send_signal(signal.SIGUSR1)
        time.sleep(2)
        demo.kill()
        _, stderr = demo.communicate(timeout=10)
        pytest.fail(f"the demo had not ended {timeout:.0f} s after Ctrl-C; its threads:\n{stderr}")


def test_demo_web_serves_the_final_board_until_interrupted():
    demo = subprocess.Popen([sys.executable, "-c", DEMO], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        first = json.loads(demo.stdout.readline())
        url, pin = first["web"]["url"], first["web"]["pin"]
        assert url.startswith("http://127.0.0.1:") and len(pin) == 6 and pin.isdigit()
        final = None
        for line in demo.stdout:
            record = json.loads(line)
            if "final" in record:
                final = record["final"]
                break
        assert final is not None and final["as_scripted"]
        assert "until interrupted" in demo.stderr.readline()
        status, state, _ = call(url + "api/state")          # the game is over; the page still shows it
        assert status == 200 and state["phase"] == "over" and state["winner"] == final["winner"]
        assert state["scores"] == final["scores"] and state["mode"] == "demo"
        assert demo.poll() is None
        status, body, headers = call(url + "api/pair", {"pin": pin})
        assert status == 200
        cookie = headers["Set-Cookie"].split(";", 1)[0]
        status, body, _ = call(url + "api/new-game", {}, cookie)
        assert status == 409 and "script" in body["error"]      # a demo takes no presses
        status, games, _ = call(url + "api/games")
        assert games["games"][0]["over"] and games["games"][0]["winner"] == final["winner"]
        demo.send_signal(signal.SIGINT)
        assert exit_status(demo, timeout=60) == 0   # a guard against a hang, not a speed figure
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
