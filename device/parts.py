"""The device's seams: what `muggins run` needs of each part, so that a real camera, LED strip, panel
and voice, or a test's, a benchmark's or a simulation's stand-ins, plug in the same way."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, Sequence

if TYPE_CHECKING:
    import numpy as np


class FrameReader(Protocol):
    """A camera (vision.sources): read() -> Frame, or raises SourceExhausted at a replay's end."""

    def read(self): ...


class CardReader(Protocol):
    """The recognizer (vision.recognizer.Recognizer): every card seen in a BGR frame."""

    def recognize(self, image: "np.ndarray") -> list: ...


class ButtonPanel(Protocol):
    """The dial and buttons (device.panel.Panel): the presses since the last poll."""

    def poll(self) -> list: ...


class LedFrames(Protocol):
    """The LED strip (device.leds.output.LedOutput): show one frame of colours, one per LED."""

    def show(self, frame: Sequence) -> object: ...


class Speaker(Protocol):
    """The voice (device.voice.Voice): say one announcement."""

    def say(self, text: str) -> None: ...


@dataclass
class Parts:
    """What the device runs with; each left None is opened from the config (device.app)."""

    source: FrameReader | None = None
    recognizer: CardReader | None = None
    panel: ButtonPanel | None = None
    leds: LedFrames | None = None
    voice: Speaker | None = None
    problems: list = field(default_factory=list)
