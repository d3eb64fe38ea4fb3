"""A frame source that survives its camera: reopens it with backoff, and says what went wrong once.

A camera unplugged mid-game, a ribbon cable knocked loose, or a lamp switched off must give the
players a clear message and then carry on by itself when the trouble is fixed: never a crash.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from vision.errors import BackendMissingError, CameraError, VisionError

from .base import DARK_THRESHOLD, Frame, FrameSource, SourceExhausted

_log = logging.getLogger("vision.sources")

#: Seconds to wait before each successive reopen attempt; the last repeats.
DEFAULT_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)


@dataclass(frozen=True)
class SourceNotice:
    """Something the players should hear about the camera.

    kind: "failed" (camera missing or stopped; being retried), "recovered" (frames again),
          "dark" (too dark to see the cards), "lit" (light enough again).
    """

    kind: str
    message: str


def log_notice(notice: SourceNotice) -> None:
    """The default notice handler: a log line (warning for trouble, info for good news)."""
    level = logging.WARNING if notice.kind in ("failed", "dark") else logging.INFO
    _log.log(level, "%s", notice.message)


class ResilientSource:
    """Wraps a way of opening a source; `read()` gives a Frame, or None while the camera is down.

    opener: makes a fresh source (e.g. `lambda: open_source("usb:0")`); called lazily at the
            first read and again after each failure, no sooner than the backoff delay.
    on_notice: called once per change (failed / recovered / dark / lit), not once per retry;
            a new failure with a different message is reported again.
    Each read() takes at most one attempt and waits at most one backoff delay, so a caller's
    loop keeps turning while the camera is away.
    BackendMissingError (picamera2 not installed) is raised, not retried: no retry can fix it.
    SourceExhausted (a replay ended) is raised too: the stream is over, not broken.
    """

    def __init__(self, opener: Callable[[], FrameSource], *, name: str = "the camera",
                 on_notice: Callable[[SourceNotice], None] = log_notice,
                 delays: tuple[float, ...] = DEFAULT_DELAYS, dark_threshold: float = DARK_THRESHOLD,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        if not delays or any(d < 0 for d in delays):
            raise VisionError("retry delays must be a non-empty list of seconds >= 0")
        self.name = name
        self._opener, self._on_notice = opener, on_notice
        self._delays, self.dark_threshold = tuple(delays), dark_threshold
        self._clock, self._sleep = clock, sleep
        self._source: FrameSource | None = None
        self._closed = False
        self._index = 0
        self._attempts = 0          # failed attempts in a row
        self._next_attempt = 0.0    # clock time before which no attempt is made
        self.problem: str | None = None   # the failure being retried, or None while frames come
        self.dark = False

    @property
    def ok(self) -> bool:
        """True while frames are coming (and before the first attempt)."""
        return self.problem is None

    def read(self) -> Frame | None:
        """The next frame, renumbered as one unbroken stream; None if the camera is down right now."""
        if self._closed:
            raise CameraError(f"{self.name} is closed")
        if self._source is None:
            wait = self._next_attempt - self._clock()
            if wait > 0:
                self._sleep(wait)
            try:
                self._source = self._opener()
            except (BackendMissingError, SourceExhausted):
                raise
            except Exception as exc:  # never let a camera fault reach the caller
                self._failed(exc)
                return None
        try:
            frame = self._source.read()
        except (BackendMissingError, SourceExhausted):
            raise
        except Exception as exc:
            self._drop_source()
            self._failed(exc)
            return None
        self._delivered()
        frame = Frame(frame.image, self._index, frame.timestamp)
        self._index += 1
        self._check_light(frame)
        return frame

    def frames(self) -> Iterator[Frame]:
        """Frames for ever (or until a replay ends), waiting out camera trouble."""
        while True:
            try:
                frame = self.read()
            except SourceExhausted:
                return
            if frame is not None:
                yield frame

    __iter__ = frames

    def _failed(self, exc: BaseException) -> None:
        if isinstance(exc, VisionError):
            message = str(exc)
        else:
            _log.debug("unexpected error from %s", self.name, exc_info=exc)
            message = f"{self.name} failed: {type(exc).__name__}: {exc}"
        if message != self.problem:
            self._on_notice(SourceNotice("failed", f"{message}; trying again"))
        self.problem = message
        delay = self._delays[min(self._attempts, len(self._delays) - 1)]
        self._attempts += 1
        self._next_attempt = self._clock() + delay

    def _delivered(self) -> None:
        if self.problem is not None:
            self.problem = None
            self._on_notice(SourceNotice("recovered", f"{self.name} is working again"))
        self._attempts = 0

    def _check_light(self, frame: Frame) -> None:
        dark = frame.is_dark(self.dark_threshold)
        if dark != self.dark:
            self.dark = dark
            if dark:
                self._on_notice(SourceNotice("dark", "it's too dark to see the cards: more light, please"))
            else:
                self._on_notice(SourceNotice("lit", "I can see the table again"))

    def _drop_source(self) -> None:
        source, self._source = self._source, None
        if source is not None:
            try:
                source.close()
            except Exception:  # a broken camera may fail to close too; it is gone either way
                pass

    def close(self) -> None:
        """Release the camera; closing twice does nothing."""
        self._closed = True
        self._drop_source()

    def __enter__(self) -> "ResilientSource":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
