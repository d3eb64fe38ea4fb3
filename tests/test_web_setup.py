"""The set-up page's writes: settings checked by the config loader's own rules and saved atomically with
the old file kept; dragged zones checked and saved; the card measured from the camera's picture."""

from __future__ import annotations

import os
import tomllib

import pytest

pytest.importorskip("aiohttp", reason="the web page needs aiohttp: pip install 'muggins[web]'")

from web_table import WebTable  # noqa: E402


@pytest.fixture
def table(tmp_path):
    t = WebTable(tmp_path)
    t.pair()
    yield t
    t.close()


def test_a_bad_setting_is_the_loaders_message_and_nothing_is_written(table):
    before = table.config_path.read_text()
    status, body, _ = table.post("/api/settings", {"toml": before + "[camera]\nfps = -3\n"})
    assert status == 400
    assert body["error"].startswith(str(table.config_path)) and "[camera] fps" in body["error"]
    assert table.config_path.read_text() == before
    assert not table.config_path.with_name("muggins.toml.old").exists()
    status, body, _ = table.post("/api/settings", {"toml": "[game\n"})
    assert status == 400 and "not valid TOML" in body["error"]


def test_a_good_setting_is_saved_with_the_old_file_kept(table):
    before = table.config_path.read_text()
    new = before + "[camera]\nfps = 15\n"
    status, body, _ = table.post("/api/settings", {"toml": new, "save": False})   # checked only
    assert status == 200 and table.config_path.read_text() == before
    status, body, _ = table.post("/api/settings", {"toml": new})
    assert status == 200 and body["saved"] == str(table.config_path)
    assert table.config_path.read_text() == new
    assert table.config_path.with_name("muggins.toml.old").read_text() == before
    assert not [p for p in os.listdir(table.config_path.parent) if p.endswith(".tmp")]


def test_the_setup_page_shows_the_config_and_the_zones_over_the_camera(table):
    table.step(2)
    status, info, _ = table.get("/api/setup")
    assert status == 200 and info["camera"] and (info["width"], info["height"]) == (640, 480)
    assert set(info["zones"]) == {"seat:0", "seat:1", "centre"}
    assert info["toml"] == table.config_path.read_text() and info["players"] == ["North", "South"]
    status, jpeg, response = table.get("/api/camera.jpg")
    assert status == 200 and response.getheader("Content-Type") == "image/jpeg" and jpeg[:2] == b"\xff\xd8"


def test_zones_dragged_are_saved_and_crossed_ones_refused(table):
    table.step(2)
    zones = table.get("/api/setup")[1]["zones"]
    zones["centre"][0] = [zones["centre"][0][0] - 20, zones["centre"][0][1] - 10]
    status, body, _ = table.post("/api/zones", {"zones": zones})
    assert status == 200, body
    saved = tomllib.loads(table.config_path.read_text())
    assert saved["zones"]["centre"][0] == zones["centre"][0]
    assert saved["voice"]["engine"] == "none"                 # the rest of the file kept
    bow_tie = {"centre": [[0, 0], [100, 100], [100, 0], [0, 100]]}
    before = table.config_path.read_text()
    status, body, _ = table.post("/api/zones", {"zones": bow_tie})
    assert status == 400 and "centre" in body["error"]
    assert table.config_path.read_text() == before
    assert table.post("/api/zones", {"zones": {"centre": "everywhere"}})[0] == 400


def test_the_card_is_measured_from_one_card_and_saved(tmp_path):
    from web_table import ReadOnce, StillCamera

    from sim.frames import TablePainter
    from sim.table_script import TableStep
    from cribbage.cards import Card

    painter = TablePainter(5, 2)
    camera = StillCamera()
    camera.image = painter.draw(TableStep(zones=(("centre", (Card.parse("7H"),)),)), 0)
    t = WebTable(tmp_path, camera=camera, recognizer=ReadOnce())
    try:
        t.pair()
        t.step(2)
        status, body, _ = t.post("/api/card-length")
        assert status == 200, body
        length = body["card_length"]
        assert abs(length - painter.card_h) < 0.15 * painter.card_h
        assert tomllib.loads(t.config_path.read_text())["camera"]["card_length"] == length
    finally:
        t.close()


def test_no_card_to_measure_is_said(table):
    from web_table import NoCards  # noqa: F401  (the table's recognizer sees nothing)

    table.step(2)
    status, body, _ = table.post("/api/card-length")
    assert status == 400 and "no card" in body["error"] and "lay one card" in body["error"]


def test_without_a_config_file_nothing_is_saved(tmp_path):
    from device.app import Device
    from device.config import load_config
    from device.parts import Parts
    from device.web.pairing import Pairing
    from device.web.table import serve
    from web_table import Leds, NoCards, QuietPanel, StillCamera, Voice, _Sink

    config = load_config(None).replace(state_dir=tmp_path / "state")
    device = Device(config, parts=Parts(source=StillCamera(), recognizer=NoCards(), leds=Leds(), voice=Voice(),
                                        panel=QuietPanel()), out=_Sink(), err=_Sink())
    page = serve(device, "127.0.0.1:0", out=_Sink(), pairing=Pairing("135790"))
    try:
        import http.client
        import json

        conn = http.client.HTTPConnection("127.0.0.1", page.server.port, timeout=10)
        conn.request("POST", "/api/pair", json.dumps({"pin": "135790"}), {"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        cookie = response.getheader("Set-Cookie").split(";", 1)[0]
        conn.request("POST", "/api/settings", json.dumps({"toml": ""}),
                     {"Content-Type": "application/json", "Cookie": cookie})
        response = conn.getresponse()
        assert response.status == 409 and "--config" in json.loads(response.read())["error"]
    finally:
        page.close()
        device.close()
