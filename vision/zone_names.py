"""The names of the table's zones: 'seat:0', 'seat:1', ... (one per player), 'centre' and 'crib'.

One home for them, read by the zones, the tracker, the calibration and the controller. Standard
library only, so the controller can name zones without importing OpenCV.
"""

from __future__ import annotations

import re

CENTRE, CRIB = "centre", "crib"
NAMES_HELP = "zone names are 'seat:0', 'seat:1', ... (one per player), 'centre' and optionally 'crib'"
_SEAT = re.compile(r"seat:(\d+)\Z")


def seat(player: int) -> str:
    """The zone name of a player's seat: seat(1) == 'seat:1'."""
    return f"seat:{player}"


def seat_number(name: str) -> int | None:
    """1 for 'seat:1'; None for 'centre', 'crib'."""
    match = _SEAT.match(name)
    return int(match.group(1)) if match else None


def zone_order(name: str) -> tuple:
    """A sort key: the seats by number, then the other zones by name."""
    number = seat_number(name)
    return (0, number) if number is not None else (1, name)
