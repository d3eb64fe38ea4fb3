"""Events the device itself adds to the journal beside the game's: notices, claim previews, dispute
read-outs, a cleared table.

They are journaled like game events (so a restart knows what was already said and what the dial
showed) but never change the score. Same shape as cribbage.events: frozen, `to_dict()` with a
"type", and `record_from_dict` rebuilds either kind.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from cribbage.events import EVENT_TYPES, Event, event_from_dict


@dataclass(frozen=True)
class DeviceEvent:
    def to_dict(self) -> dict:
        d = {"type": type(self).__name__}
        for f in fields(self):
            value = getattr(self, f.name)
            d[f.name] = list(value) if isinstance(value, tuple) else value
        return d

    @property
    def pegs(self):
        return None


@dataclass(frozen=True)
class Notice(DeviceEvent):
    """Something the players should put right, said and shown.

    kind: 'unreadable', 'too-few', 'dark', 'duplicate', 'over-31', 'wrong-leader', 'wrong-player', 'wrong-cards',
    'hand-differs', 'not-now', 'camera', 'clear-table', 'misread' ...; zone: the table zone it is about.
    """

    kind: str
    text: str
    zone: str | None = None


@dataclass(frozen=True)
class ClaimPreview(DeviceEvent):
    """The counting player turned the dial: the board previews this many points (nothing pegged yet)."""

    player: str
    points: int


@dataclass(frozen=True)
class DisputeReadout(DeviceEvent):
    """Dispute pressed: the cards the device sees for the count in question and the full breakdown."""

    player: str
    cards: tuple[str, ...]
    starter: str
    crib: bool
    total: int
    text: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class TableCleared(DeviceEvent):
    """The cards of the last round (or the cut) have been gathered: the next cards belong to a new deal."""


DEVICE_EVENT_TYPES: dict[str, type[DeviceEvent]] = {
    cls.__name__: cls for cls in (Notice, ClaimPreview, DisputeReadout, TableCleared)}


def record_from_dict(d: dict) -> Event | DeviceEvent:
    """A journaled record back as an event: a game event (cribbage.events) or a device event."""
    kind = d.get("type")
    if kind in DEVICE_EVENT_TYPES:
        cls = DEVICE_EVENT_TYPES[kind]
        kwargs = {}
        for f in fields(cls):
            if f.name in d:
                value = d[f.name]
                kwargs[f.name] = tuple(value) if isinstance(value, list) else value
        return cls(**kwargs)
    if kind in EVENT_TYPES:
        return event_from_dict(d)
    from device.errors import JournalError
    raise JournalError(f"the journal holds a record this version does not know: {str(d)[:80]}")
