"""Learning the table's print from the set-up page: the empty table read as `muggins calibrate --table`
reads it, saved where `muggins run` finds it, and read past by the running device from the next frame."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("aiohttp", reason="the web page needs aiohttp: pip install 'muggins[web]'")

from device.table_print import ReadsPastPrint  # noqa: E402
from web_table import StillCamera, WebTable  # noqa: E402


class PrintedMat(StillCamera):
    """The demo's printed mat (sim/frames.py: the ace of spades and the ace of hearts printed on the
    cloth), empty, or with `laid` cards on it."""

    def __init__(self):
        from sim.frames import TablePainter
        from sim.table_script import TableStep

        self.painter = TablePainter(1, printed=True)
        self.image = self.painter.draw(TableStep(zones=()), 0)
        self.index = 0


@pytest.fixture(scope="module")
def recognizer():
    from vision.recognizer import Recognizer

    return Recognizer()


@pytest.fixture
def table(tmp_path, recognizer):
    camera = PrintedMat()
    t = WebTable(tmp_path, camera=camera, recognizer=recognizer)
    t.camera = camera
    t.pair()
    yield t
    t.close()


def printed(table):
    return table.config_path.parent / "state" / "table_print.json"


def reads(table):
    """What the running device reads in the camera's picture now."""
    return sorted(str(r.card) for r in table.device.parts.recognizer.recognize(table.camera.image))


def test_learning_the_table_needs_a_paired_phone_a_strict_body_and_a_picture(table):
    assert table.post("/api/table-print", {}, headers={"Cookie": "x=y"})[0] == 401
    status, body, _ = table.post("/api/table-print", {})
    assert status == 400 and body["error"] == "no camera picture yet to learn the table from"
    table.step()
    status, body, _ = table.post("/api/table-print", {"cards": []})
    assert status == 400 and "unknown field 'cards'" in body["error"]
    assert not printed(table).exists()
    assert table.get("/api/setup")[1]["table_print"] == {"learnt": False, "cards": [], "spots": [], "error": None}


def test_the_empty_mat_learnt_is_read_past_from_the_next_frame_and_learnt_again_the_same(table):
    table.step()
    assert reads(table) == ["AH", "AS"]           # the print, read as cards before it is learnt
    status, body, _ = table.post("/api/table-print", {})
    assert status == 200, body
    assert sorted(body["cards"]) == ["ace of hearts", "ace of spades"]
    assert body["message"].startswith("the empty table shows 2 things the device reads as a card")
    assert body["saved"] == str(printed(table))
    assert sorted(c["card"] for c in json.loads(printed(table).read_text())["cards"]) == ["AH", "AS"]
    assert reads(table) == []
    assert isinstance(table.device.parts.recognizer.recognizer, ReadsPastPrint)
    state = table.get("/api/setup")[1]["table_print"]
    assert sorted(state["cards"]) == ["ace of hearts", "ace of spades"] and state["error"] is None
    # each spot circled where its ace is printed (sim/frames.py: across the frame at PRINTED's shares)
    from sim.frames import PRINTED

    for spot in state["spots"]:
        across = dict(PRINTED)[spot["card"]]
        assert abs(spot["centre"][0] - across) < 0.03 and 0.5 * 0.2 < spot["reach"] < 0.5 * 0.45

    # learnt again, the table is read without the print already learnt: the same two aces, not none
    status, body, _ = table.post("/api/table-print", {})
    assert status == 200 and sorted(body["cards"]) == ["ace of hearts", "ace of spades"]
    assert not isinstance(table.device.parts.recognizer.recognizer.inner, ReadsPastPrint)

    # cards laid on the mat are still read, the printed aces among them
    from cribbage.cards import Card
    from sim.table_script import TableStep
    from vision.zone_names import CENTRE, seat

    laid = TableStep(zones=((seat(0), tuple(Card.parse(c) for c in ("AS", "5D", "JC"))),
                            (CENTRE, (Card.parse("AH"),))))
    table.camera.image = table.camera.painter.draw(laid, 1)
    assert reads(table) == ["5D", "AH", "AS", "JC"]


def test_a_plain_table_learnt_unwraps_the_print_and_a_broken_file_is_said(table):
    from web_table import StillCamera as Plain

    printed(table).parent.mkdir(parents=True, exist_ok=True)
    printed(table).write_text("{")
    table.step()
    state = table.get("/api/setup")[1]["table_print"]
    assert state["learnt"] is False and "is not JSON" in state["error"]
    assert table.post("/api/table-print", {})[0] == 200
    assert reads(table) == []

    table.camera.image = Plain(1280, 720).image            # the device moved to a plain table
    table.step()
    status, body, _ = table.post("/api/table-print", {})
    assert status == 200 and body["cards"] == []
    assert "shows nothing the device reads as a card" in body["message"]
    assert not isinstance(table.device.parts.recognizer.recognizer, ReadsPastPrint)
    assert json.loads(printed(table).read_text()) == {"cards": []}


def test_a_print_that_cannot_be_saved_is_said_and_changes_nothing(table):
    (table.config_path.parent / "state").mkdir(exist_ok=True)
    printed(table).mkdir()                               # a folder where the file should be
    table.step()
    status, body, _ = table.post("/api/table-print", {})
    assert status == 409 and body["error"].startswith(f"cannot save the table's print to {printed(table)}")
    assert reads(table) == ["AH", "AS"]
    assert not isinstance(table.device.parts.recognizer.recognizer, ReadsPastPrint)
