"""The real photographs' split by source into a steer part and a report part (bench/real/parts.py)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.real.parts import PARTS, REPORT, STEER, by_part, part_of
from bench.real.score import score_photo

REAL = Path(__file__).resolve().parent.parent / "bench" / "real"

# The sources labelled before the split: every one of them steered choices of the recognizer, so none
# may ever be reported as unseen.
STEERED_BEFORE_THE_SPLIT = {
    "EdjeElectronics/TensorFlow-Object-Detection-API-Tutorial-Train-Multiple-Objects-Windows-10",
    "kentdoan/playing-card-recognition", "baldm/Solitaire-Solver", "Denuha/Recognition_playing_cards_IRT",
    "babak0032/Card_Recognition", "notanumber11/Image-recognition-of-poker-cards", "GerryGekao/cards",
    "jezhou8/card_recognition", "erni27/Cpp.PlayingCardRecognition", "piekarsky/CPP-Playing-Card-Detector",
    "petrzmax/CPO", "Macmiko/Playing-Card-Detection-and-Recognition",
}


def committed_sources() -> dict[str, dict]:
    return {s["repo"]: s for s in json.loads((REAL / "sources.json").read_text(encoding="utf-8"))}


def committed_labels() -> list[dict]:
    return [json.loads(line) for line in (REAL / "labels.jsonl").read_text(encoding="utf-8").splitlines() if line]


def test_every_source_names_its_part():
    assert all(s.get("part") in (STEER, REPORT) for s in committed_sources().values())


def test_the_sources_that_steered_choices_are_in_the_steer_part():
    sources = committed_sources()
    assert STEERED_BEFORE_THE_SPLIT <= set(sources)
    assert {repo for repo, s in sources.items() if s["part"] == STEER} >= STEERED_BEFORE_THE_SPLIT


def test_every_labelled_photo_has_a_source_and_both_parts_hold_photos():
    sources = committed_sources()
    labels = committed_labels()
    assert all(label["source"] in sources for label in labels)
    parts = {part_of(label["source"], sources) for label in labels}
    assert parts == {STEER, REPORT}


def test_the_report_part_is_never_trained_on():
    """A report source whose licence allowed training would still have to stay `eval`: a model that
    trained on it could no longer be measured on it."""
    assert all(s["use"] == "eval" for s in committed_sources().values() if s["part"] == REPORT)


def test_rows_are_grouped_by_part_report_first_and_unknown_sources_stay_apart():
    sources = {"a/steered": {"part": STEER}, "b/reported": {"part": REPORT}, "c/old": {}}
    rows = [({"source": source}, score_photo(["AS"], ["AS"]))
            for source in ("a/steered", "b/reported", "a/steered", "c/old", "d/missing")]
    grouped = by_part(rows, sources)
    assert list(grouped) == [REPORT, STEER, "unassigned"] and list(PARTS) == [REPORT, STEER]
    assert [label["source"] for label, _ in grouped[STEER]] == ["a/steered", "a/steered"]
    assert [label["source"] for label, _ in grouped["unassigned"]] == ["c/old", "d/missing"]
    assert by_part([], sources) == {}


def test_the_benchmark_prints_each_part_apart_and_the_whole_only_as_all(capsys):
    from bench.bench_real import report

    sources = {"a/steered": {"part": STEER, "use": "eval"}, "b/reported": {"part": REPORT, "use": "eval"}}
    rows = [({"source": "a/steered", "band": "16-40", "scene": "table-many"}, score_photo(["AS", "2C"], ["AS", "2C"])),
            ({"source": "b/reported", "band": "40-80", "scene": "single-table"}, score_photo(["KD"], ["KH"]))]
    report(rows, [10.0, 30.0], sources)
    out = capsys.readouterr().out
    report_at, steer_at, all_at = out.index("== report part"), out.index("== steer part"), out.index("== all")
    assert report_at < steer_at < all_at
    report_text, steer_text = out[report_at:steer_at], out[steer_at:all_at]
    assert "b/reported" in report_text and "a/steered" not in report_text
    assert "a/steered" in steer_text and "b/reported" not in steer_text
    assert "over 1 photos" in report_text and "30.0 ms" in report_text
    assert "100.0 %" in steer_text.split("steer part, in all")[1].splitlines()[1]


def test_a_part_some_of_whose_sources_are_trained_on_shows_its_other_sources_apart(capsys):
    from bench.bench_real import report
    from bench.real.parts import trained_on

    sources = {"a/trained": {"part": STEER, "use": "train+eval"}, "b/never": {"part": STEER, "use": "eval"},
               "c/kept": {"part": REPORT, "use": "train+eval"}}
    assert [trained_on(s, sources) for s in (*sources, "d/unknown")] == [True, False, False, False]
    rows = [({"source": "a/trained", "band": "16-40", "scene": "table-many"}, score_photo(["AS", "2C"], ["AS", "2C"])),
            ({"source": "b/never", "band": "16-40", "scene": "table-many"}, score_photo(["KD", "3H"], ["KH", "3H"])),
            ({"source": "c/kept", "band": "40-80", "scene": "single-table"}, score_photo(["9S"], ["9S"]))]
    report(rows, [10.0, 20.0, 30.0], sources)
    out = capsys.readouterr().out
    steer_text = out[out.index("== steer part"):out.index("== all")]
    in_all = steer_text.split("steer part, in all")[1].splitlines()
    assert in_all[1].split()[:3] == ["steer", "2", "4"] and "75.0 %" in in_all[1]
    assert in_all[2].startswith("steer, sources no model trains on") and "50.0 %" in in_all[2]
    assert in_all[2].split()[-8:-6] == ["1", "2"]  # one photo, two cards
    report_text = out[out.index("== report part"):out.index("== steer part")]
    assert "sources no model trains on" not in report_text  # the report part is never trained on


def test_one_part_alone_keeps_its_rows_in_order_and_nothing_of_the_other():
    from bench.real.parts import only_part

    sources = {"a/steered": {"part": STEER}, "b/reported": {"part": REPORT}, "c/old": {}}
    rows = [({"source": source, "n": n}, None)
            for n, source in enumerate(("a/steered", "b/reported", "a/steered", "c/old"))]
    assert [label["n"] for label, _ in only_part(rows, sources, STEER)] == [0, 2]
    assert [label["n"] for label, _ in only_part(rows, sources, REPORT)] == [1]


def test_the_benchmark_asked_for_the_steer_part_never_reads_a_report_photo(tmp_path, monkeypatch, capsys):
    import bench.bench_real as bench_real
    import bench.chosen_models
    from bench.real.build import folder_name

    labels = [{"source": "a/steered", "path": "one.jpg", "cards": ["AS"], "band": "16-40", "scene": "table-many"},
              {"source": "b/reported", "path": "two.jpg", "cards": ["KD"], "band": "40-80", "scene": "single-table"}]
    for label in labels:
        path = tmp_path / folder_name(label["source"]) / label["path"]
        path.parent.mkdir(parents=True)
        path.write_bytes(b"not read here")
    read = []

    def fake_read(recognizer, photos, overlay=None, max_side=None):
        read.extend(label["source"] for label, _ in photos)
        return [(label, score_photo(label["cards"], label["cards"])) for label, _ in photos], \
            [1.0] * len(photos), [], 0

    monkeypatch.setattr(bench_real, "load_labels", lambda: labels)
    monkeypatch.setattr(bench_real, "load_sources",
                        lambda: {"a/steered": {"part": STEER, "use": "eval"},
                                 "b/reported": {"part": REPORT, "use": "eval"}})
    monkeypatch.setattr(bench_real, "read_photos", fake_read)
    monkeypatch.setattr(bench.chosen_models, "chosen_recognizer", lambda: object())
    bench_real.main(["--photos", str(tmp_path), "--part", STEER, "--max-side", "100000"])
    out = capsys.readouterr().out
    assert read == ["a/steered"]
    assert "== steer part" in out and "== report part" not in out and "b/reported" not in out
    assert "== all" not in out and "in the steer part" in out


def test_a_part_with_no_photo_present_says_so_and_reads_nothing(tmp_path, monkeypatch, capsys):
    import bench.bench_real as bench_real
    from bench.real.build import folder_name

    labels = [{"source": "a/steered", "path": "one.jpg", "cards": ["AS"], "band": "16-40", "scene": "table-many"}]
    path = tmp_path / folder_name("a/steered") / "one.jpg"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not read here")

    def no_read(*args, **kwargs):
        raise AssertionError("nothing should be read")

    monkeypatch.setattr(bench_real, "load_labels", lambda: labels)
    monkeypatch.setattr(bench_real, "load_sources", lambda: {"a/steered": {"part": STEER, "use": "eval"}})
    monkeypatch.setattr(bench_real, "read_photos", no_read)
    bench_real.main(["--photos", str(tmp_path), "--part", REPORT])
    out = capsys.readouterr().out
    assert out.startswith("no photo of the report part under") and "==" not in out


def test_the_build_says_how_to_get_a_repository_it_has_no_clone_of(tmp_path):
    from bench.real.build import build

    labels = [{"source": "a/steered", "path": "one.jpg", "cards": ["AS"]}]
    said = []
    counts = build(tmp_path / "mirrors", tmp_path / "out", labels, {"a/steered": {"commit": "0" * 40}}, log=said.append)
    assert counts == {"written": 0, "present": 0, "missing": 1}
    assert len(said) == 1 and "git clone https://github.com/a/steered" in said[0]
    assert str(tmp_path / "mirrors" / "a+steered" / "repo") in said[0]


def test_a_photo_deleted_before_the_sources_commit_is_read_at_the_commit_its_label_names(tmp_path):
    import subprocess

    from bench.real.build import build

    repo = tmp_path / "mirrors" / "a+steered" / "repo"
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "old.jpg").write_bytes(b"the old photo")
    subprocess.run(git + ["add", "old.jpg"], check=True)
    subprocess.run(git + ["commit", "-qm", "a photo"], check=True)
    first = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(git + ["rm", "-q", "old.jpg"], check=True)
    subprocess.run(git + ["commit", "-qm", "gone"], check=True)
    last = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    labels = [{"source": "a/steered", "path": "old.jpg", "cards": ["AS"]}]
    said = []
    assert build(tmp_path / "mirrors", tmp_path / "out", labels, {"a/steered": {"commit": last}},
                 log=said.append)["missing"] == 1
    labels[0]["commit"] = first
    assert build(tmp_path / "mirrors", tmp_path / "out", labels, {"a/steered": {"commit": last}},
                 log=said.append)["written"] == 1
    assert (tmp_path / "out" / "a+steered" / "old.jpg").read_bytes() == b"the old photo"
