"""The web server's contract (docs/DESIGN.md, "The web page"): looking is free, changing needs pairing,
bad requests answer 4xx and change nothing, presses reach the controller as the panel's do."""

from __future__ import annotations

import http.client
import json
import socket
import time

import pytest

pytest.importorskip("aiohttp", reason="the web page needs aiohttp: pip install 'muggins[web]'")

from web_table import WebTable  # noqa: E402


@pytest.fixture
def table(tmp_path):
    t = WebTable(tmp_path)
    yield t
    t.close()


def test_the_state_is_open_to_look_at(table):
    status, state, _ = table.get("/api/state")
    assert status == 200
    assert state["players"] == ["North", "South"]
    assert state["scores"] == {"North": 0, "South": 0}
    assert state["phase"] == "cut" and state["dealer"] is None and state["count"] is None
    assert state["paired"] is False


def test_the_pin_is_printed_and_spoken(table):
    assert "246810" in table.printed.text and "http://127.0.0.1:" in table.printed.text
    assert any("2 4 6 8 1 0" in s for s in table.voice.said)


def test_json_first_line_names_the_url_and_pin(tmp_path):
    t = WebTable(tmp_path, json_lines=True)
    try:
        first = json.loads(t.printed.text.splitlines()[0])
        assert first == {"web": {"url": f"http://127.0.0.1:{t.port}/", "pin": "246810"}}
    finally:
        t.close()


def test_the_page_and_its_files_are_served(table):
    for path in ("/", "/games", "/setup", "/static/app.css", "/static/board.js"):
        status, body, response = table.get(path)
        assert status == 200, path
        assert response.getheader("Content-Security-Policy")


@pytest.mark.parametrize("path", ["/static/../server.py", "/static/%2e%2e/server.py", "/../pyproject.toml",
                                  "/static/", "/etc/passwd", "/static/nothing.js", "/device/web/server.py"])
def test_paths_outside_the_pages_files_are_not_found(table, path):
    status, body, _ = table.get(path)
    assert status == 404
    assert b"import" not in (body if isinstance(body, bytes) else json.dumps(body).encode())


def test_changing_needs_a_paired_session(table):
    before = table.controller.seq
    for path in ("/api/claim", "/api/new-game", "/api/undo", "/api/dispute", "/api/muggins",
                 "/api/zones", "/api/settings", "/api/card-length"):
        status, body, _ = table.post(path, {})
        assert status == 401, path
    table.step(3)
    assert table.controller.seq == before


def test_a_wrong_pin_is_401_and_a_few_lock_pairing(table):
    for _ in range(4):
        assert table.pair("000000")[0] == 401
    status, body, response = table.pair("000000")
    assert status == 401
    status, body, response = table.pair("246810")   # locked now: right PIN or not
    assert status == 429 and int(response.getheader("Retry-After")) > 0
    assert table.cookie is None


def test_pairing_sets_an_httponly_samesite_cookie(table):
    status, body, response = table.pair()
    assert status == 200 and body == {"paired": True}
    cookie = response.getheader("Set-Cookie")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert table.get("/api/state")[1]["paired"] is True


def test_a_forged_cookie_is_not_a_session(table):
    table.cookie = "muggins_session=not-a-real-token"
    assert table.post("/api/undo")[0] == 401


def test_another_origin_is_refused_even_when_paired(table):
    table.pair()
    status, _, _ = table.post("/api/new-game", headers={"Origin": "http://evil.example"})
    assert status == 403
    status, _, _ = table.post("/api/new-game", headers={"Sec-Fetch-Site": "cross-site"})
    assert status == 403
    status, _, _ = table.post("/api/pair", {"pin": "246810"}, headers={"Origin": "http://evil.example"})
    assert status == 403


@pytest.mark.parametrize("raw, kind, status", [
    (b"{not json", "application/json", 400),
    (b"[1, 2]", "application/json", 400),
    (b'{"points": 12, "extra": 1}', "application/json", 400),
    (b'{"points": "twelve"}', "application/json", 400),
    (b'{"points": true}', "application/json", 400),
    (b'{"points": 99}', "application/json", 400),
    (b'{}', "application/json", 400),
    (b"\xff\xfe", "application/json", 400),
    (b'{"points": 12}', "text/plain", 415),
    (b'{"points": 12}' + b" " * 100_000, "application/json", 413),
])
def test_bad_bodies_are_4xx_and_change_nothing(table, raw, kind, status):
    table.pair()
    table.deal_and_play()
    before = (table.controller.seq, table.controller.game.state())
    got, body, _ = table.post("/api/claim", raw=raw, headers={"Content-Type": kind})
    assert got == status and "error" in body
    table.step(3)
    assert (table.controller.seq, table.controller.game.state()) == before


def test_a_claim_from_the_phone_is_pegged_as_the_dials(table):
    table.pair()
    table.deal_and_play()
    actual = table.controller.game.correct_count().total
    journaled = table.controller.seq
    status, body, _ = table.post("/api/claim", {"points": actual})
    assert status == 202 and body["queued"] is True
    assert table.controller.seq == journaled        # nothing happens outside the device's loop
    table.step()
    assert table.controller.game.score("South") >= actual
    status, state, _ = table.get("/api/state")
    assert state["scores"]["South"] == table.controller.game.score("South")
    assert state["breakdown"]["player"] == "South" and state["breakdown"]["verdict"] == "right"
    assert sorted(state["breakdown"]["cards"]) == sorted(["5S", "5C", "3S", "7D"])
    assert state["breakdown"]["starter"] == "4H"
    from device.journal import read_entries

    kinds = [e.event["type"] for e in read_entries(table.device.journal.path)]
    assert "ClaimPegged" in kinds           # journaled before it reached the page


def test_muggins_and_undo_from_the_phone(table):
    table.pair()
    table.deal_and_play()
    actual = table.controller.game.correct_count().total
    table.post("/api/claim", {"points": actual - 2})
    table.step()
    north = table.controller.game.score("North")
    assert table.post("/api/muggins", {"side": 0})[0] == 202
    table.step()
    assert table.controller.game.score("North") == north + 2
    assert table.post("/api/undo")[0] == 202
    table.step()
    assert table.controller.game.score("North") == north
    assert table.post("/api/muggins", {"side": 5})[0] == 400


def test_new_game_mid_game_is_refused_by_the_controller_and_said(table):
    table.pair()
    table.deal_and_play()
    before = table.controller.game.state()
    assert table.post("/api/new-game")[0] == 202
    table.step()
    assert table.controller.game.state() == before
    state = table.get("/api/state")[1]
    assert "not over" in state["announcement"]["shown"] + state["announcement"]["spoken"]


def read_event(stream, deadline):
    """The data of the next `state` event on an open SSE response."""
    data = None
    while time.monotonic() < deadline:
        line = stream.readline().decode()
        if line.startswith("data: "):
            data = json.loads(line[6:])
        elif line == "\n" and data is not None:
            return data
    raise AssertionError("no event in time")


def test_the_stream_sends_each_new_state(table):
    conn = http.client.HTTPConnection("127.0.0.1", table.port, timeout=5)
    conn.request("GET", "/api/events")
    stream = conn.getresponse()
    assert stream.getheader("Content-Type").startswith("text/event-stream")
    first = read_event(stream, time.monotonic() + 5)
    assert first["phase"] == "cut"
    table.put("seat:0", "AC")
    got = read_event(stream, time.monotonic() + 5)   # how soon: bench/bench_web.py
    assert got["seq"] > first["seq"] and got["log"][-1] == "North cuts AC"
    conn.close()


def test_a_phone_leaving_mid_stream_is_harmless(table):
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", table.port))
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        s.recv(100)
        s.close()
    table.put("seat:0", "AC")   # publishing to the departed is no trouble
    table.put("seat:1", "KD")
    time.sleep(0.1)
    status, state, _ = table.get("/api/state")
    assert status == 200 and state["dealer"] == "North"


def test_the_games_list_has_the_score_race(table):
    table.deal_and_play()
    status, body, _ = table.get("/api/games")
    assert status == 200 and len(body["games"]) == 1
    game = body["games"][0]
    assert game["sides"] == ["North", "South"] and game["current"] and not game["over"]
    assert game["race"][0][-1] == table.controller.game.score("North")
    assert game["race"][1][-1] == table.controller.game.score("South")


def test_the_listening_port_taken_is_one_clear_line(tmp_path, table):
    from device.errors import UsageError
    from device.web.server import WebServer

    with pytest.raises(UsageError, match="cannot listen"):
        WebServer("127.0.0.1", table.port, {}).start()
