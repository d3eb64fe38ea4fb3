"""A scripted frame source for tests and the demo: frames and failures in the order given.

    ScriptedSource([img, img, CameraError("USB camera 0 stopped delivering frames"), img])

lets a controller test rehearse a camera dying mid-game without a camera.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from .base import FrameSource, SourceExhausted


class ScriptedSource(FrameSource):
    """Each read() takes the next step: an image is delivered, an exception is raised.

    Timestamps are index / fps, as for a replay. `reads` counts read() calls, `released` says
    whether close() has run.
    """

    def __init__(self, steps: Iterable[np.ndarray | BaseException], *, fps: float = 10.0,
                 name: str = "scripted camera") -> None:
        super().__init__()
        self.name, self.fps = name, fps
        self._steps = list(steps)
        self._position = 0
        self.reads = 0
        self.released = False

    def _next_image(self) -> tuple[np.ndarray, float | None]:
        self.reads += 1
        if self._position >= len(self._steps):
            raise SourceExhausted(f"{self.name} has ended")
        step = self._steps[self._position]
        self._position += 1
        if isinstance(step, BaseException):
            raise step
        return step, self._index / self.fps

    def _release(self) -> None:
        self.released = True
