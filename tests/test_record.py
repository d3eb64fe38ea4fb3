"""`muggins record` and device.record: each player's figures checked against the demo's scripted games,
whose every claim, Muggins and dispute the script itself says, and honest about what the journals hold."""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from cribbage.game import Game
from cribbage.show_score import score_show
from device.cli import main
from device.commands.record import deal_lines
from device.journal import JOURNAL_NAME
from device.record import record, record_of
from device.record_games import Journals, games_of, read_games
from device.record_lookback import look_back
from sim.demo_game import DemoOptions, demo_rules, has_crib_zone, run_demo
from sim.table_script import PressStep, build_script
from sketch_table import KnowsTheCards

# Played in this order into one state directory: a new game archives the first journal, and each
# change of variant sets the journal before it aside as another game's.
GAMES = [("six-card", 1, False), ("six-card", 2, True), ("three-player", 1, False), ("four-player", 1, False)]
CORRUPT = f"{JOURNAL_NAME}.corrupt-20260101T000000Z"
UNREADABLE = f"{JOURNAL_NAME}.archived-20260101T000000Z"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """(state directory, each game's final line) after the four demo games, with a journal set aside as
    corrupt and an archived one that is not a database beside them."""
    state_dir = tmp_path_factory.mktemp("record")
    finals = []
    for variant, seed, new_game in GAMES:
        knows, out = KnowsTheCards(), io.StringIO()
        code = run_demo(DemoOptions(seed=seed, speed="max", json=True, mute=True, state_dir=state_dir,
                                    variant=variant, new_game=new_game), out, io.StringIO(),
                        recognizer=knows, painter_for=knows)
        assert code == 0
        finals.append(json.loads(out.getvalue().splitlines()[-1])["final"])
    (state_dir / CORRUPT).write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    (state_dir / UNREADABLE).write_bytes(b"not a database at all")
    return state_dir, finals


def scripted_claims(variant: str, seed: int) -> list[tuple[str, int, str]]:
    """(player, claim, kind) of every claim the demo's script makes, from its own notes."""
    rules = demo_rules(variant)
    script = build_script(seed, rules, crib_zone=has_crib_zone(rules))
    notes = [s.note for s in script.steps if isinstance(s, PressStep)]
    return [(m[1], int(m[2]), m[3]) for n in notes if (m := re.fullmatch(r"(\w+) claims (\d+) \((\w+)\)", n))], notes


def test_every_game_is_found_in_order_and_the_bad_journals_are_named(table):
    state_dir, _ = table
    rec = record_of(state_dir)
    assert [(g["variant"], g["current"]) for g in rec["games"]] == \
        [("six-card", False), ("six-card", False), ("three-player", False), ("four-player", True)]
    covers = rec["covers"]
    assert covers["games"] == 4 and covers["finished"] == 4 and covers["undone"] == 0
    assert covers["variants"] == {"six-card": 2, "three-player": 1, "four-player": 1}
    assert [j["why"] for j in covers["journals"]] == ["archived by a new game", "set aside when the settings changed",
                                                     "set aside when the settings changed", "the current journal"]
    skipped = {j["journal"]: j["why"] for j in covers["not_counted"]}
    assert skipped[CORRUPT] == "set aside as corrupt"
    assert skipped[UNREADABLE].startswith("cannot be read")


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_claims_muggins_and_disputes_are_those_the_script_made(table, index):
    state_dir, finals = table
    variant, seed, _ = GAMES[index]
    game = record_of(state_dir)["games"][index]
    claims, notes = scripted_claims(variant, seed)
    assert {kind for *_, kind in claims} == {"right", "over", "under"}   # the script's own mistakes
    by_player = {p["name"]: p for p in game["record"]}
    for name, player in by_player.items():
        mine = [(claim, kind) for who, claim, kind in claims if who == name]
        kinds = Counter(kind for _, kind in mine)
        assert player["claims"] == {"right": kinds["right"], "over": kinds["over"], "short": kinds["under"]}
        # right: the claim is pegged; over: corrected to the true count (2 less); short: the claim
        pegged = sum(claim - 2 if kind == "over" else claim for claim, kind in mine)
        assert player["points"]["hand"] + player["points"]["crib"] == pegged
        assert player["hand"]["counted"] + player["crib"]["counted"] == len(mine)
        true = sum(claim + {"over": -2, "under": 2}.get(kind, 0) for claim, kind in mine)
        counted = [player[s] for s in ("hand", "crib") if player[s]["counted"]]
        assert sum(m["true"] * m["counted"] for m in counted) == pytest.approx(true, abs=0.01)
        called = sum(n == f"{name} calls muggins" for n in notes)
        assert player["muggins"]["taken"] == called
        assert player["disputes"]["count"] == sum(n == f"someone disputes {name}'s count" for n in notes)
    assert sum(p["muggins"]["given"] for p in by_player.values()) == sum(k == "under" for *_, k in claims)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_the_points_by_source_make_up_the_final_scores(table, index):
    state_dir, finals = table
    game = record_of(state_dir)["games"][index]
    final = finals[index]
    assert game["winner"] == final["winner"] and game["over"]
    assert dict(zip(game["sides"], game["scores"])) == final["scores"]
    for side, score in zip(game["sides"], game["scores"]):
        made = sum(sum(p["points"].values()) for p in game["record"] if p["name"] in side.split(" & "))
        deals = sum(sum(d["points"][p].values()) for d in game["per_deal"] for p in side.split(" & "))
        assert made == deals
        assert made >= game["target"] if game["winner"] in side.split(" & ") else made == score


def test_wins_and_games_add_up_over_every_game(table):
    state_dir, finals = table
    rec = record_of(state_dir)
    players = {p["name"]: p for p in rec["players"]}
    assert players["North"]["games"] == 4 and players["North"]["game_numbers"] == [1, 2, 3, 4]
    assert players["East"]["games"] == 2 and players["West"]["games"] == 2
    wins = Counter()
    for game in rec["games"]:
        won = next(side for side in game["sides"] if game["winner"] in side.split(" & ")).split(" & ")
        for p in game["players"]:
            wins[p] += p in won   # a partnership's win is both partners'
    assert {n: p["wins"] for n, p in players.items()} == dict(wins)
    for name, p in players.items():
        per_game = [g_p for g in rec["games"] for g_p in g["record"] if g_p["name"] == name]
        assert p["points"] == {s: sum(g_p["points"][s] for g_p in per_game) for s in p["points"]}
        assert p["hand"]["counted"] == sum(g_p["hand"]["counted"] for g_p in per_game)


def test_the_true_count_and_best_hand_are_the_engines(table):
    state_dir, _ = table
    games = read_games(state_dir).games
    rec = record(read_games(state_dir))
    for player in rec["players"]:
        best = player["best_hand"]
        assert best["points"] == score_show(tuple(best["cards"]), best["starter"]).total
        shown = [(s, d.starter) for g in games for d in g.deals for s in d.shows
                 if s["player"] == player["name"] and not s["crib"] and s["claim"]]
        assert best["points"] == max(s["claim"]["actual"] for s, _ in shown)
        for s, starter in shown:
            assert s["claim"]["actual"] == score_show(tuple(s["cards"]), starter).total


def test_a_deal_looked_back_at_knows_every_card_held(table):
    state_dir, _ = table
    game = read_games(state_dir).games[0]
    betters = 0
    for deal in game.deals:
        back = look_back(game, deal.no)
        if not back["play_over"]:
            continue
        hands = {s["player"]: set(s["cards"]) for s in back["shows"] if not s["crib"]}
        seen: dict[str, set] = {p: set() for p in game.players}
        for row in back["play"]:
            if row["type"] != "card":
                continue
            if row["player"] in hands:  # held: the hand shown, less what that player played before
                assert set(row["held"]) == hands[row["player"]] - seen[row["player"]]
            seen[row["player"]].add(row["card"])
            if row["better"]:
                betters += 1
                assert row["better"]["card"] in row["held"] and row["better"]["points"] > row["points"]
    assert betters  # a random player misses something in eleven deals


def test_an_undone_card_is_left_out_and_counted():
    g = Game(("North", "South"))
    g.cut_for_deal("North", "4S")
    g.cut_for_deal("South", "TD")
    g.start_round()
    g.undo()          # the deal itself taken back
    g.start_round()
    g.turn_starter("QH")
    g.play("South", "6H")
    g.undo()
    g.play("South", "7C")
    (game,) = games_of([e.to_dict() for e in g.events], "j")
    assert game.undone == 2 and len(game.deals) == 1
    assert [r["card"] for r in game.deals[0].plays] == ["7C"]
    summary = record(Journals([game], [], []))
    assert summary["covers"]["undone"] == 2 and summary["covers"]["in_progress"] == 1


def test_a_card_misread_in_the_play_is_looked_back_at_as_put_right_unless_undone():
    g = Game(("North", "South"))
    g.set_dealer("North")
    g.start_round()
    g.turn_starter("4H")
    for player, card in (("South", "5S"), ("North", "TD"), ("South", "5C"), ("North", "AS"),   # the 3C
                         ("South", "KS"), ("North", "KC"), ("South", "7D"), ("North", "2C")):
        g.play(player, card)
    g.show("South", ["5S", "5C", "KS", "7D"])
    g.claim(6)
    g.correct_play("North", ["AS"], ["3C"])
    (game,) = games_of([e.to_dict() for e in g.events], "j")
    (deal,) = game.deals
    assert [r["card"] for r in deal.plays if r.get("player") == "North" and "card" in r] == ["TD", "3C", "KC", "2C"]
    play = look_back(game, 1)["play"]
    first = next(r for r in play if r["type"] == "card" and r["player"] == "North")
    assert set(first["held"]) == {"TD", "3C", "KC", "2C"}
    row = next(r for r in play if r["type"] == "card" and r["card"] == "3C")
    assert row["misread"] == "AS" and row["count"] == 21      # the count as pegged, on the card misread
    assert all(r["better"] is None for r in play if r["type"] == "card")  # 5 10 5 3 K: 33, never judged
    assert "  North    3C   21   (read as AS)" in deal_lines(look_back(game, 1))
    g.undo()
    (game,) = games_of([e.to_dict() for e in g.events], "j")
    assert "AS" in [r.get("card") for r in game.deals[0].plays] and game.undone == 1


def digest(state_dir: Path) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(state_dir.iterdir())}


def test_the_command_reads_and_writes_nothing_back(table, capsys):
    state_dir, _ = table
    before = digest(state_dir)
    assert main(["record", "--state-dir", str(state_dir), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["covers"]["games"] == 4 and set(rec["meanings"]) >= {"pegged", "true", "starters", "table", "best"}
    assert main(["record", "--state-dir", str(state_dir)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("4 games (4 finished, 0 in progress") and "set aside as corrupt" in text
    assert main(["record", "--state-dir", str(state_dir), "--game", "3"]) == 0
    assert "Game 3 (three-player" in capsys.readouterr().out
    assert main(["record", "--state-dir", str(state_dir), "--game", "1", "--deal", "2"]) == 0
    assert "The play:" in capsys.readouterr().out
    assert digest(state_dir) == before


@pytest.mark.parametrize("argv, message", [
    (["--state-dir", "/nonexistent/muggins"], "there is no state directory"),
    (["--game", "9"], "there is no game 9"),
    (["--game", "1", "--deal", "99"], "game 1 has no deal 99"),
    (["--deal", "1"], "--deal needs --game"),
])
def test_bad_input_is_one_line_and_status_2(table, capsys, argv, message):
    state_dir, _ = table
    if "--state-dir" not in argv:
        argv = ["--state-dir", str(state_dir)] + argv
    assert main(["record"] + argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_state_directory_comes_from_the_devices_config(table, tmp_path, capsys, monkeypatch):
    state_dir, _ = table
    monkeypatch.delenv("MUGGINS_STATE_DIR", raising=False)
    config = tmp_path / "muggins.toml"
    config.write_text(f'state_dir = "{state_dir}"\n', encoding="utf-8")
    assert main(["record", "--config", str(config)]) == 0
    assert capsys.readouterr().out.startswith("4 games")
    assert main(["record", "--config", str(tmp_path / "none.toml")]) == 2
    assert "no such config file" in capsys.readouterr().err


def test_an_empty_state_directory_has_no_record(tmp_path, capsys):
    assert main(["record", "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith("No game in the journals of")


def test_a_game_cut_off_and_resumed_has_the_record_of_one_played_through(table, tmp_path, monkeypatch):
    from sim.simulation import Simulation

    def play(state_dir: Path) -> None:
        knows = KnowsTheCards()
        run_demo(DemoOptions(seed=1, speed="max", mute=True, state_dir=state_dir), io.StringIO(), io.StringIO(),
                 recognizer=knows, painter_for=knows)

    step = Simulation.run_step

    def power_cut(self, index):
        if index == 90:
            raise KeyboardInterrupt  # the power goes mid-game: the journal has the steps before this one
        step(self, index)

    monkeypatch.setattr(Simulation, "run_step", power_cut)
    with pytest.raises(KeyboardInterrupt):
        play(tmp_path)
    cut_short = record_of(tmp_path)
    assert cut_short["covers"]["in_progress"] == 1 and cut_short["games"][0]["deals"] < 10
    monkeypatch.setattr(Simulation, "run_step", step)
    play(tmp_path)
    (resumed,) = record_of(tmp_path)["games"]
    whole = record_of(table[0])["games"][0]   # the same game (six-card, seed 1), played through
    assert {**resumed, "journal": whole["journal"], "current": False} == whole
