"""The button panel: the claim dial, Muggins, Dispute and Go buttons, turned into PanelEvents.

Real gpiozero devices on whatever pin factory is in use (lgpio on a Pi 5, MockFactory in tests).
Presses become frozen PanelEvents in a thread-safe queue, so the controller reads them from its own
single thread with `poll()` or `get()`; a `callback` may be given instead.

- Turning the dial gives `dial` events with the claimed count (0..dial_max); pressing it gives a
  `claim` with that count and sets the dial back to 0.
- A Muggins button per side gives `muggins` (player = side) when let go; Go buttons give `go`.
- Dispute gives `dispute` when let go after a short press, and `undo` once held long_press_s (as soon
  as poll()/get() sees it held that long, or at the latest when it is let go).
- Two Muggins buttons held together for new_game_hold_s give `new_game` (and no muggins), likewise.

Presses are debounced (a change within bounce_s of the last accepted one is contact bounce) and
mash-proof: an action repeated within repeat_s is dropped, and an event already waiting in the queue
is never queued twice, so mashing a button while the controller is busy leaves one event, not twenty.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from collections import deque
from dataclasses import dataclass
from typing import Callable, Iterator

from gpiozero import Device, DigitalInputDevice, RotaryEncoder
from gpiozero.exc import BadPinFactory

from device.errors import HardwareMissingError
from device.no_gpio import fallback_reasons, no_gpio_message

HOLD_CHECK_S = 0.05  # how often a waiting get() looks at buttons being held
EVENT_KINDS = ("dial", "claim", "muggins", "dispute", "undo", "new_game", "go")


@dataclass(frozen=True)
class PanelEvent:
    """Something a player did at the panel. player: the side (Muggins) or seat (Go); value: the count."""

    kind: str
    player: int | None = None
    value: int | None = None


class Panel:
    """The panel's inputs as gpiozero devices, delivering PanelEvents."""

    def __init__(self, config, pin_factory=None, callback: Callable[[PanelEvent], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.config = config
        self.callback = callback
        self.clock = clock
        self.dial = 0
        self.closed = False
        self._cond = threading.Condition()
        self._pending: deque[PanelEvent] = deque()
        self._last_change: dict[str, float] = {}
        self._down: dict[str, float] = {}        # role -> time it was pressed
        self._last_action: dict[str, float] = {}
        self._combo_start: float | None = None
        self._combo_roles: set[str] = set()
        self._combo_fired = False
        self._hold_fired: set[str] = set()
        self._devices: list = []
        bounce = config.bounce_s or None
        try:
            # The encoder's own state machine rejects bounce; a bounce_time on it would drop real steps.
            self.encoder = self._add(self._first_device(
                lambda: RotaryEncoder(config.encoder_a, config.encoder_b, max_steps=0,
                                      pin_factory=pin_factory), chosen_here=pin_factory is not None))
            self.encoder.when_rotated_clockwise = lambda: self._turn(+1)
            self.encoder.when_rotated_counter_clockwise = lambda: self._turn(-1)
            # Buttons are DigitalInputDevices: gpiozero's Button adds a hold thread per button, but
            # long presses are timed here (on `clock`), so that thread would only cost a wake-up
            # every 0.1 s and a slow close.
            self.buttons: dict[str, DigitalInputDevice] = {}
            roles = [("dial", config.encoder_button), ("dispute", config.dispute)]
            roles += [(f"muggins{i}", p) for i, p in enumerate(config.muggins)]
            roles += [(f"go{i}", p) for i, p in enumerate(config.go)]
            for role, pin in roles:
                button = self._add(DigitalInputDevice(pin, pull_up=True, bounce_time=bounce,
                                                         pin_factory=pin_factory))
                button.when_activated = lambda role=role: self._change(role, True)
                button.when_deactivated = lambda role=role: self._change(role, False)
                self.buttons[role] = button
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _first_device(make, chosen_here: bool = False):
        """Make the first device, turning "no GPIO here" into one clear HardwareMissingError.

        gpiozero warns once per pin library it cannot use before giving up; those warnings only
        matter when it found none, and then the error says what to do instead (device.no_gpio).
        """
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                device = make()
            except BadPinFactory:
                reasons = fallback_reasons(str(w.message) for w in caught)
                raise HardwareMissingError(no_gpio_message(reasons)) from None
            except Exception as exc:
                chosen = os.environ.get("GPIOZERO_PIN_FACTORY")
                if chosen and not chosen_here and Device.pin_factory is None:
                    # the pin library GPIOZERO_PIN_FACTORY names (the systemd unit's lgpio) did not load
                    raise HardwareMissingError(no_gpio_message({chosen.lower(): str(exc)}, chosen)) from None
                raise
        for w in caught:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return device

    def _add(self, device):
        self._devices.append(device)
        return device

    # -- reading events ------------------------------------------------------------------------

    def poll(self) -> list[PanelEvent]:
        """Every waiting event, oldest first; never blocks."""
        with self._cond:
            self._check_holds()
            events = list(self._pending)
            self._pending.clear()
        return events

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        """The next event, waiting up to timeout seconds (None: until one comes or the panel closes)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while True:
                self._check_holds()
                if self._pending or self.closed:
                    return self._pending.popleft() if self._pending else None
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                # wake now and then: a button held long enough fires while it is still held
                self._cond.wait(HOLD_CHECK_S if left is None else min(left, HOLD_CHECK_S))

    def events(self, timeout: float | None = None) -> Iterator[PanelEvent]:
        """Events as they come, until the panel is closed (or nothing came for timeout seconds)."""
        while True:
            event = self.get(timeout)
            if event is None:
                return
            yield event

    def reset_dial(self, value: int = 0) -> None:
        """Set the claimed count shown by the dial (e.g. 0 when a new count begins)."""
        with self._cond:
            self.dial = max(0, min(self.config.dial_max, int(value)))

    # -- turning gpiozero callbacks into events -----------------------------------------------

    def _turn(self, step: int) -> None:
        with self._cond:
            value = max(0, min(self.config.dial_max, self.dial + step))
            if value != self.dial:
                self.dial = value
                self._emit(PanelEvent("dial", value=value))

    def _change(self, role: str, pressed: bool) -> None:
        with self._cond:
            self._change_locked(role, pressed)

    def _change_locked(self, role: str, pressed: bool) -> None:
        now = self.clock()
        last = self._last_change.get(role)
        if last is not None and now - last < self.config.bounce_s:
            return  # contact bounce
        if pressed == (role in self._down):
            return  # no real change (a bounce's second half)
        self._last_change[role] = now
        if pressed:
            self._down[role] = now
            self._hold_fired.discard(role)
            self._pressed(role, now)
        else:
            held = now - self._down.pop(role)
            self._released(role, now, held)

    def _pressed(self, role: str, now: float) -> None:
        if role == "dial":
            if self._allowed(role, now):
                value, self.dial = self.dial, 0
                self._emit(PanelEvent("claim", value=value))
        elif role.startswith("go"):
            if self._allowed(role, now):
                self._emit(PanelEvent("go", player=int(role[2:])))
        elif role.startswith("muggins"):
            held = {r for r in self._down if r.startswith("muggins")}
            if len(held) >= 2 and self._combo_start is None:
                self._combo_start, self._combo_fired = now, False
            if self._combo_start is not None:
                self._combo_roles |= held

    def _released(self, role: str, now: float, held: float) -> None:
        if role == "dispute":
            if role in self._hold_fired:
                pass  # the undo went out while it was held
            elif held >= self.config.long_press_s:
                if self._allowed("undo", now):
                    self._emit(PanelEvent("undo"))
            elif self._allowed(role, now):
                self._emit(PanelEvent("dispute"))
        elif role.startswith("muggins"):
            if role in self._combo_roles:
                if (self._combo_start is not None and not self._combo_fired
                        and now - self._combo_start >= self.config.new_game_hold_s):
                    self._emit(PanelEvent("new_game"))
                self._combo_start = None  # the combination ends when either button is let go
                self._combo_roles.discard(role)
            elif self._allowed(role, now):
                self._emit(PanelEvent("muggins", player=int(role[7:])))

    def _check_holds(self) -> None:
        """Fire undo / new game once a hold has lasted long enough, without waiting for the release."""
        if not self._down:
            return
        now = self.clock()
        start = self._down.get("dispute")
        if start is not None and "dispute" not in self._hold_fired and now - start >= self.config.long_press_s:
            self._hold_fired.add("dispute")
            if self._allowed("undo", now):
                self._emit(PanelEvent("undo"))
        if (self._combo_start is not None and not self._combo_fired
                and now - self._combo_start >= self.config.new_game_hold_s):
            self._combo_fired = True
            self._emit(PanelEvent("new_game"))

    def _allowed(self, role: str, now: float) -> bool:
        """Mash guard: one action per role per repeat_s."""
        last = self._last_action.get(role)
        if last is not None and now - last < self.config.repeat_s:
            return False
        self._last_action[role] = now
        return True

    def _emit(self, event: PanelEvent) -> None:
        if self.callback is not None:
            self.callback(event)
            return
        with self._cond:
            if event.kind == "dial":  # only the latest dial position matters
                self._pending = deque(e for e in self._pending if e.kind != "dial")
            elif event in self._pending:
                return
            self._pending.append(event)
            self._cond.notify_all()

    # -- lifetime ------------------------------------------------------------------------------

    def close(self) -> None:
        """Release every pin; harmless twice. A get() waiting returns None."""
        with self._cond:
            if self.closed:
                return
            self.closed = True
            self._cond.notify_all()
        for device in reversed(self._devices):
            device.close()
        self._devices.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()
