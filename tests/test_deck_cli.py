"""`muggins deck learn|list|forget` and `muggins recognize --deck`: what they print, where decks live, and
one clear line (never a traceback) for a bad name, folder or deck file."""

import json
import subprocess
import sys

import numpy as np
import pytest

from cribbage.cards import Card
from tests.deck_photos import photo, write

C = Card.parse


def muggins(*args, env=None):
    return subprocess.run([sys.executable, "-m", "device.cli", *map(str, args)], capture_output=True, text=True,
                          env=env)


@pytest.fixture(scope="module")
def learned(tmp_path_factory):
    """Photos of 5C, 10H and QS (one named as no card), learned into a decks folder; and a table photo."""
    photos = tmp_path_factory.mktemp("photos")
    decks = tmp_path_factory.mktemp("decks")
    rng = np.random.default_rng(27)
    for name, card in (("5c.jpg", "5C"), ("10H.png", "TH"), ("qs-2.png", "QS"), ("xx.png", "4D")):
        write(photos, name, photo(rng, [C(card)]))
    table = write(photos.parent, "table.png", photo(rng, [C("5C"), C("TH"), C("QS")], texture="wood"))
    done = muggins("deck", "learn", "home", photos, "--decks-dir", decks)
    return done, photos, decks, table


def test_learn_reports_what_it_learned_what_is_missing_and_what_it_could_not_use(learned):
    done, _, decks, _ = learned
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "learned 3 cards from 3 photos" in out and str(decks / "home.deck.json") in out
    assert "missing 49 cards: AC" in out
    assert "1 photo not used:\n  xx.png: the name 'xx' is no card" in out
    assert (decks / "home.deck.json").is_file()


def test_list_and_forget(learned, tmp_path):
    _, photos, decks, _ = learned
    (decks / "broken.deck.json").write_text("{}")
    listed = muggins("deck", "list", "--decks-dir", decks)
    assert listed.returncode == 0
    assert "home: 3 cards" in listed.stdout and "broken: unreadable:" in listed.stdout
    forgot = muggins("deck", "forget", "broken", "--decks-dir", decks)
    assert forgot.returncode == 0 and "forgot deck 'broken'" in forgot.stdout
    again = muggins("deck", "forget", "broken", "--decks-dir", decks)
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "known: home" in again.stderr
    assert muggins("deck", "list", "--decks-dir", tmp_path).stdout.startswith("no learned decks in")


def test_decks_live_in_the_state_directory_by_default(learned, tmp_path):
    _, photos, _, _ = learned
    config = tmp_path / "muggins.toml"
    config.write_text(f'state_dir = "{tmp_path / "state"}"\n')
    done = muggins("deck", "learn", "pub", photos, "--config", config)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "state" / "decks" / "pub.deck.json").is_file()
    assert "pub: 3 cards" in muggins("deck", "list", "--config", config).stdout


def test_recognize_reads_with_a_learned_deck(learned):
    _, _, decks, table = learned
    done = muggins("recognize", "--json", "--deck", "home", "--decks-dir", decks, table)
    assert done.returncode == 0, done.stderr
    read = {entry["card"] for entry in json.loads(done.stdout)["cards"]}
    assert read == {"5C", "TH", "QS"}


def test_recognize_refuses_a_corrupt_deck_by_name_and_reads_without_it(learned, tmp_path):
    _, _, _, table = learned
    (tmp_path / "home.deck.json").write_text('{"format": "muggins learned deck", "version": 99}')
    done = muggins("recognize", "--json", "--deck", "home", "--decks-dir", tmp_path, table)
    assert done.returncode == 0
    assert str(tmp_path / "home.deck.json") in done.stderr and "reading without the learned deck" in done.stderr
    assert json.loads(done.stdout)["cards"]


@pytest.mark.parametrize("args, message", [
    (["recognize", "--deck", "pub", "--decks-dir", "{decks}", "{table}"], "no learned deck 'pub'"),
    (["recognize", "--deck", "../x", "--decks-dir", "{decks}", "{table}"], "is no deck name"),
    (["deck", "learn", "home", "{decks}/none", "--decks-dir", "{decks}"], "no such folder of photos"),
    (["deck", "learn", "bad name", "{decks}", "--decks-dir", "{decks}"], "is no deck name"),
])
def test_bad_input_is_one_line(learned, args, message):
    _, _, decks, table = learned
    done = muggins(*[a.format(decks=decks, table=table) for a in args])
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_learning_nothing_saves_nothing(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "readme.txt").write_text("no photos here")
    done = muggins("deck", "learn", "home", photos, "--decks-dir", tmp_path / "decks")
    assert done.returncode == 2 and "no card learned" in done.stderr
    assert not (tmp_path / "decks").exists()


def test_the_device_reads_with_the_deck_its_config_names(learned, tmp_path):
    from device.config import CameraConfig
    from device.eyes import recognizer_for

    _, _, decks, _ = learned
    told = []
    recognizer = recognizer_for(CameraConfig(deck="home"), decks, told.append)
    assert recognizer.deck is not None and told == []
    assert set(recognizer.deck.deck.cards) == {C("5C"), C("TH"), C("QS")}
    assert recognizer_for(CameraConfig(), decks, told.append).deck is None and told == []


def test_a_deck_the_device_cannot_use_is_told_and_cards_are_read_without_it(tmp_path):
    from device.config import CameraConfig
    from device.eyes import recognizer_for

    (tmp_path / "home.deck.json").write_bytes(b"\x00\x01 not a deck")
    told = []
    assert recognizer_for(CameraConfig(deck="home"), tmp_path, told.append).deck is None
    assert len(told) == 1 and str(tmp_path / "home.deck.json") in told[0] and "without it" in told[0]
    assert recognizer_for(CameraConfig(deck="pub"), tmp_path, told.append).deck is None
    assert "no learned deck 'pub'" in told[1]


def test_muggins_run_says_when_the_deck_its_config_names_cannot_be_used(tmp_path):
    from sim.frames import write_replay

    write_replay(1, tmp_path / "frames", steps=2, frames_per_step=1)
    config = tmp_path / "m.toml"
    config.write_text(f'state_dir = "{tmp_path}/state"\n[camera]\nsource = "replay:{tmp_path}/frames"\n'
                      'deck = "nope"\n[board]\ndriver = "simulated"\n[voice]\nengine = "none"\n')
    done = muggins("run", "--config", config, "--frames", 2)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"the learned deck is not used: no learned deck 'nope' in {tmp_path}/state/decks" in done.stderr


def test_trust_names_learns_a_card_the_generic_reader_takes_for_another(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    write(photos, "8d.png", photo(np.random.default_rng(28), [C("7S")]))
    refused = muggins("deck", "learn", "home", photos, "--decks-dir", tmp_path / "decks")
    assert refused.returncode == 2 and "8d.png: not used: the card looks like 7S" in refused.stdout
    trusted = muggins("deck", "learn", "home", photos, "--decks-dir", tmp_path / "decks", "--trust-names")
    assert trusted.returncode == 0, trusted.stderr
    assert "8d.png: 8D" in trusted.stdout and "learned 1 card from 1 photo" in trusted.stdout
