"""The arm64 check's helpers (hardware/arm64/): reads compared card for card and outline for outline,
and a run stopped once it announces a count. The check itself needs root and emulation: `make arm64`."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

ARM64 = Path(__file__).resolve().parent.parent / "hardware" / "arm64"


def helper(name: str):
    spec = importlib.util.spec_from_file_location(name, ARM64 / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compare_reads = helper("compare_reads")
until_count = helper("until_count")

QUAD = [[139.3, 40.2], [240.4, 39.9], [238.9, 199.9], [138.9, 200.1]]


def reads_file(path: Path, rows: list[tuple[str, list]]) -> Path:
    path.write_text("".join(json.dumps({"file": f, "cards": cards, "ms": 1.0}) + "\n" for f, cards in rows))
    return path


def card(name, quad=QUAD):
    return {"card": name, "confidence": 1.0, "quad": quad}


def moved(quad, dx):
    return [[x + dx, y] for x, y in quad]


def test_the_same_reads_pass(tmp_path):
    a = reads_file(tmp_path / "a", [("./one.jpg", [card("QC"), card("KC")]), ("./none.png", [])])
    b = reads_file(tmp_path / "b", [("one.jpg", [card("QC"), card("KC", moved(QUAD, 0.1))]), ("none.png", [])])
    out = io.StringIO()
    assert compare_reads.compare(compare_reads.load_reads(a), compare_reads.load_reads(b), 0.5, out)
    assert "largest corner difference: 0.10 px over 2 image(s)" in out.getvalue()


@pytest.mark.parametrize("got, said", [
    ([card("QC"), card("KD")], "cards ['QC', 'KC'] on the host, ['QC', 'KD'] here"),
    ([card("KC"), card("QC")], "cards ['QC', 'KC'] on the host, ['KC', 'QC'] here"),
    ([card("QC")], "cards ['QC', 'KC'] on the host, ['QC'] here"),
    ([card("QC"), card("KC", moved(QUAD, 0.8))], "KC: outline 0.80 px apart"),
])
def test_another_card_or_outline_fails(tmp_path, got, said):
    a = reads_file(tmp_path / "a", [("one.jpg", [card("QC"), card("KC")])])
    b = reads_file(tmp_path / "b", [("one.jpg", got)])
    out = io.StringIO()
    assert not compare_reads.compare(compare_reads.load_reads(a), compare_reads.load_reads(b), 0.5, out)
    assert said in out.getvalue()


def test_an_image_read_on_one_side_only_fails(tmp_path):
    a = reads_file(tmp_path / "a", [("one.jpg", []), ("two.jpg", [])])
    b = reads_file(tmp_path / "b", [("one.jpg", [])])
    assert compare_reads.main([str(a), str(b)]) == 1


def test_a_file_that_is_not_reads_is_status_2(tmp_path, capsys):
    a = reads_file(tmp_path / "a", [("one.jpg", [])])
    (tmp_path / "b").write_text("Traceback (most recent call last):\n")
    assert compare_reads.main([str(a), str(tmp_path / "b")]) == 2
    assert "not a recognize --json line" in capsys.readouterr().err


def script(body: str) -> list[str]:
    return [sys.executable, "-c", body]


def test_a_run_is_stopped_once_it_announces_a_count():
    # the stand-in prints a count, then waits; SIGTERM must stop it (exit status 0 as `muggins run`)
    body = ("import signal, sys, time\n"
            "signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))\n"
            "print('starter KC', flush=True)\nprint('South plays QC: 10 [new count]', flush=True)\n"
            "time.sleep(30)\n")
    out = io.StringIO()
    ok, line = until_count.run_until(script(body), until_count.COUNT_ANNOUNCED, timeout=20, out=out)
    assert ok and line == "South plays QC: 10 [new count]"
    assert "starter KC" in out.getvalue()


def test_a_run_that_ends_without_a_count_fails():
    out = io.StringIO()
    ok, line = until_count.run_until(script("print('starter KC')"), until_count.COUNT_ANNOUNCED, 20, out)
    assert not ok and line is None
    assert "no line matched" in out.getvalue()


def test_a_run_that_never_announces_is_stopped_at_the_timeout():
    out = io.StringIO()
    ok, _ = until_count.run_until(script("import time; time.sleep(30)"), until_count.COUNT_ANNOUNCED, 0.5, out)
    assert not ok


def test_the_command_line_needs_a_command():
    out = subprocess.run([sys.executable, str(ARM64 / "until_count.py"), "--timeout", "1"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "give the command after --" in out.stderr
