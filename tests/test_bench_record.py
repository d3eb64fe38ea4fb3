"""The record benchmark's games: played by autoplay, written through the journal writer, all counted."""

import bench.bench_record as bench_record
from device.record import record_of


def test_the_benchmark_journals_are_whole_games_the_record_counts(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_record, "GAMES", [("six-card", 2), ("four-player", 1)])
    games, events = bench_record.write_games(tmp_path)
    rec = record_of(tmp_path)
    assert games == 3 and events > 300
    assert rec["covers"]["games"] == 3 and rec["covers"]["finished"] == 3 and not rec["covers"]["not_counted"]
    assert [j["why"] for j in rec["covers"]["journals"]] == ["archived by a new game"] * 2 + ["the current journal"]
    assert [g["variant"] for g in rec["games"]] == ["six-card", "six-card", "four-player"]
