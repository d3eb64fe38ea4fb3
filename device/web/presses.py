"""Presses from the phone: the same PanelEvents the button panel gives, polled by the same loop.

The server (its own thread) queues them; the device's frame loop takes them with `poll()`, beside
the panel's, and hands each to `Controller.on_panel`, which journals what follows before it is shown.
So a claim from a phone and a claim from the dial are the same input to the game.
"""

from __future__ import annotations

import threading
from collections import deque

from device.panel import PanelEvent

MAX_WAITING = 32  # a phone mashing a button while the loop is busy cannot pile up presses


class PhonePresses:
    """A thread-safe queue of PanelEvents from the web page (a ButtonPanel)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._waiting: deque[PanelEvent] = deque()

    def press(self, event: PanelEvent) -> bool:
        """Queue one press; False (dropped) when the same press is already waiting or the queue is full."""
        with self._lock:
            if event in self._waiting or len(self._waiting) >= MAX_WAITING:
                return False
            self._waiting.append(event)
            return True

    def poll(self) -> list[PanelEvent]:
        with self._lock:
            events = list(self._waiting)
            self._waiting.clear()
        return events

    def close(self) -> None:
        pass


class PanelWithPhone:
    """The button panel (or none) and the phone's presses, polled as one panel: the panel's first."""

    def __init__(self, panel, phone: PhonePresses):
        self.panel = panel
        self.phone = phone

    def poll(self) -> list[PanelEvent]:
        events = self.panel.poll() if self.panel is not None else []
        return events + self.phone.poll()

    def close(self) -> None:
        if self.panel is not None and hasattr(self.panel, "close"):
            self.panel.close()

    def __getattr__(self, name):  # anything else asked of the panel (a simulation's press())
        if self.panel is None:
            raise AttributeError(name)
        return getattr(self.panel, name)
