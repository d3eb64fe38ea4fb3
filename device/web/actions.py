"""The requests that change something, read strictly: each body's fields checked, nothing else allowed.

A request body is a JSON object with exactly the fields its action knows; anything else (not JSON,
not an object, an unknown field, a wrong type, a count off the dial) is a BadRequest with one line
saying what was expected, and nothing changes.
"""

from __future__ import annotations

import json
from typing import Any

from device.panel import PanelEvent


class BadRequest(ValueError):
    """A body that is not what the action takes; the message says what it takes."""


def read_body(raw: bytes, fields: dict[str, type | tuple], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON object in raw with only these fields (name -> type), the required ones present."""
    text = raw.decode("utf-8", errors="strict") if raw else "{}"
    try:
        body = json.loads(text)
    except ValueError:
        raise BadRequest("the body is not JSON") from None
    if not isinstance(body, dict):
        raise BadRequest("the body is not a JSON object")
    unknown = sorted(set(body) - set(fields))
    if unknown:
        known = ", ".join(fields) or "none"
        raise BadRequest(f"unknown field {unknown[0]!r} (known fields: {known})")
    for name in required:
        if name not in body:
            raise BadRequest(f"the field {name!r} is missing")
    for name, value in body.items():
        kinds = fields[name] if isinstance(fields[name], tuple) else (fields[name],)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            raise BadRequest(f"the field {name!r} must be {' or '.join(k.__name__ for k in kinds)}")
    return body


def press_for(action: str, body: dict, *, dial_max: int, sides: int) -> PanelEvent:
    """The panel press a phone's action stands for (claim, muggins, dispute, undo, new-game, go)."""
    if action == "claim":
        points = body["points"]
        if not 0 <= points <= dial_max:
            raise BadRequest(f"a claim is from 0 to {dial_max} points, not {points}")
        return PanelEvent("claim", value=points)
    if action == "muggins":
        side = body["side"]
        if not 0 <= side < sides:
            raise BadRequest(f"Muggins is called by side 0 to {sides - 1}, not {side}")
        return PanelEvent("muggins", player=side)
    if action in ("dispute", "undo"):
        return PanelEvent(action)
    if action == "new-game":
        return PanelEvent("new_game")
    raise BadRequest(f"no action {action!r}")


# action -> (fields, required): what each press's body holds
ACTION_FIELDS: dict[str, tuple[dict[str, type], tuple[str, ...]]] = {
    "claim": ({"points": int}, ("points",)),
    "muggins": ({"side": int}, ("side",)),
    "dispute": ({}, ()),
    "undo": ({}, ()),
    "new-game": ({}, ()),
}
