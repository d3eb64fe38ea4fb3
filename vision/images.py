"""Reading the images people hand the device (photos, replayed frames, a deck file's crops) without
OpenCV's own decoder complaints on stderr: a broken file gets the project's one-line reason, not a
decoder's log line before it."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np


@contextmanager
def opencv_quiet() -> Iterator[None]:
    """OpenCV's logging silenced for the block (where this build of OpenCV lets it be set)."""
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is None:
        yield
        return
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        logging.setLogLevel(level)


def read_image(path: str | Path) -> np.ndarray | None:
    """The file's pixels as BGR, or None where OpenCV cannot decode it."""
    with opencv_quiet():
        try:
            return cv2.imread(str(path), cv2.IMREAD_COLOR)
        except cv2.error:
            return None


def decode_image(data: np.ndarray) -> np.ndarray | None:
    """Encoded bytes (PNG, JPEG) as BGR pixels, or None where OpenCV cannot decode them."""
    if not data.size:
        return None
    with opencv_quiet():
        try:
            return cv2.imdecode(data, cv2.IMREAD_COLOR)
        except cv2.error:
            return None
