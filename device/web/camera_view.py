"""The camera's view for the set-up page: the latest frame and the cards last read in it.

The frame loop hands over each frame it reads and each recognition it makes (a reference, nothing
copied or encoded in its thread); the server encodes a JPEG only when a phone asks, a few times a
second at most, in its own thread.
"""

from __future__ import annotations

import threading
import time

JPEG_QUALITY = 70
MAX_WIDTH = 960


class CameraView:
    """The latest camera image and the cards recognised in it; thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self._image = None
        self._cards: list = []
        self._at = 0.0

    def saw(self, image) -> None:
        with self._lock:
            self._image, self._at = image, time.monotonic()

    def read_cards(self, cards) -> None:
        with self._lock:
            self._cards = list(cards)

    @property
    def image(self):
        with self._lock:
            return self._image

    def jpeg(self) -> tuple[bytes, int, int] | None:
        """(JPEG bytes, width, height) of the latest image, shrunk to MAX_WIDTH; None before the first."""
        import cv2

        image = self.image
        if image is None:
            return None
        height, width = image.shape[:2]
        if width > MAX_WIDTH:
            image = cv2.resize(image, (MAX_WIDTH, round(height * MAX_WIDTH / width)),
                               interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        return (data.tobytes(), width, height) if ok else None

    def cards(self) -> list[dict]:
        """The cards read in the latest recognised frame: name (or None) and outline, in camera pixels."""
        with self._lock:
            cards = list(self._cards)
        out = []
        for c in cards:
            name = getattr(c, "card", None)
            out.append({"card": None if name is None else str(name),
                        "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in getattr(c, "quad", [])]})
        return out


class WatchedSource:
    """A camera (FrameReader) whose frames are also handed to a CameraView."""

    def __init__(self, source, view: CameraView):
        self.source, self.view = source, view

    def read(self):
        frame = self.source.read()
        if frame is not None:
            self.view.saw(frame.image)
        return frame

    def close(self) -> None:
        if hasattr(self.source, "close"):
            self.source.close()

    def __getattr__(self, name):  # anything else asked of the camera
        return getattr(self.source, name)


class WatchedRecognizer:
    """A recognizer (CardReader) whose readings are also handed to a CameraView.

    `alone(image)` reads a picture for the set-up page (measuring a card) in the server's thread, never
    at the same time as the frame loop's reading: the recognizer's state is not shared between threads."""

    def __init__(self, recognizer, view: CameraView):
        self.recognizer, self.view = recognizer, view
        self._lock = threading.Lock()

    def recognize(self, image):
        with self._lock:
            cards = self.recognizer.recognize(image)
        self.view.read_cards(cards)
        return cards

    def alone(self, image):
        with self._lock:
            return self.recognizer.recognize(image)

    def turn(self):
        """Held (`with watched.turn():`) while other recognition work runs in the server's thread, so
        it never runs at the same time as the frame loop's reading (learning a deck's suit)."""
        return self._lock

    def __getattr__(self, name):  # anything else the device asks of the recognizer
        return getattr(self.recognizer, name)
