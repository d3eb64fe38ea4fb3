"""The card size: measured by `muggins calibrate --card` from one card laid down, kept in the config,
and used by the recognizer."""

import subprocess
import sys

import cv2
import numpy as np
import pytest

from device.calibration import card_length, save_setting
from device.config import load_config
from device.errors import ConfigError, UsageError
from sim.render.scenes import make_scene
from vision.recognizer import Recognizer


def one_card_scene(seed: int, share: tuple[float, float]):
    rng = np.random.default_rng(seed)
    while True:
        scene = make_scene(rng, "separate", "penguins", card_share=share)
        faces = [t for t in scene.cards if t.card is not None]
        if len(faces) >= 2:
            return scene, faces


def only_the_first_card(scene, faces):
    """The scene with every card but the first painted over in the table's colour."""
    image = scene.image.copy()
    table = np.median(image[:8].reshape(-1, 3), axis=0)
    for t in faces[1:]:
        grown = t.quad.mean(axis=0) + 1.15 * (t.quad - t.quad.mean(axis=0))  # its shadow too
        cv2.fillConvexPoly(image, np.int32(np.round(grown)), tuple(float(v) for v in table))
    return image


@pytest.fixture(scope="module")
def recognizer():
    return Recognizer()


def truth_length(t) -> float:
    return float(np.linalg.norm(t.quad[3] - t.quad[0]))


def test_one_card_laid_down_is_measured(recognizer):
    scene, faces = one_card_scene(3, (0.2, 0.3))
    measured = card_length(only_the_first_card(scene, faces), recognizer)
    assert abs(measured / truth_length(faces[0]) - 1) < 0.05


def test_no_card_or_several_are_refused_saying_what_to_do(recognizer):
    scene, faces = one_card_scene(3, (0.2, 0.3))
    with pytest.raises(UsageError, match=f"sees {len(faces)} cards: lay one card"):
        card_length(scene.image, recognizer)
    empty = make_scene(np.random.default_rng(1), "empty", "penguins").image
    with pytest.raises(UsageError, match="sees no card"):
        card_length(empty, recognizer)


def test_the_setting_is_written_into_its_table_and_the_rest_kept(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text("# my table\n[camera]\nsource = \"usb:0\"\ncard_length = 100\n\n[voice]\nmute = true\n")
    save_setting(path, "camera", "card_length", 190)
    config = load_config(path)
    assert config.camera.card_length == 190 and config.camera.source == "usb:0" and config.voice.mute
    assert path.read_text().count("card_length") == 1 and "# my table" in path.read_text()
    bare = tmp_path / "bare.toml"
    bare.write_text("[voice]\nmute = true\n")
    save_setting(bare, "camera", "card_length", 250)
    assert load_config(bare).camera.card_length == 250 and load_config(bare).voice.mute


def test_a_card_length_that_is_no_length_is_a_config_error_naming_the_key(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text("[camera]\ncard_length = \"big\"\n")
    with pytest.raises(ConfigError, match="card_length"):
        load_config(path)
    assert load_config(None).camera.card_length is None


def test_cards_close_up_are_read_once_at_the_calibrated_size():
    rng = np.random.default_rng(21)
    for _ in range(3):
        scene = make_scene(rng, "separate", "xskat-french-large", card_share=(0.6, 0.75))
        faces = [t for t in scene.cards if t.card is not None and t.index_visible]
        found = Recognizer(card_length=float(np.median([truth_length(t) for t in faces]))).recognize(scene.image)
        assert sorted(str(r.card) for r in found) == sorted(str(t.card) for t in faces)


def test_calibrate_card_measures_a_replayed_frame_and_saves_it(tmp_path):
    scene, faces = one_card_scene(3, (0.2, 0.3))
    (tmp_path / "frames").mkdir()
    cv2.imwrite(str(tmp_path / "frames" / "0000.png"), only_the_first_card(scene, faces))
    cfg = tmp_path / "m.toml"
    cfg.write_text(f"[camera]\nsource = \"replay:{tmp_path}/frames\"\n")
    out = subprocess.run([sys.executable, "-m", "device.cli", "calibrate", "--config", str(cfg), "--card"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    saved = load_config(cfg).camera.card_length
    assert saved is not None and abs(saved / truth_length(faces[0]) - 1) < 0.05
    assert f"card_length = {round(saved)}" in out.stdout


def test_a_card_too_small_to_read_surely_is_named_with_the_resolution_that_would_do():
    from device.calibration import READABLE_CARD_LENGTH, small_card_advice

    assert small_card_advice(READABLE_CARD_LENGTH, 1280, 720) is None
    advice = small_card_advice(61, 1280, 720)
    assert "61 pixels" in advice and "resolution = [2560, 1440]" in advice and "closer" in advice
    advice = small_card_advice(100, 1280, 720)
    wide, high = (int(n) for n in advice.split("resolution = [")[1].split("]")[0].split(", "))
    assert wide % 2 == 0 and high % 2 == 0
    assert 100 * wide / 1280 >= READABLE_CARD_LENGTH and abs(wide / high - 1280 / 720) < 0.01
