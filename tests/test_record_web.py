"""The record on the table's web page: GET /api/record and /api/deal read the same module as the command."""

from __future__ import annotations

import pytest

pytest.importorskip("aiohttp", reason="the web page needs aiohttp: pip install 'muggins[web]'")

from web_table import table  # noqa: E402,F401 (table: a fixture)

from device.panel import PanelEvent  # noqa: E402
from device.record import record_of  # noqa: E402


def test_the_record_and_a_deal_of_the_game_in_progress(table):
    table.deal_and_play()
    with table.lock:
        table.controller.on_panel(PanelEvent("claim", value=table.controller.game.correct_count().total))
    status, rec, _ = table.get("/api/record")
    assert status == 200 and rec == record_of(table.page.server.state_dir)
    assert rec["covers"]["games"] == 1 and rec["covers"]["in_progress"] == 1
    (game,) = rec["games"]
    players = {p["name"]: p for p in game["record"]}
    south = table.controller.game.score("South")
    assert sum(players["South"]["points"].values()) == south
    assert players["South"]["claims"]["right"] == 1
    status, deal, _ = table.get(f"/api/deal?game={game['number']}&deal=1")
    assert status == 200 and deal["deal"] == 1 and deal["play_over"]
    assert [r["card"] for r in deal["play"] if r["type"] == "card"] == \
        [str(e.card) for e in table.controller.game.events if type(e).__name__ == "CardPlayed"]


@pytest.mark.parametrize("query, status, message", [
    ("", 400, "game=N&deal=M"), ("?game=1&deal=x", 400, "whole numbers"),
    ("?game=5&deal=1", 404, "there is no game 5"), ("?game=1&deal=9", 404, "has no deal 9"),
])
def test_a_deal_not_there_is_a_clear_answer(table, query, status, message):
    table.deal_and_play()
    got, body, _ = table.get("/api/deal" + query)
    assert got == status and message in body["error"]
