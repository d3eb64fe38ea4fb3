"""The device's eyes: a frame the recognizer fails on is skipped and told, and the game goes on."""

import numpy as np

from device.eyes import TELL_SKIPPED_EVERY, Eyes
from vision.zones import default_zones

FRAME = np.full((120, 160, 3), 128, np.uint8)


class FailingRecognizer:
    """Fails on the frames numbered in `fail` (from 0), reads nothing on the others."""

    def __init__(self, fail):
        self.fail, self.calls = set(fail), 0

    def recognize(self, image):
        self.calls += 1
        if self.calls - 1 in self.fail:
            return 1 / 0
        return []


def test_a_frame_the_recognizer_fails_on_is_skipped_and_told_with_the_fault_and_its_place():
    told = []
    eyes = Eyes(FailingRecognizer({0}), default_zones(160, 120), tell=told.append)
    look = eyes.look(FRAME, 0.0)
    assert look.changes == () and not look.dark
    assert len(told) == 1 and "ZeroDivisionError" in told[0] and "test_eyes.py:" in told[0]
    assert "skipped (1 so far)" in told[0]
    eyes.look(FRAME, 0.1)  # the next frame is read as usual
    assert eyes.recognizer.calls == 2 and eyes.frames == 1 and len(told) == 1


def test_a_recognizer_failing_on_every_frame_is_told_once_and_then_every_hundredth_frame():
    told = []
    eyes = Eyes(FailingRecognizer(range(10_000)), default_zones(160, 120), tell=told.append)
    for k in range(2 * TELL_SKIPPED_EVERY):
        eyes.look(FRAME, k * 0.1)
    assert [m.split("(")[-1] for m in told] == ["1 so far). Please report this as a bug.",
                                                f"{TELL_SKIPPED_EVERY} so far). Please report this as a bug.",
                                                f"{2 * TELL_SKIPPED_EVERY} so far). Please report this as a bug."]
