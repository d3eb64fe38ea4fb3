"""`muggins demo --variant NAME`: every variant played end to end through the device.

Each variant's table (its seats, its zones, its board's tracks) is the device's own, built from the
demo's config. A whole game of each is played through the device twice: quickly, with a camera
that draws no cards and a recognizer that knows where the painter would lay them (everything but the
pixels: tracker, zones, controller, journal, board); and, marked slow, through the real recognizer
on rendered frames.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest

from cribbage.variants import VARIANTS
from device.board import Board
from sim.demo_game import DemoOptions, demo_config, demo_rules, has_crib_zone, run_demo
from sim.frames import SIZE, TablePainter, table_zones
from sim.table_script import TableStep, build_script
from sketch_table import KnowsTheCards
from vision.zone_names import CENTRE, CRIB, seat

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "models" / "cards.onnx"

# name: (sides as the board and the final line name them, target)
TABLES = {
    "six-card": (["North", "South"], 121),
    "five-card": (["North", "South"], 61),
    "seven-card": (["North", "South"], 181),
    "three-player": (["North", "East", "West"], 121),
    "four-player": (["North & South", "East & West"], 121),
}


def table(variant: str, seed: int = 1):
    rules = demo_rules(variant)
    crib = has_crib_zone(rules)
    painter = TablePainter(seed, len(rules.players), zones=table_zones(SIZE, len(rules.players), crib=crib))
    return rules, painter, build_script(seed, rules, crib_zone=crib)


def test_every_variant_has_a_table():
    assert set(TABLES) == set(VARIANTS)


@pytest.mark.parametrize("variant", list(TABLES))
def test_each_variant_has_its_seats_zones_and_board_tracks(variant, tmp_path):
    rules, painter, script = table(variant)
    sides, target = TABLES[variant]
    players = len(rules.players)
    config = demo_config(rules, painter, tmp_path, speak=False)
    board = Board.from_config(config)
    assert board.names == sides and board.target == target == rules.target
    assert board.layout.tracks == len(sides)
    assert painter.zones.players == players
    if variant == "six-card":  # the device's default zones; the crib beside the dealer's hand
        assert not config.zones and CRIB not in painter.zones
    else:                       # the zones as calibrated, crib zone and all, are the config's
        assert set(config.zones) == {seat(i) for i in range(players)} | {CENTRE, CRIB}
    # every card the script lays lies inside its zone's picture, in the frame
    laid = [step for step in script.steps if isinstance(step, TableStep) and step.zones]
    for index, step in enumerate(laid[:200]):
        for placement in painter.placements(step, np.random.default_rng(index)):
            assert painter.zones.zone_of(placement.centre) == _zone_of(step, placement.card)
            half_w = 0.5 * 0.7 * placement.height
            x, y = placement.centre
            assert half_w < x < SIZE[0] - half_w and placement.height / 2 < y < SIZE[1] - placement.height / 2


def _zone_of(step: TableStep, card) -> str:
    """The zone the script lays a card in; a card face down (None) is the stock, under the starter."""
    if card is None:
        assert step.cards(CENTRE)
        return CENTRE
    return next(zone for zone, cards in step.zones if card in cards)


def test_the_starter_lies_face_up_on_the_face_down_stock():
    """As at a real table: a back drawn first, under the starter, a little off it; no back without one."""
    _, painter, script = table("six-card")
    steps = [step for step in script.steps if isinstance(step, TableStep) and step.zones]
    with_starter = next(step for step in steps if step.cards(CENTRE))
    placements = painter.placements(with_starter, np.random.default_rng(0))
    backs = [n for n, p in enumerate(placements) if p.card is None]
    starter = next(n for n, p in enumerate(placements) if p.card == with_starter.cards(CENTRE)[0])
    assert len(backs) == 1 and backs[0] < starter
    apart = np.hypot(*np.subtract(placements[backs[0]].centre, placements[starter].centre))
    assert 0 < apart < 0.25 * placements[starter].height
    without = next(step for step in steps if not step.cards(CENTRE))
    assert all(p.card is not None for p in painter.placements(without, np.random.default_rng(0)))


def test_an_unknown_variant_is_a_usage_error():
    from device.errors import DeviceError

    with pytest.raises(DeviceError, match="five-card"):
        demo_rules("nine-card")


def play(variant: str, seed: int, state_dir: Path, recognizer=None, painter_for=None):
    """(exit status, the events, the final line) of one whole demo game at --speed max."""
    out, err = io.StringIO(), io.StringIO()
    code = run_demo(DemoOptions(seed=seed, speed="max", json=True, mute=True, state_dir=state_dir,
                                variant=variant), out, err, recognizer=recognizer, painter_for=painter_for)
    assert "Traceback" not in err.getvalue()
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    return code, [line["event"] for line in lines if "event" in line], lines[-1]["final"]


def check_the_game(variant: str, code: int, events: list, final: dict) -> None:
    assert code == 0 and final["as_scripted"] and final["winner"]
    sides, target = TABLES[variant]
    assert sorted(final["scores"]) == sorted(sides) and max(final["scores"].values()) == target
    started = events[0]
    assert started["type"] == "GameStarted" and started["variant"] == variant
    assert started["players"] == list(demo_rules(variant).players)
    shown = [e for e in events if e["type"] == "HandShown"]
    assert any(e["crib"] for e in shown) and any(not e["crib"] for e in shown)
    verdicts = {e["verdict"] for e in events if e["type"] == "ClaimPegged"}
    assert verdicts == {"right", "over", "under"}
    assert {"MugginsTaken", "DisputeReadout", "Notice"} <= {e["type"] for e in events}
    assert events[-1]["type"] == "GameWon"


@pytest.mark.parametrize("variant", list(TABLES))
def test_a_whole_game_of_each_variant_through_the_device_with_eyes_that_know_the_cards(variant, tmp_path):
    knows = KnowsTheCards()
    code, events, final = play(variant, 1, tmp_path, recognizer=knows, painter_for=knows)
    check_the_game(variant, code, events, final)
    if variant == "five-card":  # the one count ended by the Go buttons; the cards not played shown
        assert any(e["type"] == "GoSaid" and not e["inferred"] for e in events)


# A whole game of each variant through the real recognizer, at --speed max (six-card's are
# tests/test_resume_after_kill.py's). They take a while (in the whole suite on two cores): five-card to
# 61 about 25 s, four players and seven-card to 181 about 70 s each, three players about 100 s.
GAMES = [("five-card", 1), ("seven-card", 1), ("three-player", 1), ("four-player", 1)]


@pytest.mark.slow
@pytest.mark.skipif(not MODEL.is_file(), reason="models/cards.onnx is not built yet")
@pytest.mark.parametrize("variant, seed", GAMES)
def test_a_whole_game_of_each_variant_plays_through_the_device(variant, seed, tmp_path):
    check_the_game(variant, *play(variant, seed, tmp_path))


@pytest.mark.parametrize("variant", ["five-card", "four-player"])
def test_a_variant_stopped_mid_game_resumes_from_its_journal_and_ends_the_same(variant, tmp_path,
                                                                             monkeypatch):
    from sim.simulation import Simulation

    def lines(state_dir: Path) -> list[dict]:
        knows, out = KnowsTheCards(), io.StringIO()
        run_demo(DemoOptions(seed=3, speed="max", json=True, mute=True, state_dir=state_dir, variant=variant),
                 out, io.StringIO(), recognizer=knows, painter_for=knows)
        return [json.loads(line) for line in out.getvalue().splitlines()]

    whole = lines(tmp_path / "whole")
    step = Simulation.run_step

    def power_cut(self, index):
        if index == 70:
            raise KeyboardInterrupt  # the power goes: the journal has the steps before this one
        step(self, index)

    monkeypatch.setattr(Simulation, "run_step", power_cut)
    with pytest.raises(KeyboardInterrupt):
        lines(tmp_path / "cut")
    monkeypatch.setattr(Simulation, "run_step", step)
    again = lines(tmp_path / "cut")
    resumed = again[0]["resumed"]
    # a step that journaled nothing (a card taken back) is taken again
    assert 0 < resumed["step"] <= 70 and 0 < resumed["seq"] < len(whole) - 1
    assert again[1:] == [line for line in whole if line.get("seq", resumed["seq"] + 1) > resumed["seq"]]
    assert again[-1]["final"]["as_scripted"]
