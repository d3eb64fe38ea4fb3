"""Brightness and the current budget: scale a frame so the strip never draws more than the PSU gives.

A WS2812 draws about 20 mA per colour channel at full value (60 mA at full white) plus about 1 mA
doing nothing. The estimate is linear in the channel values, so one scale factor brings any frame
within the budget.
"""

from __future__ import annotations

from typing import Sequence

MA_PER_CHANNEL = 20.0
IDLE_MA_PER_LED = 1.0

Colour = tuple[int, int, int]


def estimate_ma(frame: Sequence[Colour]) -> float:
    """Estimated current (mA) a frame draws."""
    return len(frame) * IDLE_MA_PER_LED + sum(sum(c) for c in frame) * MA_PER_CHANNEL / 255.0


def limit(frame: Sequence[Colour], brightness: float = 1.0, budget_ma: float | None = None) -> list[Colour]:
    """The frame at `brightness` (0..1), dimmed further if needed to stay within `budget_ma`."""
    k = max(0.0, min(1.0, brightness))
    if budget_ma is not None:
        channels = sum(sum(c) for c in frame) * k
        available = budget_ma - len(frame) * IDLE_MA_PER_LED
        if channels and channels * MA_PER_CHANNEL / 255.0 > available:
            k *= max(0.0, available) / (channels * MA_PER_CHANNEL / 255.0)
    if k == 1.0:
        return [tuple(c) for c in frame]  # type: ignore[misc]
    # floor, not round: rounding up could push the estimate a hair over the budget
    return [(int(r * k), int(g * k), int(b * k)) for r, g, b in frame]
