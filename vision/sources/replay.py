"""Replay of recorded frames: one image, a folder of images, a video file, or arrays in memory.

Replays feed the demo, `muggins recognize` and the tests exactly as a camera would. Timestamps come
from the frame rate (index / fps), so a replay is reproducible however fast it runs.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Callable, Iterator, Sequence

import cv2
import numpy as np

from vision.errors import CameraError, VisionError
from vision.images import read_image

from .base import FrameSource, SourceExhausted, as_bgr

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})

#: Frame rate assumed for images and arrays when none is given.
DEFAULT_FPS = 10.0


def natural_key(path: Path) -> list:
    """Sort key that puts frame2.png before frame10.png."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path.name)]


def image_files(folder: Path) -> list[Path]:
    """The image files in a folder, in name order (numbers compared as numbers)."""
    return sorted((p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES),
                  key=natural_key)


def _read_image(path: Path) -> np.ndarray:
    image = read_image(path)
    if image is None:
        raise CameraError(f"cannot read image {path}: not an image OpenCV can decode")
    return image


def _video_frames(path: Path) -> Iterator[np.ndarray]:
    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise CameraError(f"cannot read video {path}: OpenCV cannot decode this file")
        while True:
            ok, image = capture.read()
            if not ok or image is None:
                return
            yield image
    finally:
        capture.release()


def _video_fps(path: Path) -> float | None:
    """The video's own frame rate (None if it does not say); CameraError if OpenCV cannot open it."""
    capture = cv2.VideoCapture(str(path))
    try:
        if not capture.isOpened():
            raise CameraError(f"cannot read video {path}: OpenCV cannot decode this file")
        fps = capture.get(cv2.CAP_PROP_FPS)
    finally:
        capture.release()
    return float(fps) if fps and fps > 0 else None


class ReplaySource(FrameSource):
    """Frames from files or memory, as fast as asked for.

    frames: a path to an image, a folder of images (name order) or a video file; or a sequence
            of images (BGR, grey or BGRA uint8 arrays).
    loop:   start again at the end instead of raising SourceExhausted.
    fps:    frame rate for timestamps; default the video's own, else 10.
    pace:   sleep so frames come at that rate, like a camera; default as fast as possible.
    clock, sleep: stand-ins for time.monotonic and time.sleep (tests).
    """

    def __init__(self, frames: str | Path | Sequence[np.ndarray], *, loop: bool = False,
                 fps: float | None = None, pace: bool = False,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__()
        self.loop, self.pace = loop, pace
        self._clock, self._sleep = clock, sleep
        native_fps = None
        if isinstance(frames, (str, Path)):
            path = Path(frames)
            self.name = f"replay of {path.name or path}"
            self._reel = self._path_reel(path)
            if path.is_file() and path.suffix.lower() not in IMAGE_SUFFIXES:
                native_fps = _video_fps(path)
        else:
            images = [as_bgr(image, f"replay frame {i}") for i, image in enumerate(frames)]
            self.name = f"replay of {len(images)} frames"
            self._reel = lambda: iter(images)
        if fps is not None and not fps > 0:
            raise VisionError(f"{self.name}: fps must be positive, got {fps}")
        self.fps = float(fps or native_fps or DEFAULT_FPS)
        self._frames = self._reel()
        self._start: float | None = None

    def _path_reel(self, path: Path) -> Callable[[], Iterator[np.ndarray]]:
        if path.is_dir():
            files = image_files(path)
            if not files:
                raise CameraError(f"cannot replay {path}: the folder holds no images "
                                  f"({', '.join(sorted(IMAGE_SUFFIXES))})")
            return lambda: (_read_image(f) for f in files)
        if not path.is_file():
            raise CameraError(f"cannot replay {path}: no such file or folder")
        if path.suffix.lower() in IMAGE_SUFFIXES:
            return lambda: iter([_read_image(path)])
        return lambda: _video_frames(path)

    def _next_image(self) -> tuple[np.ndarray, float | None]:
        image = next(self._frames, None)
        if image is None and self.loop:
            self._frames = self._reel()
            image = next(self._frames, None)
            if image is None:
                raise SourceExhausted(f"{self.name} holds no frames")
        if image is None:
            raise SourceExhausted(f"{self.name} has ended")
        timestamp = self._index / self.fps
        if self.pace:
            if self._start is None:
                self._start = self._clock() - timestamp
            wait = self._start + timestamp - self._clock()
            if wait > 0:
                self._sleep(wait)
        return image, timestamp

    def _release(self) -> None:
        close = getattr(self._frames, "close", None)
        if close is not None:
            close()
