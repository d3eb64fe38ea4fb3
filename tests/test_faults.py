"""A fault inside the recognizer costs one picture and is told, in every command that reads pictures."""

import cv2
import numpy as np
import pytest

from device.errors import UsageError
from vision.errors import RecognitionFault, VisionError
from vision.faults import recognize_picture

DARK = np.full((90, 120, 3), 30, np.uint8)
LIGHT = np.full((90, 120, 3), 200, np.uint8)


class FaultOnLight:
    """Reads nothing in a dark picture and fails, as a bug would, on a light one."""

    def __init__(self, *args, **kwargs):
        pass

    def recognize(self, image):
        if image.mean() > 100:
            return [][1]
        return []


class UserTrouble:
    def recognize(self, image):
        raise VisionError("the model file is missing")


def test_a_fault_becomes_a_recognition_fault_naming_the_fault_and_its_place():
    with pytest.raises(RecognitionFault) as caught:
        recognize_picture(FaultOnLight(), LIGHT)
    message = str(caught.value)
    assert "IndexError" in message and "test_faults.py:" in message and "please report this as a bug" in message
    assert recognize_picture(FaultOnLight(), DARK) == []


def test_the_recognizers_own_errors_pass_unchanged():
    with pytest.raises(VisionError, match="the model file is missing") as caught:
        recognize_picture(UserTrouble(), LIGHT)
    assert not isinstance(caught.value, RecognitionFault)


def test_recognize_tells_the_picture_it_failed_on_and_reads_the_rest(tmp_path, monkeypatch, capsys):
    import vision.recognizer
    from device.cli import main

    monkeypatch.setattr(vision.recognizer, "Recognizer", FaultOnLight)
    light, dark = tmp_path / "light.png", tmp_path / "dark.png"
    cv2.imwrite(str(light), LIGHT)
    cv2.imwrite(str(dark), DARK)
    assert main(["recognize", str(light), str(dark)]) == 2
    out, err = capsys.readouterr()
    assert f"{light}: the picture could not be read (IndexError" in err and "Traceback" not in err
    assert out.startswith(f"{dark}: no cards")


def test_learning_a_deck_refuses_the_photo_it_failed_on_and_goes_on(tmp_path):
    from vision.deck_learning import learn_folder

    cv2.imwrite(str(tmp_path / "5C.png"), LIGHT)
    cv2.imwrite(str(tmp_path / "6C.png"), DARK)
    deck, report = learn_folder("home", tmp_path, FaultOnLight())
    reasons = dict(report.refused)
    assert set(reasons) == {"5C.png", "6C.png"}
    assert "could not be read (IndexError" in reasons["5C.png"] and "please report" in reasons["5C.png"]
    assert reasons["6C.png"] == "no card found"


def test_measuring_a_card_says_the_picture_could_not_be_read_so_it_can_be_tried_again():
    from device.calibration import card_length

    with pytest.raises(UsageError, match=r"could not be read \(IndexError"):
        card_length(LIGHT, FaultOnLight())
