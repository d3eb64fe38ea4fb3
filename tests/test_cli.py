"""The muggins command line itself: help, unknown commands, and no tracebacks for user errors."""

import subprocess
import sys


def muggins(*args):
    return subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True, text=True)


def test_help_lists_every_command():
    out = muggins("--help")
    assert out.returncode == 0
    for name in ("score", "peg", "stats", "recognize", "demo", "run", "calibrate", "test-hardware"):
        assert name in out.stdout


def test_unknown_command_is_a_usage_error():
    out = muggins("shuffle")
    assert out.returncode == 2 and "Traceback" not in out.stderr
