"""The simulated table played through the real device: script → frames → eyes → controller.

Each script step is one journal step: a TableStep is drawn, read by the recognizer, tracked, and its
changes handed to the controller; a PressStep is a panel press. The controller journals the step's
events in one transaction, so after a kill the game resumes at the step after the last one
journaled. Before resuming, the eyes are shown the table as it lay then (its changes are already in
the journal), exactly as a camera would see it after a power cut.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from device.eyes import Eyes
from device.simtable import PressStep, Script, TableStep

FPS = 10.0


@dataclass
class Pace:
    """How fast the simulation goes: seconds to pause after each step, and whether to wait for speech."""

    step_pause_s: float = 0.0
    wait_for_voice: bool = False


class Simulation:
    def __init__(self, script: Script, painter, eyes: Eyes, controller, *, pace: Pace | None = None,
                 voice=None, sleep: Callable[[float], None] = time.sleep):
        self.script = script
        self.painter = painter
        self.eyes = eyes
        self.controller = controller
        self.pace = pace or Pace()
        self.voice = voice
        self.sleep = sleep
        self.steps_run = 0

    @property
    def resume_index(self) -> int:
        """The first script step not yet journaled."""
        last = self.controller.journal.last_step
        return 0 if last is None else last + 1

    def prime(self, index: int) -> None:
        """Show the eyes the table as it lay before step `index`, without acting on it."""
        before = self.script.table_before(index)
        if before is None:
            return
        image = self.painter.draw(before[1], before[0])
        look = self.eyes.look(image, self._time(index) - 1.0, repeat=self.eyes.hold_frames)
        self.controller.adopt(look.table)

    def run_step(self, index: int) -> None:
        step = self.script.steps[index]
        ctl = self.controller
        if isinstance(step, PressStep):
            ctl.on_panel(step.event, step=index)
        elif isinstance(step, TableStep):
            image = self.painter.draw(step, index)
            look = self.eyes.look(image, self._time(index), repeat=self.eyes.hold_frames)
            if look.dark:
                ctl.on_dark(step=index)
            else:
                ctl.on_table(look.changes, look.table, step=index)
        self.steps_run += 1
        self._pause()

    def run(self, start: int | None = None) -> bool:
        """Play the script from `start` (default: where the journal left off) to the game's end.

        Returns True when the game ended; False when the script ran out first (the device saw the
        table differently from the script: a misread card)."""
        index = self.resume_index if start is None else start
        if self.controller.over:
            return True
        if index > 0:
            self.prime(index)
        for i in range(index, len(self.script.steps)):
            self.run_step(i)
            if self.controller.over:
                return True
        return self.controller.over

    def _time(self, index: int) -> float:
        return index * self.eyes.hold_frames / FPS

    def _pause(self) -> None:
        if self.pace.wait_for_voice and self.voice is not None:
            self.voice.wait(timeout=10)
        if self.pace.step_pause_s > 0:
            self.sleep(self.pace.step_pause_s)
