"""What the controller's phases are given: the step they add records to, and the table they read.

The controller implements Step: a phase acts on the game and says things through it, and the
controller journals and shows the step's records once the step is done.
"""

from __future__ import annotations

from typing import Callable, Mapping, Protocol

from cribbage.cards import Card


class Step(Protocol):
    def act(self, action: Callable[..., tuple], *args) -> tuple:
        """Perform a game action; its events join the step (a CribbageError propagates)."""

    def notice(self, notice) -> None:
        """Say something (a device_events.Notice), unless it was the last thing said."""

    def add(self, record) -> None:
        """Add a device event (a claim preview, a dispute read-out, a cleared table)."""


class Table(Protocol):
    """The stable table as the tracker reports it (vision.tracker.TableState)."""

    cards: Mapping[str, frozenset[Card]]
    unreadable: Mapping[str, int]

    def in_zone(self, zone: str) -> frozenset[Card]: ...
