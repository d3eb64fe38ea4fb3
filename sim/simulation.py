"""The simulated table played through the device: script → camera → eyes → controller, step by step.

The device (device/app.py) is built with simulated parts: a camera filming the simulated table
(sim/parts.py), a panel the script presses. Each script step is one journal step: a TableStep is laid
in front of the camera, filmed, read by the recognizer, tracked, and the change of the stable table
handed to the controller; a PressStep is a press on the panel. The controller journals the step's
events in one transaction, so after a kill the game resumes at the step after the last one journaled.
Before resuming, the eyes are shown the table as it lay then (its changes are already in the
journal), exactly as a camera would see it after a power cut.

The simulated players are patient, as real ones are: they leave the table as it is until the device
sees it as it lies — a fresh frame each look, up to MAX_LOOKS — so one misread or missed card in one
frame does not derail the game. The controller is told what changed over the whole step (the net
change of the stable table), never the flicker in between; `extra_looks` counts the patience used.
`seeing` (sim/seeing.py) keeps what it took to see the game: cards laid, read at first sight, asked
to move into the light, misread — from the script's cards, the tracker's table and the journal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable

from device.eyes import Look
from sim.seeing import Seeing, asks_in
from sim.table_script import PressStep, Script, TableStep
from vision.tracker import TableState
from vision.zone_events import APPEARED, DUPLICATE, LEFT, UNREADABLE, ZoneEvent

FPS = 10.0
MAX_LOOKS = 5
NOTHING_SEEN = TableState(MappingProxyType({}), MappingProxyType({}))


def intended(step: TableStep) -> tuple[dict, dict]:
    """(cards per zone, unreadable per zone) the device should see for this step."""
    cards: dict = {}
    unreadable: dict = {}
    for zone, laid in step.zones:
        readable = {c for c in laid if c != step.shadow}
        if readable:
            cards[zone] = readable
        if step.shadow is not None and step.shadow in laid:
            unreadable[zone] = unreadable.get(zone, 0) + 1
    return cards, unreadable


def sees(table, step: TableStep) -> bool:
    cards, unreadable = intended(step)
    seen = {z: set(c) for z, c in table.cards.items() if c}
    blanks = {z: n for z, n in table.unreadable.items() if n}
    return seen == cards and blanks == unreadable


def net_changes(before, after, timestamp: float) -> list:
    """The changes from one stable table to another, zone by zone: left, then appeared, then unreadable."""
    changes = []
    zones = list(after.cards) + [z for z in before.cards if z not in after.cards]
    for zone in zones:
        old, new = set(before.in_zone(zone)), set(after.in_zone(zone))
        changes += [ZoneEvent(LEFT, zone, c, timestamp) for c in sorted(old - new, key=lambda c: c.index)]
        changes += [ZoneEvent(APPEARED, zone, c, timestamp) for c in sorted(new - old, key=lambda c: c.index)]
        blanks = after.unreadable.get(zone, 0) - before.unreadable.get(zone, 0)
        changes += [ZoneEvent(UNREADABLE if blanks > 0 else LEFT, zone, None, timestamp)] * abs(blanks)
    for card in sorted(after.all_cards - before.all_cards, key=lambda c: c.index):
        places = [z for z in after.cards if card in after.cards[z]]
        if len(places) > 1:
            changes.append(ZoneEvent(DUPLICATE, places[0], card, timestamp, other_zone=places[1]))
    return changes


@dataclass
class Pace:
    """How fast the simulation goes: seconds to pause after each step, and whether to wait for speech."""

    step_pause_s: float = 0.0
    wait_for_voice: bool = False


class Simulation:
    """The script played on a device built with a SimulatedCamera (parts.source) and a ScriptedPanel
    (parts.panel)."""

    def __init__(self, script: Script, device, *, pace: Pace | None = None,
                 sleep: Callable[[float], None] = time.sleep, seeing: Seeing | None = None):
        self.script = script
        self.seeing = seeing if seeing is not None else Seeing()
        self.device = device
        self.camera = device.parts.source
        self.panel = device.parts.panel
        self.controller = device.controller
        self.pace = pace or Pace()
        self.sleep = sleep
        self.steps_run = 0
        self.extra_looks = 0

    @property
    def resume_index(self) -> int:
        """The first script step not yet journaled."""
        last = self.controller.journal.last_step
        return 0 if last is None else last + 1

    @property
    def frames(self) -> int:
        """Camera frames the eyes have read (a still table filmed hold_frames times counts that many)."""
        return self.device.eyes.frames if self.device.eyes is not None else 0

    def prime(self, index: int) -> None:
        """Show the eyes the table as it lay before step `index`, without acting on it."""
        before = self.script.table_before(index)
        if before is None:
            return
        self.device.adopt(self._look(before[1], before[0]))

    def _look(self, step: TableStep, index: int, first_look: int = 0) -> Look:
        """Film this table (a fresh frame each look) until the eyes see it as it lies."""
        self.camera.lay(step, index, first_look, at=self._time(index))
        for attempt in range(MAX_LOOKS):
            look = self.device.see(self.camera.read(), repeat=self.device.hold_frames)
            self.seeing.looked(step, look.table, look.dark)
            if look.dark or sees(look.table, step):
                break
        self.extra_looks += attempt
        return look

    def run_step(self, index: int) -> None:
        step = self.script.steps[index]
        self.seeing.begin(index)
        with self.controller.batch(index):  # all the step's events in one journal transaction
            if isinstance(step, PressStep):
                self._press(step, index)
            elif isinstance(step, TableStep):
                self._show_table(step, index)
            # kept before the step is journaled: after a kill between the two, the step is taken again
            self.seeing.end(asks_in(self.controller.pending))
        self.steps_run += 1
        self._pause()

    def _show_table(self, step: TableStep, index: int, first_look: int = 0) -> None:
        before = self.device.eyes.tracker.state if self.device.eyes is not None else NOTHING_SEEN
        if first_look == 0:  # the step lays this table (later looks: the players re-place its cards)
            laid_before = self.script.table_before(index)
            self.seeing.laid(step, laid_before[1] if laid_before is not None else None)
        look = self._look(step, index, first_look)
        if not look.dark:  # the controller hears the whole step's change of the table at once
            look = Look(tuple(net_changes(before, look.table, self._time(index))), look.table)
        self.device.act_on(look)

    def _press(self, step: PressStep, index: int) -> None:
        """A press; a claim the device could not take (a card it could not read) is pressed again
        after the player has re-placed the cards (the eyes take a fresh look)."""
        game = self.controller.game
        for attempt in range(MAX_LOOKS):
            claims = _claims(game)
            self.panel.press(step.event)
            self.device.poll_panel()
            if step.event.kind != "claim" or _claims(game) > claims or game.is_over:
                return
            table = self.script.table_before(index)
            if table is None:
                return
            self.extra_looks += 1
            self._show_table(table[1], table[0], first_look=MAX_LOOKS * (attempt + 1))

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
        return index * self.device.hold_frames / FPS

    def _pause(self) -> None:
        voice = self.device.parts.voice
        if self.pace.wait_for_voice and voice is not None and hasattr(voice, "wait"):
            voice.wait(timeout=10)
        if self.pace.step_pause_s > 0:
            self.sleep(self.pace.step_pause_s)


def _claims(game) -> int:
    from cribbage.events import ClaimPegged

    return sum(isinstance(e, ClaimPegged) for e in game.events)
