"""`muggins run --web` from the command line: the page's address and PIN said, bad addresses one line."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("aiohttp", reason="the web page needs aiohttp: pip install 'muggins[web]'")

ROOT = Path(__file__).resolve().parent.parent


def muggins(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


@pytest.fixture
def replay_config(tmp_path):
    from sim.frames import write_replay

    write_replay(2, tmp_path / "frames", steps=2, frames_per_step=1)

    def config(extra=""):
        path = tmp_path / "m.toml"
        path.write_text(f'state_dir = "{tmp_path}/state"\n[camera]\nsource = "replay:{tmp_path}/frames"\n'
                        f'[board]\ndriver = "simulated"\n[voice]\nengine = "none"\n{extra}', encoding="utf-8")
        return path
    return config


def test_run_web_prints_the_address_and_a_six_digit_pin(replay_config):
    out = muggins("run", "--config", str(replay_config()), "--web", "127.0.0.1:0")
    assert out.returncode == 0, out.stderr
    assert re.search(r"web page: http://127\.0\.0\.1:\d+/ +\(pairing PIN \d{6}\)", out.stdout), out.stdout


def test_the_config_turns_the_page_on(replay_config):
    out = muggins("run", "--config", str(replay_config('[web]\nenabled = true\nhost = "127.0.0.1"\nport = 8139\n')),
                  "--web", "127.0.0.1:0")   # --web wins over the config's port
    assert out.returncode == 0 and "web page: http://127.0.0.1:" in out.stdout and ":8139/" not in out.stdout
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = replay_config(f'[web]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\n')
        out = muggins("run", "--config", str(config))
    assert out.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in out.stderr
    assert "Traceback" not in out.stderr


def test_without_web_no_page(replay_config):
    out = muggins("run", "--config", str(replay_config()))
    assert out.returncode == 0 and "web page" not in out.stdout


@pytest.mark.parametrize("address", ["99999", "host:port", "", "127.0.0.1:-1"])
def test_a_bad_address_is_one_clear_line(replay_config, address):
    out = muggins("run", "--config", str(replay_config()), "--web", address)
    assert out.returncode == 2 and "--web takes [HOST:]PORT" in out.stderr and "Traceback" not in out.stderr


def test_demo_web_with_a_bad_address_is_one_clear_line():
    out = muggins("demo", "--speed", "max", "--web", "no-port-here:")
    assert out.returncode == 2 and "--web takes [HOST:]PORT" in out.stderr and "Traceback" not in out.stderr
