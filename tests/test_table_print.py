"""The table's print: what the empty table shows that reads as a card, learnt by `muggins calibrate
--table` and read past in play, and never a card laid beside it or on it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from cribbage.cards import Card
from device.table_print import (ReadsPastPrint, TablePrint, TablePrintError, load_print, print_in_play,
                                save_print)
from vision.types import Recognition

ROOT = Path(__file__).resolve().parent.parent
W, H = 1280, 720


def read(card: str | None, x: float, y: float, length: float = 200.0) -> Recognition:
    """A read card (None: unread) centred at (x, y), upright, `length` pixels long."""
    half_w, half_h = 0.357 * length, 0.5 * length
    quad = np.float32([[x - half_w, y - half_h], [x + half_w, y - half_h], [x + half_w, y + half_h],
                       [x - half_w, y + half_h]])
    return Recognition(None if card is None else Card.parse(card), 0.999, quad)


FELT = TablePrint.from_recognitions([read("AS", 300, 200), read(None, 900, 500)], W, H)


def test_the_printed_card_read_again_is_hidden_and_a_card_laid_beside_it_is_not():
    assert FELT.hides(read("AS", 310, 190), W, H)             # the print, read a few pixels off
    assert not FELT.hides(read("AS", 300 + 150, 200), W, H)   # the same card laid beside the print
    assert not FELT.hides(read("AS", 600, 200), W, H)


def test_another_card_laid_on_the_print_is_seen():
    assert not FELT.hides(read("5H", 300, 200), W, H)
    assert not FELT.hides(read("5H", 900, 500), W, H)         # a card read on an outline left unread


def test_an_unread_outline_on_the_print_is_hidden_and_elsewhere_is_not():
    assert FELT.hides(read(None, 305, 205), W, H)
    assert FELT.hides(read(None, 900, 500), W, H)
    assert not FELT.hides(read(None, 600, 500), W, H)


def test_the_print_keeps_its_place_at_another_camera_resolution():
    big = (1920, 1080)
    assert FELT.hides(read("AS", 300 * 1.5, 200 * 1.5, 300.0), *big)
    assert not FELT.hides(read("AS", 300, 200, 300.0), *big)


def test_the_device_recognizer_drops_only_the_print():
    class Fixed:
        deck = "home"

        def recognize(self, image):
            return [read("AS", 300, 200), read("AS", 600, 200), read(None, 900, 500), read("7C", 100, 600)]

    reads = ReadsPastPrint(Fixed(), FELT)
    seen = reads.recognize(np.zeros((H, W, 3), np.uint8))
    assert [(str(r.card) if r.card else None, r.centre) for r in seen] == [("AS", (600.0, 200.0)),
                                                                            ("7C", (100.0, 600.0))]
    assert reads.deck == "home"   # the recognizer's own settings still show through


def test_saved_and_read_back(tmp_path):
    path = tmp_path / "state" / "table_print.json"
    assert load_print(path) is None   # never learnt
    save_print(path, FELT)
    again = load_print(path)
    assert again is not None and len(again.cards) == 2
    assert again.hides(read("AS", 300, 200), W, H) and again.hides(read(None, 900, 500), W, H)
    assert not again.hides(read("5H", 300, 200), W, H)


@pytest.mark.parametrize("text, says", [
    ("{not json", "is not JSON"),
    ("[1, 2]", "not a table print"),
    ('{"cards": [{"card": "ZZ", "centre": [0.1, 0.1], "length": 0.2}]}', "card 1 is not a card"),
    ('{"cards": [{"card": "AS", "centre": [3, 0.1], "length": 0.2}]}', "card 1 lies outside the frame"),
    ('{"cards": [{"card": "AS"}]}', "card 1 is not a card"),
])
def test_a_corrupt_print_file_is_told_and_cards_are_read_as_on_a_plain_table(tmp_path, text, says):
    path = tmp_path / "table_print.json"
    path.write_text(text)
    with pytest.raises(TablePrintError, match=says) as caught:
        load_print(path)
    assert "muggins calibrate --table" in str(caught.value) and str(path) in str(caught.value)
    told: list[str] = []
    assert print_in_play(path, told.append) is None
    assert len(told) == 1 and "as if the table were plain" in told[0]


def test_the_device_recognizer_reads_past_a_learnt_print_and_tells_of_a_broken_one(tmp_path):
    from device.config import CameraConfig
    from device.eyes import recognizer_for

    told: list[str] = []
    plain = recognizer_for(CameraConfig(), tmp_path, told.append, tmp_path / "none.json")
    assert not isinstance(plain, ReadsPastPrint) and told == []
    save_print(tmp_path / "table_print.json", FELT)
    assert isinstance(recognizer_for(CameraConfig(), tmp_path, told.append, tmp_path / "table_print.json"),
                      ReadsPastPrint)
    (tmp_path / "broken.json").write_text("{")
    assert not isinstance(recognizer_for(CameraConfig(), tmp_path, told.append, tmp_path / "broken.json"),
                          ReadsPastPrint)
    assert "reading past the table's print" in told[0] and "is not JSON" in told[1]


def printed_felt(seed: int = 3):
    """A rendered table of several lone cards (their faces stand for a felt's print), and the same
    table with every card but the first painted over in the table's colour."""
    from sim.render.scenes import make_scene

    rng = np.random.default_rng(seed)
    while True:
        scene = make_scene(rng, "separate", "penguins", card_share=(0.2, 0.3))
        faces = [t for t in scene.cards if t.card is not None]
        if len(faces) >= 3:
            break
    image = scene.image.copy()
    table = np.median(image[:8].reshape(-1, 3), axis=0)
    for t in faces[1:]:
        grown = t.quad.mean(axis=0) + 1.15 * (t.quad - t.quad.mean(axis=0))  # its shadow too
        cv2.fillConvexPoly(image, np.int32(np.round(grown)), tuple(float(v) for v in table))
    return scene.image, image, faces


@pytest.fixture(scope="module")
def recognizer():
    from vision.recognizer import Recognizer

    return Recognizer()


def test_a_felt_learnt_with_one_printed_card_hides_it_and_no_card_laid(recognizer):
    from device.calibration import table_print_of
    from device.config import Config

    whole, one_printed, faces = printed_felt()
    table_print, reads = table_print_of(Config(), one_printed, recognizer)
    assert [spot.card for spot in table_print.cards] == [faces[0].card] == [r.card for r in reads]
    height, width = whole.shape[:2]
    laid = {r.card for r in recognizer.recognize(whole)}
    seen = {r.card for r in ReadsPastPrint(recognizer, table_print).recognize(whole)}
    assert faces[0].card in laid and seen == laid - {faces[0].card}
    assert len(seen) >= 2


def test_calibrate_table_saves_the_print_and_says_what_it_holds(tmp_path):
    _, one_printed, faces = printed_felt()
    cv2.imwrite(str(tmp_path / "empty.png"), one_printed)
    cfg = tmp_path / "m.toml"
    cfg.write_text(f'state_dir = "{tmp_path}/state"\n[camera]\nsource = "replay:{tmp_path}/empty.png"\n')
    out = subprocess.run([sys.executable, "-m", "device.cli", "calibrate", "--config", str(cfg), "--table",
                          "--png", str(tmp_path / "print.png")], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"shows 1 thing the device reads as a card (the {faces[0].card.name})" in out.stdout
    saved = json.loads((tmp_path / "state" / "table_print.json").read_text())
    assert [c["card"] for c in saved["cards"]] == [str(faces[0].card)]
    assert (tmp_path / "print.png").stat().st_size > 10_000


def test_a_print_that_cannot_be_saved_is_one_clear_line(tmp_path):
    _, one_printed, _ = printed_felt()
    cv2.imwrite(str(tmp_path / "empty.png"), one_printed)
    (tmp_path / "state").write_text("a file where the state folder should be")
    cfg = tmp_path / "m.toml"
    cfg.write_text(f'state_dir = "{tmp_path}/state"\n[camera]\nsource = "replay:{tmp_path}/empty.png"\n')
    out = subprocess.run([sys.executable, "-m", "device.cli", "calibrate", "--config", str(cfg), "--table"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 2 and "cannot save the table's print" in out.stderr
    assert "Traceback" not in out.stderr


def test_the_demo_on_a_printed_mat_learns_its_print_and_still_reads_the_cards_laid(recognizer, tmp_path):
    from device.config import Config
    from sim.demo_game import _past_the_print
    from sim.frames import TablePainter
    from sim.table_script import TableStep
    from vision.zone_names import CENTRE, seat

    painter = TablePainter(1, printed=True)
    plain = TablePainter(1)
    empty = TableStep(zones=())
    assert {str(r.card) for r in recognizer.recognize(painter.draw(empty, 0))} == {"AS", "AH"}
    assert recognizer.recognize(plain.draw(empty, 0)) == []
    reads = _past_the_print(Config(state_dir=tmp_path), painter, recognizer, tmp_path, None)
    assert reads.recognize(painter.draw(empty, 0)) == [] and (tmp_path / "table_print.json").is_file()
    laid = TableStep(zones=((seat(0), tuple(Card.parse(c) for c in ("AS", "5D", "JC"))),
                            (CENTRE, (Card.parse("AH"),))))
    assert sorted(str(r.card) for r in reads.recognize(painter.draw(laid, 1))) == ["5D", "AH", "AS", "JC"]
