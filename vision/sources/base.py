"""The frame-source interface every camera backend and replay implements, and the Frame it delivers.

The controller and the recognizer only ever see `FrameSource.read() -> Frame`, so a Pi camera,
a USB webcam, a folder of photos or a list of arrays in a test are interchangeable.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator

import cv2
import numpy as np

from vision.errors import CameraError, VisionError

#: Mean brightness (0..255 luma) below which a frame is called too dark to see cards.
#: Cameras expose for mid-grey, so only a frame the exposure cannot rescue falls this low.
DARK_THRESHOLD = 30.0


class SourceExhausted(VisionError, EOFError):
    """A replay (file, folder, video, list) has no more frames. Not a fault: the stream simply ended."""


def mean_brightness(image: np.ndarray) -> float:
    """Mean luma (0..255) of a BGR or grey image, from a sparse grid of pixels: cheap on a Pi."""
    step = max(1, min(image.shape[0], image.shape[1]) // 120)
    sample = image[::step, ::step].astype(np.float32)
    if sample.ndim == 2:
        return float(sample.mean())
    b, g, r = sample[..., 0], sample[..., 1], sample[..., 2]
    return float((0.114 * b + 0.587 * g + 0.299 * r).mean())


def is_dark(image: np.ndarray, threshold: float = DARK_THRESHOLD) -> bool:
    """True when the frame is too dark to see the cards (mean brightness below threshold)."""
    return mean_brightness(image) < threshold


def as_bgr(image: np.ndarray, where: str = "frame") -> np.ndarray:
    """The image as a 3-channel BGR uint8 array (grey and BGRA are converted); anything else is refused."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        kind = image.dtype if isinstance(image, np.ndarray) else type(image).__name__
        raise VisionError(f"{where}: expected an 8-bit image array, got {kind}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    raise VisionError(f"{where}: expected a grey, BGR or BGRA image, got shape {image.shape}")


@dataclass(frozen=True, eq=False)
class Frame:
    """One picture from a source.

    image: BGR uint8, height x width x 3.
    index: 0, 1, 2, ... in the order the source delivered them.
    timestamp: seconds; time.monotonic() for a live camera, index / frame rate for a replay.
    """

    image: np.ndarray = field(repr=False)
    index: int
    timestamp: float

    @cached_property
    def brightness(self) -> float:
        """Mean luma 0..255 (computed once)."""
        return mean_brightness(self.image)

    @property
    def dark(self) -> bool:
        """Too dark to see the cards, by the default threshold."""
        return self.brightness < DARK_THRESHOLD

    def is_dark(self, threshold: float = DARK_THRESHOLD) -> bool:
        """Too dark to see the cards, by a threshold of your choosing."""
        return self.brightness < threshold

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.image.shape[1]), int(self.image.shape[0])


class FrameSource(ABC):
    """Something that delivers frames: `read()` one at a time, or iterate until a replay ends.

    Use it as a context manager; `close()` releases the device and is harmless when repeated.
    Backends implement `_next_image()` and `_release()`; numbering, BGR conversion and the
    closed check live here once.
    """

    #: How the source is named in messages ("USB camera 0", "replay of table.mp4").
    name: str = "frame source"

    def __init__(self) -> None:
        self._closed = False
        self._index = 0

    @abstractmethod
    def _next_image(self) -> tuple[np.ndarray, float | None]:
        """The next image and its timestamp (None: stamp it with time.monotonic()).

        Raise CameraError when the device fails, SourceExhausted when a replay has ended."""

    def _release(self) -> None:
        """Free the device; called once by close()."""

    def read(self) -> Frame:
        """The next frame; CameraError if the camera fails, SourceExhausted at the end of a replay."""
        if self._closed:
            raise CameraError(f"{self.name} is closed")
        image, timestamp = self._next_image()
        image = as_bgr(image, self.name)
        frame = Frame(image, self._index, time.monotonic() if timestamp is None else float(timestamp))
        self._index += 1
        return frame

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release the camera or file; closing twice does nothing."""
        if not self._closed:
            self._closed = True
            self._release()

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        """Frames until the source ends (a replay) or fails (CameraError propagates)."""
        while True:
            try:
                yield self.read()
            except SourceExhausted:
                return

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"{self._index} frames read"
        return f"<{type(self).__name__} {self.name!r}, {state}>"
