"""A broken image file gets the project's own one-line reason, with no decoder log line from OpenCV
before it on stderr."""

import base64

import cv2
import numpy as np
import pytest

from vision.images import decode_image, read_image

BROKEN_PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 40  # a PNG signature and no valid header after it


def test_a_broken_file_reads_as_nothing_and_opencv_says_nothing(tmp_path, capfd):
    path = tmp_path / "qs.png"
    path.write_bytes(BROKEN_PNG)
    assert read_image(path) is None
    assert decode_image(np.frombuffer(BROKEN_PNG, np.uint8)) is None
    assert decode_image(np.zeros(0, np.uint8)) is None
    assert capfd.readouterr().err == ""


def test_a_good_file_reads_as_its_pixels(tmp_path):
    picture = np.arange(12 * 10 * 3, dtype=np.uint8).reshape(12, 10, 3)
    path = tmp_path / "5c.png"
    cv2.imwrite(str(path), picture)
    assert np.array_equal(read_image(path), picture)
    assert np.array_equal(decode_image(np.frombuffer(path.read_bytes(), np.uint8)), picture)


def test_opencvs_own_logging_is_as_it_was_afterwards(tmp_path):
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is None:
        pytest.skip("this OpenCV build does not let its logging be set")
    before = logging.getLogLevel()
    read_image(tmp_path / "missing.png")
    assert logging.getLogLevel() == before


def test_recognize_says_only_its_own_line_for_a_broken_photo(tmp_path, capfd):
    from device.cli import main

    path = tmp_path / "qs.png"
    path.write_bytes(BROKEN_PNG)
    assert main(["recognize", str(path)]) == 2
    err = capfd.readouterr().err
    assert err.strip() == f"muggins recognize: error: {path}: not an image OpenCV can read"


def test_a_deck_files_crop_that_is_no_png_is_refused_quietly(capfd):
    from vision.learned_deck import DeckError, decode_crop

    with pytest.raises(DeckError, match="a crop that is no PNG"):
        decode_crop(base64.b64encode(BROKEN_PNG).decode("ascii"), "deck 'home', card 5C")
    assert capfd.readouterr().err == ""
