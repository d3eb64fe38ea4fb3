"""`muggins recognize`: docs/DESIGN.md's JSON contract, --overlay, and bad files reported without a traceback."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from cribbage.cards import Card
from sim.render.decks import HELD_OUT_DECKS
from sim.render.scenes import make_scene


def muggins(*args):
    return subprocess.run([sys.executable, "-m", "device.cli", *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def frames(tmp_path_factory):
    """Two seeded table photographs of held-out decks, with the cards on each."""
    folder = tmp_path_factory.mktemp("frames")
    rng = np.random.default_rng(11)
    out = []
    for i, deck in enumerate(HELD_OUT_DECKS[:2]):
        scene = make_scene(rng, "separate", deck)
        path = folder / f"table{i}.jpg"
        cv2.imwrite(str(path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        out.append((path, {t.card for t in scene.cards if t.card is not None}))
    return out


def test_json_lines_follow_the_contract(frames):
    done = muggins("recognize", "--json", *[p for p, _ in frames])
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == len(frames)
    for line, (path, cards) in zip(lines, frames):
        assert set(line) == {"file", "cards", "ms"}
        assert line["file"] == str(path) and line["ms"] >= 0
        assert line["cards"], "cards were on the table"
        for entry in line["cards"]:
            assert set(entry) == {"card", "confidence", "quad"}
            assert 0.0 <= entry["confidence"] <= 1.0
            assert len(entry["quad"]) == 4 and all(len(pt) == 2 for pt in entry["quad"])
            if entry["card"] is not None:
                assert Card.parse(entry["card"]) in cards
        read = {Card.parse(e["card"]) for e in line["cards"] if e["card"]}
        assert len(read) >= len(cards) - 1


def test_human_output_names_the_file_and_the_cards(frames):
    path, cards = frames[0]
    done = muggins("recognize", path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{path}: ")
    assert any(str(card) in done.stdout for card in cards)


def test_overlay_writes_an_annotated_copy_of_each_image(frames, tmp_path):
    out = tmp_path / "overlays"
    done = muggins("recognize", "--json", "--overlay", out, *[p for p, _ in frames])
    assert done.returncode == 0, done.stderr
    written = sorted(out.iterdir())
    assert len(written) == len(frames)
    for (path, _), overlay in zip(frames, written):
        original, drawn = cv2.imread(str(path)), cv2.imread(str(overlay))
        assert drawn.shape == original.shape
        assert np.abs(drawn.astype(int) - original).sum() > 0


def test_bad_files_get_a_line_each_the_rest_are_read_and_the_status_is_2(frames, tmp_path):
    not_an_image = tmp_path / "notes.png"
    not_an_image.write_text("these are not pixels")
    missing = tmp_path / "missing.jpg"
    good = frames[0][0]
    done = muggins("recognize", "--json", missing, good, not_an_image)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    errors = done.stderr.strip().splitlines()
    assert len(errors) == 2
    assert str(missing) in errors[0] and "no such file" in errors[0]
    assert str(not_an_image) in errors[1]
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [str(good)]


def test_a_missing_model_is_one_clear_line(frames, tmp_path):
    done = muggins("recognize", "--model", tmp_path / "nowhere.onnx", frames[0][0])
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "make model" in done.stderr
