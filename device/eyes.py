"""The device's eyes: a frame in, the changes of the stable table out (or "too dark to see").

Recognizer (find and read every card) then tracker (only what has held over several frames is
news). The same path serves the camera in `muggins run` and the rendered frames of `muggins demo`.
A frame the recognizer fails on is skipped and told, so that one fault does not stop a game.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from vision.faults import fault_text
from vision.sources.base import DARK_THRESHOLD, mean_brightness
from vision.tracker import TableTracker, TrackerConfig
from vision.zones import Zones

TELL_SKIPPED_EVERY = 100  # after the first frame that could not be read, tell again every this many


@dataclass(frozen=True)
class Look:
    """What one frame told: the table's changes and how it now stands; dark: nothing could be seen."""

    changes: tuple
    table: object
    dark: bool = False
    cards_seen: int = 0


class Eyes:
    """Recognizer + tracker for one table (zones). `recognizer` needs only `.recognize(image)`."""

    def __init__(self, recognizer, zones: Zones, tracker_config: TrackerConfig | None = None,
                 tell: Callable[[str], None] | None = None):
        self.recognizer = recognizer
        self.zones = zones
        self.tracker = TableTracker(zones, tracker_config)
        self.tell = tell or logging.getLogger("muggins.eyes").warning
        self.frames = 0
        self.skipped = 0
        self.recognize_s = 0.0

    @property
    def hold_frames(self) -> int:
        """Frames a steady table must hold before the tracker reports all of it."""
        return self.tracker.config.hold_frames

    def look(self, image: np.ndarray, timestamp: float, repeat: int = 1) -> Look:
        """Read one frame; `repeat` feeds the same reading to the tracker for that many frames
        (a still table filmed `repeat` times reads the same each time: no need to read it again)."""
        if mean_brightness(image) < DARK_THRESHOLD:
            return Look((), self.tracker.state, dark=True)
        start = time.perf_counter()
        try:
            recognitions = self.recognizer.recognize(image)
        except Exception as exc:  # a fault in reading one frame must not stop the game: the frame is skipped
            self.skipped += 1
            if self.skipped == 1 or self.skipped % TELL_SKIPPED_EVERY == 0:
                self.tell(skipped_frame(exc, self.skipped))
            return Look((), self.tracker.state)
        self.recognize_s += time.perf_counter() - start
        changes: list = []
        for k in range(repeat):
            changes += self.tracker.update(recognitions, timestamp + k * 1e-3)
            self.frames += 1
        return Look(tuple(changes), self.tracker.state, cards_seen=len(recognitions))


def skipped_frame(exc: Exception, count: int) -> str:
    """What to tell of a frame the recognizer failed on: the fault and where it arose, for a bug report."""
    return (f"a camera frame could not be read ({fault_text(exc)}); it was skipped "
            f"({count} so far). Please report this as a bug.")


def recognizer_for(camera, decks_dir: Path, tell: Callable[[str], None], print_file: Path | None = None):
    """The device's recognizer for a [camera] config: cards of its calibrated length looked for, the
    learned deck it names (kept in decks_dir) checked last, and the table's print (kept in print_file,
    device.table_print) read past; a deck or a print that cannot be used is told, and cards are read
    without it."""
    from device.learned_decks import deck_in_play
    from vision.recognizer import Recognizer

    recognizer = Recognizer(card_length=camera.card_length, deck=deck_in_play(camera.deck, decks_dir, tell))
    if print_file is None:
        return recognizer
    from device.table_print import print_in_play, reading_past

    table_print = print_in_play(print_file, tell)
    if table_print is not None and table_print.cards:
        tell(f"reading past the table's print: {len(table_print.cards)} printed card(s) learnt by "
             "`muggins calibrate --table`")
    return reading_past(recognizer, table_print)
