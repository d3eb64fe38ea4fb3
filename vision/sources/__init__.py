"""Frame sources: where pictures of the table come from, chosen by the config.

    open_source("picamera")              # Raspberry Pi camera (picamera2, imported only now)
    open_source("usb:0")                 # first USB webcam through OpenCV
    open_source("replay:/path/game.mp4") # an image, a folder of images, or a video
    open_source({"kind": "replay", "path": "shots/", "loop": True, "fps": 5, "pace": True})
    open_resilient("usb:0", on_notice=say)  # the same, reopened with backoff when it fails

What a source string may say is vision.source_spec's one rule, which the config checks too.
"""

from __future__ import annotations

from typing import Any, Callable

from vision.source_spec import SourceConfigError, describe_source, parse_source_spec

from .base import DARK_THRESHOLD, Frame, FrameSource, SourceExhausted, is_dark, mean_brightness
from .fake import ScriptedSource
from .resilient import ResilientSource, SourceNotice, log_notice

__all__ = ["DARK_THRESHOLD", "Frame", "FrameSource", "ResilientSource", "SourceConfigError",
           "ScriptedSource", "SourceExhausted", "SourceNotice", "describe_source", "is_dark", "log_notice",
           "mean_brightness", "open_resilient", "open_source", "parse_source_spec"]


def open_source(spec: str | dict, *, size: tuple[int, int] | None = None,
                fps: float | None = None) -> FrameSource:
    """Open the source the config names (size and fps as in parse_source_spec).

    Backends are imported here, only when chosen."""
    full = parse_source_spec(spec, size=size, fps=fps)
    if full["kind"] == "picamera":
        from .picamera import PiCameraSource
        return PiCameraSource(full["size"], camera_num=full["camera"], fps=full["fps"],
                              autofocus=full["autofocus"], timeout=full["timeout"])
    if full["kind"] == "usb":
        from .opencv import OpenCVSource
        return OpenCVSource(full["device"], width=full["width"], height=full["height"], fps=full["fps"])
    from .replay import ReplaySource
    return ReplaySource(full["path"], loop=full["loop"], fps=full["fps"], pace=full["pace"])


def open_resilient(spec: str | dict, *, size: tuple[int, int] | None = None, fps: float | None = None,
                   on_notice: Callable[[SourceNotice], None] = log_notice,
                   **options: Any) -> ResilientSource:
    """A ResilientSource for the config's source; a bad spec fails here, at once, not on retry.

    options go to ResilientSource (delays, dark_threshold, ...)."""
    full = parse_source_spec(spec, size=size, fps=fps)
    return ResilientSource(lambda: open_source(full), name=describe_source(full), on_notice=on_notice,
                           **options)
