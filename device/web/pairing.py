"""Who may change things: a six-digit PIN, new at each start, pairs a phone's session.

Looking needs nothing. Pairing hands out a random session token (kept in an HttpOnly, SameSite
cookie by the server). After `max_tries` wrong PINs in a row pairing is locked for `lock_s` seconds,
right PIN or not, so the million PINs cannot be walked through. Thread-safe; the clock is injectable.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from typing import Callable

MAX_TRIES = 5
LOCK_S = 60.0
MAX_SESSIONS = 64


class PairingLocked(Exception):
    """Too many wrong PINs: pairing is refused until `retry_after` seconds have passed."""

    def __init__(self, retry_after: float):
        super().__init__(f"too many wrong PINs: pairing is locked for {retry_after:.0f} s")
        self.retry_after = retry_after


class Pairing:
    """The PIN of this start and the sessions it has paired."""

    def __init__(self, pin: str | None = None, *, max_tries: int = MAX_TRIES, lock_s: float = LOCK_S,
                 clock: Callable[[], float] = time.monotonic):
        self.pin = pin if pin is not None else new_pin()
        if len(self.pin) != 6 or not self.pin.isdigit():
            raise ValueError("a PIN is six digits")
        self.max_tries, self.lock_s, self.clock = max_tries, lock_s, clock
        self._wrong = 0
        self._locked_until = 0.0
        self._sessions: dict[str, float] = {}
        self._lock = threading.Lock()

    def pair(self, pin: object) -> str | None:
        """A new session token for the right PIN, None for a wrong one; PairingLocked while locked."""
        with self._lock:
            now = self.clock()
            if now < self._locked_until:
                raise PairingLocked(self._locked_until - now)
            given = pin if isinstance(pin, str) else ""
            if hmac.compare_digest(given.encode(), self.pin.encode()):
                self._wrong = 0
                token = secrets.token_urlsafe(32)
                if len(self._sessions) >= MAX_SESSIONS:  # the oldest pairing makes room
                    del self._sessions[min(self._sessions, key=self._sessions.get)]
                self._sessions[token] = now
                return token
            self._wrong += 1
            if self._wrong >= self.max_tries:
                self._wrong = 0
                self._locked_until = now + self.lock_s
            return None

    def is_paired(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            return any(hmac.compare_digest(token, t) for t in self._sessions)


def new_pin() -> str:
    """Six random digits from the system's secure source."""
    return f"{secrets.randbelow(1_000_000):06d}"


def spoken_pin(pin: str) -> str:
    """The PIN as the voice says it: digit by digit."""
    return "The web page's pairing code is " + " ".join(pin) + "."
