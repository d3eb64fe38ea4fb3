"""Frame sources: replay of files and arrays, OpenCV on a video file, the Pi camera behind a fake
picamera2, choosing a source from the config, and the resilient wrapper around a failing camera."""

import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import BackendMissingError, CameraError, VisionError
from vision.sources import (DARK_THRESHOLD, Frame, FrameSource, ResilientSource, ScriptedSource,
                            SourceConfigError,
                            SourceExhausted, describe_source, is_dark, mean_brightness,
                            open_resilient, open_source, parse_source_spec)
from vision.sources.base import as_bgr
from vision.sources.opencv import OpenCVSource
from vision.sources.replay import ReplaySource


def grey(level: int, w: int = 32, h: int = 24) -> np.ndarray:
    return np.full((h, w, 3), level, np.uint8)


def levels(frames) -> list[int]:
    return [int(round(f.image.mean())) for f in frames]


def write_video(path: Path, values, fps=12.0, size=(64, 48)) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, size)
    assert writer.isOpened()
    for v in values:
        writer.write(np.full((size[1], size[0], 3), v, np.uint8))
    writer.release()
    return path


# --- frames and brightness ---------------------------------------------------------------------

def test_brightness_weighs_green_most_like_the_eye():
    blue, green = np.zeros((10, 10, 3), np.uint8), np.zeros((10, 10, 3), np.uint8)
    blue[..., 0], green[..., 1] = 200, 200
    assert mean_brightness(green) > mean_brightness(blue)
    assert mean_brightness(grey(100)) == pytest.approx(100, abs=0.5)


def test_dark_frame_is_reported_as_dark():
    assert Frame(grey(10), 0, 0.0).dark
    assert not Frame(grey(120), 0, 0.0).dark
    assert is_dark(grey(int(DARK_THRESHOLD) - 1)) and not is_dark(grey(int(DARK_THRESHOLD) + 1))
    assert Frame(grey(50), 0, 0.0).is_dark(threshold=60)


def test_frame_size_is_width_then_height():
    assert Frame(grey(0, w=40, h=30), 0, 0.0).size == (40, 30)


def test_grey_and_bgra_become_bgr_and_other_arrays_are_refused():
    assert as_bgr(np.zeros((4, 5), np.uint8)).shape == (4, 5, 3)
    assert as_bgr(np.zeros((4, 5, 4), np.uint8)).shape == (4, 5, 3)
    with pytest.raises(VisionError, match="8-bit"):
        as_bgr(np.zeros((4, 5, 3), np.float32))
    with pytest.raises(VisionError, match="shape"):
        as_bgr(np.zeros((4, 5, 2), np.uint8))


# --- replay ------------------------------------------------------------------------------------

def test_replay_of_arrays_in_order_with_indices_and_rate_timestamps():
    with ReplaySource([grey(10), grey(20), grey(30)], fps=5) as source:
        frames = list(source)
    assert levels(frames) == [10, 20, 30]
    assert [f.index for f in frames] == [0, 1, 2]
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.2, 0.4])


def test_replay_ends_with_source_exhausted():
    source = ReplaySource([grey(1)])
    source.read()
    with pytest.raises(SourceExhausted):
        source.read()


def test_replay_loops_and_timestamps_keep_rising():
    source = ReplaySource([grey(10), grey(20)], loop=True, fps=10)
    frames = [source.read() for _ in range(5)]
    assert levels(frames) == [10, 20, 10, 20, 10]
    assert np.all(np.diff([f.timestamp for f in frames]) > 0)


def test_replay_converts_grey_arrays_to_bgr():
    frame = ReplaySource([np.full((6, 8), 77, np.uint8)]).read()
    assert frame.image.shape == (6, 8, 3) and frame.image.dtype == np.uint8


def test_replay_of_a_folder_goes_in_name_order_numbers_as_numbers(tmp_path):
    for n in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"frame{n}.png"), grey(n * 10))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = list(ReplaySource(tmp_path))
    assert levels(frames) == [10, 20, 100]


def test_replay_of_one_image_file(tmp_path):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), grey(42))
    assert levels(ReplaySource(str(path))) == [42]


def test_replay_of_a_video_file_uses_its_frame_rate(tmp_path):
    video = write_video(tmp_path / "game.avi", [0, 60, 120, 180], fps=12.0)
    frames = list(ReplaySource(video))
    assert len(frames) == 4
    assert levels(frames) == pytest.approx([0, 60, 120, 180], abs=4)
    assert frames[3].timestamp == pytest.approx(3 / 12.0)


def test_replay_of_a_video_can_loop(tmp_path):
    video = write_video(tmp_path / "game.avi", [0, 200])
    source = ReplaySource(video, loop=True)
    assert levels(source.read() for _ in range(4)) == pytest.approx([0, 200, 0, 200], abs=4)
    source.close()


def test_replay_with_pace_waits_for_each_frame_like_a_camera():
    now = [100.0]
    slept = []

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    source = ReplaySource([grey(0)] * 3, fps=4, pace=True, clock=lambda: now[0], sleep=sleep)
    list(source)
    assert slept == pytest.approx([0.25, 0.25])


def test_replay_without_pace_never_sleeps():
    def sleep(seconds):
        raise AssertionError("should not sleep")

    assert len(list(ReplaySource([grey(0)] * 3, sleep=sleep))) == 3


@pytest.mark.parametrize("make", [
    lambda tmp: tmp / "missing.png",
    lambda tmp: tmp / "missing-folder",
    lambda tmp: tmp,                                   # empty folder
])
def test_replay_of_nothing_says_so(tmp_path, make):
    with pytest.raises(CameraError, match="cannot replay"):
        ReplaySource(make(tmp_path))


def test_replay_of_a_file_that_is_no_video(tmp_path):
    path = tmp_path / "game.mp4"
    path.write_bytes(b"this is not a video")
    with pytest.raises(CameraError, match="cannot read video"):
        ReplaySource(path)


def test_replay_of_a_corrupt_image_says_which(tmp_path):
    (tmp_path / "a.png").write_bytes(b"not a png")
    with pytest.raises(CameraError, match="a.png"):
        ReplaySource(tmp_path).read()


def test_replay_rejects_a_non_positive_rate():
    with pytest.raises(VisionError, match="fps"):
        ReplaySource([grey(0)], fps=0)


def test_closing_twice_is_harmless_and_reading_after_close_is_an_error():
    source = ReplaySource([grey(0)] * 2)
    source.close()
    source.close()
    assert source.closed
    with pytest.raises(CameraError, match="closed"):
        source.read()


# --- OpenCV ------------------------------------------------------------------------------------

def test_opencv_source_reads_a_video_file_then_ends(tmp_path):
    video = write_video(tmp_path / "clip.avi", [30, 90, 150], fps=10.0)
    with OpenCVSource(str(video)) as source:
        assert not source.live
        frames = list(source)
    assert levels(frames) == pytest.approx([30, 90, 150], abs=4)
    assert [f.timestamp for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert source.closed


def test_opencv_source_on_a_missing_file_is_a_camera_error(tmp_path):
    with pytest.raises(CameraError, match="no such file"):
        OpenCVSource(str(tmp_path / "nope.avi"))


# --- the Pi camera, behind a fake picamera2 -------------------------------------------------------

class FakePicamera2:
    cameras = [{"Model": "imx708"}]
    controls_available = {"AfMode": (0, 2, 0)}
    made: list["FakePicamera2"] = []
    stall = False

    def __init__(self, camera_num=0):
        self.camera_num = camera_num
        self.calls = []
        self.camera_controls = dict(self.controls_available)
        FakePicamera2.made.append(self)

    @classmethod
    def global_camera_info(cls):
        return cls.cameras

    def create_video_configuration(self, main, controls=None):
        return {"main": main, "controls": controls}

    def configure(self, config):
        self.calls.append(("configure", config))

    def start(self):
        self.calls.append(("start",))

    def set_controls(self, controls):
        self.calls.append(("set_controls", controls))

    def capture_array(self, name="main", wait=None):
        assert wait is False
        return ("job", name)

    def wait(self, job, timeout=None):
        if self.stall:
            raise TimeoutError
        size = self.calls[0][1]["main"]["size"]
        return np.full((size[1], size[0], 3), 99, np.uint8)

    def stop(self):
        self.calls.append(("stop",))

    def close(self):
        self.calls.append(("close",))


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    monkeypatch.setitem(sys.modules, "libcamera", None)    # the enum falls back to its number
    FakePicamera2.made = []
    monkeypatch.setattr(FakePicamera2, "stall", False)
    return FakePicamera2


def test_picamera_missing_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(BackendMissingError, match=r"sudo apt install python3-picamera2"):
        open_source("picamera")


def test_picamera_is_configured_for_bgr_frames_and_continuous_autofocus(fake_picamera2):
    with open_source({"kind": "picamera", "size": [640, 480]}) as source:
        frame = source.read()
    camera = fake_picamera2.made[0]
    assert camera.calls[0] == ("configure", {"main": {"size": (640, 480), "format": "RGB888"}, "controls": {}})
    assert ("set_controls", {"AfMode": 2}) in camera.calls
    assert frame.image.shape == (480, 640, 3)
    assert camera.calls[-2:] == [("stop",), ("close",)]


def test_picamera_takes_size_and_rate_from_the_camera_config(fake_picamera2):
    open_source("picamera", size=(800, 600), fps=15).close()
    config = fake_picamera2.made[0].calls[0][1]
    assert config == {"main": {"size": (800, 600), "format": "RGB888"}, "controls": {"FrameRate": 15.0}}


def test_picamera_without_autofocus_is_not_asked_for_it(fake_picamera2, monkeypatch):
    monkeypatch.setattr(FakePicamera2, "controls_available", {})
    open_source("picamera").close()
    assert not any(call[0] == "set_controls" for call in fake_picamera2.made[0].calls)


def test_picamera_not_connected_is_a_camera_error(fake_picamera2, monkeypatch):
    monkeypatch.setattr(FakePicamera2, "cameras", [])
    with pytest.raises(CameraError, match="ribbon cable"):
        open_source("picamera")


def test_picamera_that_stalls_is_a_camera_error(fake_picamera2, monkeypatch):
    source = open_source("picamera")
    monkeypatch.setattr(FakePicamera2, "stall", True)
    with pytest.raises(CameraError, match="stopped delivering frames"):
        source.read()
    source.close()
    source.close()
    assert fake_picamera2.made[0].calls.count(("close",)) == 1


# --- choosing a source from the config ----------------------------------------------------------

def test_spec_strings_and_dicts():
    assert parse_source_spec("usb:2")["device"] == 2
    assert parse_source_spec("usb:/dev/video4")["device"] == "/dev/video4"
    assert parse_source_spec("usb")["device"] == 0
    assert parse_source_spec("picamera:1")["camera"] == 1
    replay = parse_source_spec({"kind": "replay", "path": "shots", "loop": True, "fps": 5})
    assert replay == {"kind": "replay", "path": "shots", "loop": True, "fps": 5.0, "pace": False}
    assert describe_source("usb:0") == "USB camera 0"


def test_size_and_rate_fill_in_what_the_spec_leaves_unset():
    usb = parse_source_spec("usb:1", size=(640, 480), fps=15)
    assert (usb["width"], usb["height"], usb["fps"]) == (640, 480, 15.0)
    usb = parse_source_spec({"kind": "usb", "width": 320}, size=(640, 480))
    assert (usb["width"], usb["height"]) == (320, 480)
    assert parse_source_spec("picamera", size=(800, 600))["size"] == (800, 600)
    assert parse_source_spec("replay:x.mp4", size=(800, 600), fps=15)["fps"] is None  # a replay keeps its own


@pytest.mark.parametrize("spec, message", [
    ("telescope", "unknown camera source"),
    ({"path": "x"}, "no 'kind'"),
    ({"kind": "usb", "colour": "blue"}, "no setting 'colour'"),
    ({"kind": "usb", "width": "wide"}, "bad setting"),
    ("replay", "needs a path"),
    (42, "must be text"),
])
def test_bad_specs_get_clear_messages(spec, message):
    with pytest.raises(SourceConfigError, match=message):
        parse_source_spec(spec)


def test_open_source_replays_a_folder(tmp_path):
    cv2.imwrite(str(tmp_path / "1.png"), grey(5))
    with open_source(f"replay:{tmp_path}") as source:
        assert levels(source) == [5]


# --- the resilient wrapper ----------------------------------------------------------------------

class FlakySource(FrameSource):
    """Delivers `good` frames of `level` brightness, then fails with `error`."""

    def __init__(self, good, error=None, level=100):
        super().__init__()
        self.name = "flaky camera"
        self.good, self.error, self.level, self.released = good, error, level, False

    def _next_image(self):
        if self.good <= 0:
            raise self.error or CameraError("flaky camera stopped delivering frames")
        self.good -= 1
        return grey(self.level), 1000.0 + self._index

    def _release(self):
        self.released = True


class Plan:
    """An opener that follows a script: a FrameSource to hand out, or an exception to raise."""

    def __init__(self, *steps):
        self.steps, self.opened = list(steps), []

    def __call__(self):
        step = self.steps.pop(0)
        if isinstance(step, BaseException):
            raise step
        self.opened.append(step)
        return step


def resilient(plan, **kw):
    notices, slept, now = [], [], [0.0]

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    source = ResilientSource(plan, name="the camera", on_notice=notices.append, delays=(1, 2, 4),
                             clock=lambda: now[0], sleep=sleep, **kw)
    return source, notices, slept


def test_missing_camera_is_reported_once_and_retried_with_backoff():
    missing = CameraError("cannot open USB camera 0: is it plugged in?")
    plan = Plan(missing, missing, missing, missing, FlakySource(good=2))
    source, notices, slept = resilient(plan)
    results = [source.read() for _ in range(5)]
    assert results[:4] == [None] * 4 and results[4] is not None
    assert source.ok and source.problem is None
    assert [n.kind for n in notices] == ["failed", "recovered"]
    assert "is it plugged in" in notices[0].message
    assert slept == [1, 2, 4, 4]            # no wait before the first try; the last delay repeats


def test_camera_that_stops_is_reopened_and_frames_stay_numbered():
    first, second = FlakySource(good=2), FlakySource(good=2)
    source, notices, _ = resilient(Plan(first, second))
    frames = [source.read() for _ in range(5)]
    assert frames[2] is None and first.released
    delivered = [f for f in frames if f is not None]
    assert [f.index for f in delivered] == [0, 1, 2, 3]
    assert [n.kind for n in notices] == ["failed", "recovered"]
    assert "stopped delivering frames" in notices[0].message


def test_a_different_failure_is_reported_again():
    plan = Plan(CameraError("no camera"), CameraError("no camera"), CameraError("camera busy"))
    source, notices, _ = resilient(plan)
    for _ in range(3):
        assert source.read() is None
    assert [n.message for n in notices] == ["no camera; trying again", "camera busy; trying again"]
    assert source.problem == "camera busy"


def test_unexpected_errors_do_not_reach_the_caller():
    source, notices, _ = resilient(Plan(RuntimeError("driver exploded"), FlakySource(good=1)))
    assert source.read() is None
    assert "RuntimeError: driver exploded" in notices[0].message
    assert source.read() is not None


def test_missing_backend_is_raised_not_retried():
    source, _, _ = resilient(Plan(BackendMissingError("picamera2 is not installed")))
    with pytest.raises(BackendMissingError):
        source.read()


def test_end_of_a_replay_ends_the_stream():
    source, notices, _ = resilient(lambda: ReplaySource([grey(90), grey(90)]))
    assert len(list(source.frames())) == 2
    assert notices == []


def test_dark_and_light_again_are_each_reported_once():
    frames = [grey(v) for v in (120, 10, 10, 12, 130, 140)]
    source, notices, _ = resilient(lambda: ReplaySource(frames))
    delivered = list(source)
    assert [f.dark for f in delivered] == [False, True, True, True, False, False]
    assert [n.kind for n in notices] == ["dark", "lit"]
    assert "too dark to see the cards" in notices[0].message


def test_scripted_source_delivers_and_fails_in_order():
    source = ScriptedSource([grey(10), CameraError("gone"), grey(20)], fps=2)
    assert source.read().image.mean() == 10
    with pytest.raises(CameraError, match="gone"):
        source.read()
    frame = source.read()
    assert (frame.index, frame.timestamp) == (1, 0.5)
    with pytest.raises(SourceExhausted):
        source.read()


def test_a_camera_dying_mid_stream_behind_the_resilient_wrapper():
    dying = ScriptedSource([grey(90), grey(90), CameraError("USB camera 0 stopped delivering frames")])
    source, notices, _ = resilient(Plan(dying, ScriptedSource([grey(90)])))
    results = [source.read() for _ in range(4)]
    assert [r is not None for r in results] == [True, True, False, True]
    assert dying.released
    assert [n.kind for n in notices] == ["failed", "recovered"]


def test_close_releases_the_camera_and_twice_is_harmless():
    inner = FlakySource(good=5)
    source, _, _ = resilient(Plan(inner))
    with source:
        source.read()
    source.close()
    assert inner.released
    with pytest.raises(CameraError, match="closed"):
        source.read()


def test_open_resilient_rejects_a_bad_spec_at_once_and_names_the_camera(tmp_path):
    with pytest.raises(SourceConfigError):
        open_resilient("telescope")
    cv2.imwrite(str(tmp_path / "1.png"), grey(80))
    source = open_resilient(f"replay:{tmp_path}")
    assert source.name == f"replay of {tmp_path}"
    assert levels(source) == [80]
