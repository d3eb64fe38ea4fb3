"""`muggins calibrate --deck NAME`: the players' deck learned from the camera, suit by suit (device.calibration's
suit_row and learn_deck_by_suits): thirteen cards in a row, ace to king from left to right, or asked again."""

import subprocess
import sys

import cv2
import numpy as np
import pytest

from cribbage.cards import Card
from device.errors import UsageError
from tests.deck_photos import photo
from vision.learned_deck import load_deck

C = Card.parse


def row_of(rng, cards):
    return photo(rng, cards, size=(1920, 480), height=0.27)


def suit(letter):
    return [Card(rank, letter) for rank in range(1, 14)]


@pytest.fixture(scope="module")
def recognizer():
    from vision.recognizer import Recognizer

    return Recognizer()


@pytest.fixture(scope="module")
def rows():
    rng = np.random.default_rng(40)
    clubs = suit("C")
    swapped = clubs[:1] + [clubs[2], clubs[1]] + clubs[3:]
    return {"C": row_of(rng, clubs), "D": row_of(rng, suit("D")), "H": row_of(rng, suit("H")),
            "S": row_of(rng, suit("S")), "twelve": row_of(rng, clubs[:12]), "swapped": row_of(rng, swapped)}


def test_a_suit_in_a_row_is_learned_ace_to_king(recognizer, rows):
    from device.calibration import suit_row

    learned = suit_row(recognizer, rows["C"], "C")
    assert sorted(learned, key=lambda c: c.rank) == suit("C")
    assert all(crops for crops in learned.values())


def test_a_row_not_of_thirteen_or_out_of_order_is_refused_saying_why(recognizer, rows):
    from device.calibration import suit_row

    with pytest.raises(UsageError, match="I see 12 cards, not thirteen: lay the thirteen clubs"):
        suit_row(recognizer, rows["twelve"], "C")
    with pytest.raises(UsageError, match="card 2 from the left should be the two of clubs, but the card looks like 3C"):
        suit_row(recognizer, rows["swapped"], "C")


def test_learning_by_suits_says_what_it_sees_and_asks_again(recognizer, rows):
    from device.calibration import learn_deck_by_suits

    frames = iter([rows["twelve"], rows["C"], rows["D"]])
    said, asked = [], []
    deck = learn_deck_by_suits("home", recognizer, lambda: next(frames), lambda q: asked.append(q) or True,
                               said.append, suits="CD")
    assert set(deck.cards) == set(suit("C") + suit("D"))
    assert said[0].startswith("Lay the thirteen clubs") and said[1].startswith("I see 12 cards")
    assert said[2] == "I see thirteen cards: the clubs are learned." and said[3].startswith("Lay the thirteen diamonds")
    assert len(asked) == 3
    assert learn_deck_by_suits("home", recognizer, lambda: rows["C"], lambda q: False, said.append) is None


def calibrate(tmp_path, rows, keys, typed):
    """`muggins calibrate --deck home` with a camera replaying these rows, and these lines typed."""
    frames = tmp_path / "frames"
    frames.mkdir()
    for n, key in enumerate(keys):
        cv2.imwrite(str(frames / f"{n}.png"), rows[key])
    config = tmp_path / "muggins.toml"
    config.write_text(f'state_dir = "{tmp_path / "state"}"\n[camera]\nsource = "replay:{frames}"\n'
                      '[voice]\nengine = "none"\n')
    return subprocess.run([sys.executable, "-m", "device.cli", "calibrate", "--config", str(config), "--deck", "home"],
                          input=typed, capture_output=True, text=True)


def test_calibrate_learns_a_deck_from_the_camera_and_saves_it(rows, tmp_path):
    done = calibrate(tmp_path, rows, ("twelve", "C", "D", "H", "S"), "\n" * 5)
    assert done.returncode == 0, done.stderr
    assert "I see 12 cards" in done.stdout and "the spades are learned" in done.stdout
    assert "learned 52 cards" in done.stdout and 'deck = "home"' in done.stdout
    assert len(load_deck(tmp_path / "state" / "decks", "home").cards) == 52


def test_calibrate_stopped_saves_nothing(rows, tmp_path):
    done = calibrate(tmp_path, rows, ("C", "D"), "\n\nq\n")
    assert done.returncode == 1 and "stopped: no deck saved" in done.stdout  # stopped at hearts
    assert "the diamonds are learned" in done.stdout
    assert not (tmp_path / "state" / "decks").exists()


def test_the_button_panel_goes_on_and_stops_a_calibration(recognizer, rows, mock_factory):
    """Go (or the dial's press) looks at the table, Dispute stops: no keyboard or screen needed."""
    from device.calibration import learn_deck_by_suits, panel_answer
    from device.config import PanelConfig
    from device.panel import Panel

    config = PanelConfig(encoder_a=17, encoder_b=27, encoder_button=22, muggins=(5, 6), dispute=16, go=(23, 24),
                         bounce_s=0, repeat_s=0)
    with Panel(config) as panel:
        for pin in (23, 5, 22, 16):  # Go, a Muggins button (ignored), the dial's press, Dispute
            mock_factory.pin(pin).drive_low()
            mock_factory.pin(pin).drive_high()
        frames = iter([rows["C"], rows["D"]])
        said = []
        deck = learn_deck_by_suits("home", recognizer, lambda: next(frames), lambda q: panel_answer(panel), said.append)
    assert deck is None  # stopped at hearts, by Dispute
    assert "I see thirteen cards: the clubs are learned." in said and "I see thirteen cards: the diamonds are learned." in said
