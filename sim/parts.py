"""The device's simulated parts: a camera filming the simulated table and a panel the script presses.

They stand behind the same small interfaces as the real ones (device/parts.py), so `muggins demo`
is the device (device/app.py) run with them. The LED strip and the voice need nothing of their own:
the config's "simulated" LED driver and a voice that is quiet, or espeak-ng when it may speak.
"""

from __future__ import annotations

from vision.sources.base import Frame

from sim.table_script import TableStep


class SimulatedCamera:
    """A camera over the simulated table (a FrameReader): each read() is a fresh picture of the table
    as it lies, drawn by the painter (sim/frames.py) for the script step it was laid at.

    `lay(step, index, first_look, at)` puts a table in front of it; reads then draw its looks
    first_look, first_look + 1, ... stamped at, at + look_s, ... seconds. A picture depends only on the
    game's seed, the step and the look, so a resumed game films exactly what an uninterrupted one did.
    """

    name = "simulated camera"

    def __init__(self, painter, look_s: float = 0.6):
        self.painter = painter
        self.look_s = look_s
        self.size = painter.size
        self._table: tuple[TableStep, int, int, float] | None = None
        self._looks = 0
        self._index = 0

    def lay(self, step: TableStep, index: int, first_look: int = 0, at: float = 0.0) -> None:
        self._table = (step, index, first_look, at)
        self._looks = 0

    def read(self) -> Frame | None:
        if self._table is None:
            return None  # nothing laid yet: no picture this turn
        step, index, first_look, at = self._table
        image = self.painter.draw(step, index, first_look + self._looks)
        frame = Frame(image, self._index, at + self._looks * self.look_s)
        self._looks += 1
        self._index += 1
        return frame

    def close(self) -> None:
        pass


class ScriptedPanel:
    """The dial and buttons as the script's players press them (a ButtonPanel)."""

    def __init__(self):
        self._pressed: list = []

    def press(self, event) -> None:
        self._pressed.append(event)

    def poll(self) -> list:
        pressed, self._pressed = self._pressed, []
        return pressed

    def close(self) -> None:
        pass
