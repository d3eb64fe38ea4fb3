"""Learning the deck from the set-up page: a suit read from the camera's frame as `muggins calibrate --deck`
reads it (the same words), kept for that phone until saved where `muggins deck list` finds it."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

pytest.importorskip("aiohttp", reason="the web page needs aiohttp: pip install 'muggins[web]'")

from cribbage.cards import Card  # noqa: E402
from tests.deck_photos import photo  # noqa: E402
from vision.learned_deck import deck_names, load_deck  # noqa: E402
from web_table import StillCamera, WebTable  # noqa: E402


def suit(letter):
    return [Card(rank, letter) for rank in range(1, 14)]


@pytest.fixture(scope="module")
def rows():
    rng = np.random.default_rng(40)
    size, height = (1920, 480), 0.27
    return {"C": photo(rng, suit("C"), size=size, height=height),
            "D": photo(rng, suit("D"), size=size, height=height),
            "twelve": photo(rng, suit("C")[:12], size=size, height=height)}


@pytest.fixture
def table(tmp_path):
    camera = StillCamera(1920, 480)
    t = WebTable(tmp_path, camera=camera)
    t.camera = camera
    t.pair()
    yield t
    t.close()


def show(table, image):
    """The camera now films this: one turn of the device's loop hands the frame to the page."""
    table.camera.image = image
    table.step()


def decks(table):
    return table.config_path.parent / "state" / "decks"


def test_learning_needs_a_paired_phone_and_a_strict_body(table):
    show(table, table.camera.image)
    status, body, _ = table.post("/api/deck/suit", {"name": "home", "suit": "C"}, headers={"Cookie": "x=y"})
    assert status == 401
    assert table.post("/api/deck/save", {}, headers={"Cookie": "x=y"})[0] == 401
    status, body, _ = table.post("/api/deck/suit", raw=b"{not json", headers={"Content-Type": "application/json"})
    assert status == 400 and "not JSON" in body["error"]
    status, body, _ = table.post("/api/deck/suit", {"name": "home", "suit": "C", "extra": 1})
    assert status == 400 and "unknown field 'extra'" in body["error"]
    status, body, _ = table.post("/api/deck/suit", {"name": "home"})
    assert status == 400 and "'suit' is missing" in body["error"]
    status, body, _ = table.post("/api/deck/suit", {"name": "home", "suit": "X"})
    assert status == 400 and "no suit 'X'" in body["error"]
    status, body, _ = table.post("/api/deck/suit", {"name": "../etc", "suit": "C"})
    assert status == 400 and "no deck name" in body["error"]
    status, body, _ = table.post("/api/deck/save", {})
    assert status == 400 and "no suit learned yet" in body["error"]
    assert table.get("/api/setup")[1]["learning"] is None
    assert not decks(table).exists()


def test_a_suit_in_a_row_is_learned_and_twelve_cards_are_said_and_learn_nothing(table, rows):
    show(table, rows["twelve"])
    status, body, _ = table.post("/api/deck/suit", {"name": "home", "suit": "C"})
    assert status == 400
    assert body["error"].startswith("I see 12 cards, not thirteen: lay the thirteen clubs")
    assert table.get("/api/setup")[1]["learning"] is None

    show(table, rows["C"])
    status, body, _ = table.post("/api/deck/suit", {"name": "home", "suit": "C"})
    assert status == 200, body
    assert body["message"] == "I see thirteen cards: the clubs are learned."
    assert (body["name"], body["suits"], body["cards"]) == ("home", ["C"], 13)

    status, body, _ = table.post("/api/deck/suit", {"name": "home", "suit": "D"})   # the clubs still lie there
    assert status == 400 and "card 1 from the left should be the ace of diamonds" in body["error"]
    info = table.get("/api/setup")[1]
    assert info["learning"] == {"name": "home", "suits": ["C"], "cards": 13}


def test_a_partly_learned_deck_is_saved_where_deck_list_finds_it_and_named_in_the_config(table, rows):
    for letter in "CD":
        show(table, rows[letter])
        assert table.post("/api/deck/suit", {"name": "home", "suit": letter})[0] == 200
    before = table.config_path.read_text()
    status, body, _ = table.post("/api/deck/save", {"use": True})
    assert status == 200, body
    assert deck_names(decks(table)) == ["home"]
    assert set(load_deck(decks(table), "home").cards) == set(suit("C") + suit("D"))
    assert 'deck = "home"' in body["message"] and body["cards"] == 26
    assert tomllib.loads(table.config_path.read_text())["camera"]["deck"] == "home"
    assert table.config_path.with_name("muggins.toml.old").read_text() == before
    info = table.get("/api/setup")[1]
    assert info["learning"] is None and info["decks"] == ["home"]
    assert table.post("/api/deck/save", {})[0] == 400        # the learning is done: nothing to save again


def test_each_phone_learns_its_own_deck_and_can_forget_it(table, rows):
    show(table, rows["C"])
    assert table.post("/api/deck/suit", {"name": "home", "suit": "C"})[0] == 200
    mine = table.cookie
    table.cookie = None
    table.pair()                                          # a second phone
    assert table.get("/api/setup")[1]["learning"] is None
    assert table.post("/api/deck/save", {})[0] == 400
    table.cookie = mine
    assert table.post("/api/deck/forget", {})[0] == 200
    assert table.get("/api/setup")[1]["learning"] is None
    assert not decks(table).exists()


def test_a_config_the_loader_refuses_saves_no_deck_and_keeps_the_learning(table, rows):
    show(table, rows["C"])
    assert table.post("/api/deck/suit", {"name": "home", "suit": "C"})[0] == 200
    broken = table.config_path.read_text() + "[camera]\nfps = -3\n"        # edited by hand meanwhile
    table.config_path.write_text(broken)
    status, body, _ = table.post("/api/deck/save", {"use": True})
    assert status == 400 and "[camera] fps" in body["error"]
    assert not decks(table).exists() and table.config_path.read_text() == broken
    assert table.get("/api/setup")[1]["learning"]["suits"] == ["C"]
    status, body, _ = table.post("/api/deck/save", {})                      # saved without naming it
    assert status == 200 and 'set [camera] deck = "home" in the config' in body["message"]
    assert deck_names(decks(table)) == ["home"] and table.config_path.read_text() == broken


def test_another_name_starts_another_deck_saying_so(table, rows):
    show(table, rows["C"])
    assert table.post("/api/deck/suit", {"name": "home", "suit": "C"})[0] == 200
    status, body, _ = table.post("/api/deck/suit", {"name": "club", "suit": "C"})
    assert status == 200 and "a new deck club: the home in progress is forgotten" in body["message"]
    assert table.get("/api/setup")[1]["learning"] == {"name": "club", "suits": ["C"], "cards": 13}


def test_a_suit_is_read_only_in_the_recognizers_turn_not_beside_the_frame_loop(table, rows):
    """While the device's recognizer is reading a frame (its turn held), the suit waits for it."""
    import threading

    show(table, rows["C"])
    assert table.post("/api/deck/suit", {"name": "warm", "suit": "C"})[0] == 200    # the recognizer made
    answers = []
    with table.device.parts.recognizer.turn():
        reading = threading.Thread(target=lambda: answers.append(table.post("/api/deck/suit",
                                                                            {"name": "home", "suit": "C"})[0]))
        reading.start()
        reading.join(1.5)
        assert reading.is_alive() and not answers
    reading.join(30)
    assert answers == [200]
