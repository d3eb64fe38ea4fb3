"""The rules' command-line contracts (docs/DESIGN.md): muggins score, score --batch, peg --json, stats, coach."""

import json
import subprocess
import sys

import pytest

from cribbage import score_show


def muggins(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "device.cli", *args], capture_output=True, text=True,
                          input=stdin)


def test_score_prints_the_breakdown():
    out = muggins("score", "5H", "5D", "5C", "JS", "5S")
    assert out.returncode == 0
    assert ": 29" in out.stdout and "his nobs is twenty-nine" in out.stdout
    assert "double pair royal" in out.stdout


def test_score_json_is_one_object_with_the_breakdown():
    out = muggins("score", "--json", "4h", "4d", "5c", "6s", "6d")
    data = json.loads(out.stdout)
    assert data["total"] == 24 and data["hand"] == ["4H", "4D", "5C", "6S"] and data["starter"] == "6D"
    assert sum(item["points"] for item in data["items"]) == 24
    assert data["announcement"].endswith("twenty-four")


def test_score_crib_flag_applies_the_crib_flush_rule():
    hand = json.loads(muggins("score", "--json", "2H", "4H", "6H", "8H", "KS").stdout)
    crib = json.loads(muggins("score", "--json", "--crib", "2H", "4H", "6H", "8H", "KS").stdout)
    assert (hand["total"], crib["total"], crib["crib"]) == (4, 0, True)


@pytest.mark.parametrize("args, message", [
    (["score", "1X", "5D", "5C", "JS", "5S"], "'1X' is not a card"),
    (["score", "5H", "5H", "5C", "JS", "5S"], "5H appears twice"),
    (["score", "5H", "5D", "5C", "JS", "5S", "2C", "3C"], "3, 4 or 5"),
    (["score", "5H", "5D"], "starter"),
    (["peg", "TH", "JD", "QH", "4C"], "34 is over 31"),
    (["peg", "ZZ"], "not a card"),
])
def test_bad_input_is_one_line_and_status_two(args, message):
    out = muggins(*args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_batch_writes_one_line_per_input_line_in_order(tmp_path):
    lines = [{"hand": ["5H", "5D", "5C", "JS"], "starter": "5S", "crib": False},
             {"hand": ["2H", "4H", "6H", "8H"], "starter": "KS", "crib": True},
             {"hand": ["2H", "4H", "6H", "8H"], "starter": "KS"},
             {"hand": ["TH", "JD", "QC"], "starter": "KS", "crib": False}]
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = muggins("score", "--batch", str(path))
    assert out.returncode == 0
    totals = [json.loads(line)["total"] for line in out.stdout.splitlines()]
    assert totals == [score_show(l["hand"], l["starter"], crib=l.get("crib", False)).total for l in lines]
    assert totals == [29, 0, 4, 4]


def test_batch_bad_lines_get_an_error_each_and_status_two_at_the_end():
    stdin = "\n".join([
        '{"hand": ["5H", "5D", "5C", "JS"], "starter": "5S"}',
        'not json',
        '{"hand": ["5H", "5H", "5C", "JS"], "starter": "5S"}',
        '{"hand": ["1X", "5D", "5C", "JS"], "starter": "5S"}',
        '{"starter": "5S"}',
        '{"hand": ["7H", "8D", "2C", "3S"], "starter": "KS", "crib": false}',
    ]) + "\n"
    out = muggins("score", "--batch", "-", stdin=stdin)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    results = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(results) == 6
    assert results[0] == {"total": 29} and results[5]["total"] == score_show(
        ["7H", "8D", "2C", "3S"], "KS").total
    assert all("error" in r for r in results[1:5])
    assert "5H appears twice" in results[2]["error"] and "'1X' is not a card" in results[3]["error"]


def test_batch_missing_file_is_a_clear_error(tmp_path):
    out = muggins("score", "--batch", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 2 and "cannot read" in out.stderr and "Traceback" not in out.stderr


def test_peg_json_last_line_has_points_and_reasons():
    out = muggins("peg", "--json", "5H", "5D", "5C")
    assert out.returncode == 0
    last = json.loads(out.stdout.strip().splitlines()[-1])
    assert last["points"] == 8 and last["reasons"] == ["fifteen", "pair royal"] and last["count"] == 15


def test_peg_human_output_is_the_announcement():
    out = muggins("peg", "KH", "7D", "6C", "8S")
    assert out.returncode == 0 and out.stdout.startswith("thirty-one for two, and a run of three is five")


@pytest.mark.parametrize("crib, zeros", [(False, 1_009_008), (True, 1_022_208)])
def test_stats_exhaustive_json(crib, zeros):
    out = muggins("stats", "--exhaustive", *(["--crib"] if crib else []), "--json")
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert list(data["distribution"]) == [str(n) for n in range(30)]
    assert data["distribution"]["0"] == zeros and data["distribution"]["29"] == 4
    assert data["hands"] == 12_994_800 and data["crib"] is crib
    assert sum(data["distribution"].values()) == 12_994_800
