"""Why gpiozero found no GPIO, said as what to do about it.

gpiozero tries its pin libraries in turn (lgpio first) and warns "Falling back from NAME: REASON" for
each one that fails before it gives up; with GPIOZERO_PIN_FACTORY set (the systemd unit sets lgpio) it
tries that one alone and raises its error. On a Raspberry Pi lgpio is the one that matters (the only one
that works on a Pi 5), so its reason decides the advice: not installed, installed on something that is
not a Pi, unable to write its notification pipe (it makes one in the working directory), or unable to
open the GPIO chip.
"""

from __future__ import annotations

import re
from typing import Iterable

LGPIO_INSTALL = "on Raspberry Pi OS run `sudo apt install python3-lgpio`"
OFF_A_PI = ("; off a Pi, `muggins test-hardware --simulate` plays the panel on mock pins "
            "(GPIOZERO_PIN_FACTORY=mock gives any command mock pins)")
_FALLBACK = re.compile(r"Falling back from (\w+): (.*)", re.S)


def fallback_reasons(messages: Iterable[str]) -> dict[str, str]:
    """gpiozero's fallback warnings as {pin library: why it could not be used}."""
    reasons = {}
    for message in messages:
        m = _FALLBACK.match(str(message))
        if m:
            reasons[m.group(1)] = m.group(2).strip()
    return reasons


def no_gpio_message(reasons: dict[str, str], chosen: str | None = None) -> str:
    """One line saying what to install or enable, from why each pin library failed.

    chosen: the pin library GPIOZERO_PIN_FACTORY named, when one was."""
    head = "no GPIO found for the panel: "
    if chosen is not None and chosen.lower() != "lgpio":
        return head + f"GPIOZERO_PIN_FACTORY={chosen} cannot be used ({reasons.get(chosen.lower())})"
    lgpio = reasons.get("lgpio")
    if lgpio is None or "No module named" in lgpio:
        return head + "lgpio is not installed: " + LGPIO_INSTALL + OFF_A_PI
    if "Pi revision" in lgpio:
        return head + f"this is not a Raspberry Pi (lgpio: {lgpio})" + OFF_A_PI
    if ".lgd-nfy" in lgpio:
        return (head + f"lgpio cannot make its notification pipe in the working directory ({lgpio}): "
                "start muggins in a folder its user may write (the systemd unit runs it in /var/lib/muggins)")
    if "gpiochip" in lgpio:
        return (head + f"lgpio cannot open the GPIO chip ({lgpio}): the user needs the gpio group "
                "(sudo usermod -aG gpio USER, then log in again)")
    return head + f"lgpio cannot be used ({lgpio})" + OFF_A_PI
