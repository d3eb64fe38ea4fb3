"""The benchmarks' Raspberry Pi estimate: sysbench's report read, and a time scaled into a range."""

import shutil

import pytest

from bench import machine

REPORT = """sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

CPU speed:
    events per second:  4809.77

General statistics:
    total time:                          20.0002s
"""


def test_the_score_is_read_from_sysbench_s_report():
    assert machine.parse_sysbench(REPORT) == pytest.approx(4809.77)
    assert machine.parse_sysbench("sysbench: unknown test 'cpux'") is None
    assert machine.parse_sysbench("    events per second:  lots") is None


def test_a_time_is_scaled_to_each_pi_as_a_range():
    line = machine.pi_estimate(20.0, 2 * machine.PI_SYSBENCH["Pi 5"])
    assert "Pi 5 40-80 ms" in line  # twice the Pi 5's score: twice the time, then the vector allowance
    pi4 = 20.0 * 2 * machine.PI_SYSBENCH["Pi 5"] / machine.PI_SYSBENCH["Pi 4"]
    assert f"Pi 4 {pi4:.0f}-{2 * pi4:.0f} ms" in line
    assert "estimated, not measured" in line


def test_without_sysbench_the_estimate_says_what_to_install(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert machine.sysbench_score() is None
    assert "apt install sysbench" in machine.pi_estimate(20.0, None)
