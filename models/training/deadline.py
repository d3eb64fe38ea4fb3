"""`make model`'s hour: a network's training budget shrunk so that every stage still ends by a deadline.

The renders run first and take as long as the machine is slow (twice as long on a slow day as on a
quick one); the networks then train on wall-time budgets (models/MODEL_CARD.md). Where the time left
before the deadline no longer holds this network's budget and the budgets of the work planned after
it, each is cut by the same share, never below FLOOR of itself: on such a day the networks train a few
minutes less rather than the rebuild running over its hour.
"""

from __future__ import annotations

import argparse
import time

FLOOR = 0.5     # a budget is never cut below this share of itself: past that, the hour is missed instead


def fitted_minutes(minutes: float, after: float, deadline: float | None, now: float | None = None) -> float:
    """This network's training minutes: `minutes`, cut where the time left before `deadline` (epoch
    seconds; None: no deadline) is less than `minutes` + `after` (the minutes of everything planned to
    run after this training)."""
    if deadline is None or minutes <= 0:
        return minutes
    left = (deadline - (time.time() if now is None else now)) / 60.0
    share = min(1.0, max(FLOOR, left / (minutes + max(after, 0.0))))
    return minutes * share


def budget(what: str, minutes: float, after: float, deadline: float | None, log) -> float:
    """fitted_minutes, with the progress line (budget_line) logged where the budget was cut."""
    fitted = fitted_minutes(minutes, after, deadline)
    line = budget_line(what, minutes, fitted, deadline)
    if line:
        log(line)
    return fitted


def budget_line(what: str, planned: float, minutes: float, deadline: float | None) -> str | None:
    """The progress line saying a budget was cut to keep to the deadline; None where it was not."""
    if deadline is None or minutes >= planned:
        return None
    ends = time.strftime("%H:%M", time.localtime(deadline))
    return (f"{what}: training {minutes:.1f} of its {planned:g} minutes, for `make model` to end by {ends} "
            f"(what ran before it took longer than planned on this machine)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options `make model` runs a training script with: render only, and a deadline to keep."""
    parser.add_argument("--render-only", action="store_true",
                        help="render the training scenes into the cache and stop (make model renders first)")
    parser.add_argument("--deadline", type=float, default=None, metavar="EPOCH_SECONDS",
                        help="end by this time: the training budgets are cut where the time left no longer "
                             "holds them (models/training/deadline.py); default: no deadline")
    parser.add_argument("--after", type=float, default=0.0, metavar="MINUTES",
                        help="the minutes of work planned after this script, kept free before the deadline")
