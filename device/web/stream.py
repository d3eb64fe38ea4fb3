"""The live board's event stream: the latest snapshot, sent to every watching phone as it changes.

Lives in the server's event loop. The device's thread publishes through `publish_threadsafe`, which
only schedules the work (one call_soon_threadsafe), so twenty phones cost the frame loop nothing
more than one: the JSON is encoded once per change in the server's thread and shared by every
subscriber. A slow phone skips to the newest snapshot rather than queueing old ones.
"""

from __future__ import annotations

import asyncio
import json

MAX_SUBSCRIBERS = 64


class Hub:
    """Holds the newest snapshot (as JSON bytes) and wakes subscribers when it changes."""

    def __init__(self, loop: asyncio.AbstractEventLoop, snapshot: dict):
        self.loop = loop
        self.snapshot = snapshot
        self.data = _encode(snapshot)
        self.version = 1
        self.closing = False
        self._waiters: set[asyncio.Event] = set()

    def publish_threadsafe(self, snapshot: dict) -> None:
        """From any thread: make this snapshot the newest (scheduled on the server's loop)."""
        try:
            self.loop.call_soon_threadsafe(self.publish, snapshot)
        except RuntimeError:  # the loop has closed: the server is gone, the device goes on
            pass

    def publish(self, snapshot: dict) -> None:
        self.snapshot = snapshot
        self.data = _encode(snapshot)
        self.version += 1
        for waiter in self._waiters:
            waiter.set()

    def close(self) -> None:
        self.closing = True
        for waiter in self._waiters:
            waiter.set()

    @property
    def full(self) -> bool:
        return len(self._waiters) >= MAX_SUBSCRIBERS

    async def follow(self, timeout: float):
        """Yield (version, data) for the newest snapshot at once and after each change; None after
        `timeout` seconds of quiet (a keep-alive is due). Ends when the hub closes."""
        waiter = asyncio.Event()
        self._waiters.add(waiter)
        try:
            seen = 0
            while not self.closing:
                if self.version != seen:
                    seen = self.version
                    yield seen, self.data
                    continue
                try:
                    await asyncio.wait_for(waiter.wait(), timeout)
                except asyncio.TimeoutError:
                    yield None
                waiter.clear()
        finally:
            self._waiters.discard(waiter)


def _encode(snapshot: dict) -> bytes:
    return json.dumps(snapshot, separators=(",", ":")).encode("utf-8")
