"""A USB webcam (or any device or file OpenCV's VideoCapture can open) as a frame source."""

from __future__ import annotations

import os

import cv2
import numpy as np

from vision.errors import CameraError

from .base import FrameSource, SourceExhausted


def _is_live(device: int | str) -> bool:
    return isinstance(device, int) or str(device).startswith("/dev/")


class OpenCVSource(FrameSource):
    """Frames from cv2.VideoCapture: a device index (0 = first webcam), a /dev/video path, or a video file.

    A live camera that cannot be opened, or whose read fails, raises CameraError with a hint;
    a video file raises SourceExhausted at its end and stamps frames by its own frame rate.
    width/height/fps are requests to the camera driver, which may pick the nearest it supports.
    """

    def __init__(self, device: int | str = 0, *, width: int | None = None, height: int | None = None,
                 fps: float | None = None) -> None:
        super().__init__()
        self.device = device
        self.live = _is_live(device)
        self.name = f"USB camera {device}" if self.live else f"video {os.path.basename(str(device))}"
        if not self.live and not os.path.isfile(str(device)):
            raise CameraError(f"cannot open {self.name}: no such file {device}")
        self._capture = cv2.VideoCapture(device)
        if not self._capture.isOpened():
            self._capture.release()
            hint = ("is it plugged in, and not in use by another program? `ls /dev/video*` lists cameras"
                    if self.live else "OpenCV cannot decode this file")
            raise CameraError(f"cannot open {self.name}: {hint}")
        if width:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        if fps:
            self._capture.set(cv2.CAP_PROP_FPS, fps)
        reported = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = float(reported) if reported and reported > 0 else 30.0

    def _next_image(self) -> tuple[np.ndarray, float | None]:
        try:
            ok, image = self._capture.read()
        except cv2.error as exc:
            raise CameraError(f"{self.name} failed: {exc}") from exc
        if not ok or image is None:
            if self.live:
                raise CameraError(f"{self.name} stopped delivering frames: check its cable")
            raise SourceExhausted(f"{self.name} has ended")
        return image, (None if self.live else self._index / self.fps)

    def _release(self) -> None:
        self._capture.release()
