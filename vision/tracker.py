"""The table tracker: per-frame recognitions in, a stable table state and its changes out.

One frame is not evidence: a hand passing over hides cards, a sleeve looks like a card for a
moment, a card near an edge flickers. A card therefore enters a zone only after it has been seen
there in K of the last N frames, and leaves only after M frames in a row without it. The
controller reads the events (a card appeared in a seat: a play) and never sees the flicker.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Hashable, Iterable, Mapping

import numpy as np

from cribbage.cards import Card
from vision.errors import VisionError
from vision.types import Recognition
from vision.zone_events import APPEARED, DUPLICATE, LEFT, UNREADABLE, ZoneEvent
from vision.zone_names import zone_order
from vision.zones import Zones


class TrackerConfigError(VisionError, ValueError):
    """Tracker thresholds that cannot work; the message says which and why."""


@dataclass(frozen=True)
class TrackerConfig:
    """How much evidence changes the table.

    appear_k of appear_n: a card enters a zone once seen there in K of the last N frames.
    leave_after: a card leaves after this many frames in a row without it. At 5 frames a
        second a hand can hide a card for a second: keep this above that.
    merge_distance: two reads of the same card in one zone whose centres lie closer than this
        fraction of the card's short side are one card read twice, not two cards.
    """

    appear_k: int = 3
    appear_n: int = 4
    leave_after: int = 6
    merge_distance: float = 0.5

    def __post_init__(self) -> None:
        if not 1 <= self.appear_k <= self.appear_n:
            raise TrackerConfigError(f"appear_k must be 1..appear_n ({self.appear_n}), got {self.appear_k}")
        if self.leave_after < 1:
            raise TrackerConfigError(f"leave_after must be at least 1 frame, got {self.leave_after}")
        if self.merge_distance < 0:
            raise TrackerConfigError(f"merge_distance must be >= 0, got {self.merge_distance}")

    @classmethod
    def from_config(cls, config: Mapping) -> "TrackerConfig":
        """From the config's tracker table; unknown keys and non-numbers are named in the error."""
        known = {"appear_k": int, "appear_n": int, "leave_after": int, "merge_distance": float}
        unknown = sorted(set(config) - set(known))
        if unknown:
            raise TrackerConfigError(f"unknown tracker setting {', '.join(unknown)}: it takes {', '.join(known)}")
        values = {}
        for key, kind in known.items():
            if key in config:
                try:
                    values[key] = kind(config[key])
                except (TypeError, ValueError):
                    raise TrackerConfigError(f"tracker setting {key} must be a number, got {config[key]!r}") from None
        return cls(**values)

    @property
    def hold_frames(self) -> int:
        """Frames a steady table must hold to be fully reflected in the state: max(N, M)."""
        return max(self.appear_n, self.leave_after)


@dataclass(frozen=True)
class TableState:
    """What stably lies on the table: the cards read in each zone, and how many unreadable ones."""

    cards: Mapping[str, frozenset[Card]]
    unreadable: Mapping[str, int]

    def __hash__(self) -> int:
        return hash((frozenset(self.cards.items()), frozenset(self.unreadable.items())))

    def in_zone(self, zone: str) -> frozenset[Card]:
        return self.cards.get(zone, frozenset())

    def zone_of(self, card: Card) -> str | None:
        """The zone holding the card (the first, if it lies in two)."""
        return next((zone for zone, cards in self.cards.items() if card in cards), None)

    @property
    def all_cards(self) -> frozenset[Card]:
        return frozenset().union(*self.cards.values()) if self.cards else frozenset()

    def to_dict(self) -> dict:
        return {zone: {"cards": sorted(str(c) for c in cards), "unreadable": self.unreadable.get(zone, 0)}
                for zone, cards in self.cards.items()}


@dataclass
class _Track:
    """Evidence about one thing (a card in a zone, or the i-th unreadable card in a zone)."""

    seen: deque = field(default_factory=deque)
    stable: bool = False
    absent_run: int = 0

    def push(self, seen: bool, n: int) -> None:
        self.seen.append(seen)
        while len(self.seen) > n:
            self.seen.popleft()
        self.absent_run = 0 if seen else self.absent_run + 1

    def forget(self) -> None:
        self.seen.clear()
        self.stable = False

    @property
    def count(self) -> int:
        return sum(self.seen)


def _short_side(quad: np.ndarray) -> float:
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    edges = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    return float(min(edges[0] + edges[2], edges[1] + edges[3]) / 2)


class TableTracker:
    """Feed it each frame's recognitions with `update`; read `state`, act on the returned events.

    Frames that are dark or missing should not be fed: a dark frame would look like an empty
    table. A card's zone is the zone holding its centre; cards outside every zone are ignored.
    """

    def __init__(self, zones: Zones, config: TrackerConfig | None = None) -> None:
        self.zones = zones
        self.config = config or TrackerConfig()
        self.reset()

    def reset(self) -> None:
        """Forget everything: the table is empty until cards are seen again."""
        self._cards: dict[tuple[str, Card], _Track] = {}
        self._blanks: dict[tuple[str, int], _Track] = {}
        self._dups: dict[Card, _Track] = {}
        self._dup_reported: set[Card] = set()
        self._dup_zones: dict[Card, tuple[str, str]] = {}
        self.frames = 0

    # --- one frame ---------------------------------------------------------------------------

    def update(self, recognitions: Iterable[Recognition], timestamp: float) -> list[ZoneEvent]:
        """Take one frame's recognitions; return the changes to the stable table, in order."""
        places, blanks = self._observe(recognitions)
        self.frames += 1
        events: list[ZoneEvent] = []
        self._step(self._cards, set(places), timestamp, events, card_of=lambda key: key[1])
        seen_blanks = {(zone, i) for zone, n in blanks.items() for i in range(n)}
        self._step(self._blanks, seen_blanks, timestamp, events, card_of=lambda key: None)
        self._resolve_blanks(events, blanks, timestamp)
        self._duplicates(places, timestamp, events)
        return events

    def _resolve_blanks(self, events: list[ZoneEvent], blanks: Counter, timestamp: float) -> None:
        """A card read at last replaces an unreadable one no longer seen in its zone, at once.

        Otherwise the zone would hold both for leave_after frames: one card counted twice."""
        for event in list(events):
            if event.kind != APPEARED:
                continue
            unseen = sorted((i for (zone, i), t in self._blanks.items()
                             if zone == event.zone and t.stable and i >= blanks[zone]), reverse=True)
            if unseen:
                self._blanks[(event.zone, unseen[0])].forget()
                events.append(ZoneEvent(LEFT, event.zone, None, timestamp))

    def _observe(self, recognitions: Iterable[Recognition]) -> tuple[list[tuple[str, Card]], Counter]:
        """Zone and card of every recognition, same-card double reads merged."""
        found: list[tuple[str, Card, tuple[float, float], float]] = []
        blanks: Counter = Counter()
        for rec in recognitions:
            centre = rec.centre
            zone = self.zones.zone_of(centre)
            if zone is None:
                continue
            if rec.card is None:
                blanks[zone] += 1
                continue
            reach = self.config.merge_distance * _short_side(rec.quad)
            if any(z == zone and c == rec.card and np.hypot(centre[0] - p[0], centre[1] - p[1]) < max(reach, r)
                   for z, c, p, r in found):
                continue
            found.append((zone, rec.card, centre, reach))
        return [(zone, card) for zone, card, _, _ in found], blanks

    def _step(self, tracks: dict, seen: set, timestamp: float, events: list[ZoneEvent], card_of) -> None:
        cfg = self.config
        for key in seen:
            tracks.setdefault(key, _Track())
        for key, track in tracks.items():
            track.push(key in seen, cfg.appear_n)
        for key in sorted(tracks, key=_order):
            track = tracks[key]
            if track.stable and track.absent_run >= cfg.leave_after:
                track.forget()
                events.append(self._event(LEFT, key, card_of, timestamp))
        for key in sorted(tracks, key=_order):
            track = tracks[key]
            if track.stable or track.count < cfg.appear_k:
                continue
            card = card_of(key)
            if card is not None:       # a card now stably elsewhere, and not seen where it was: it moved
                for (zone, other), old in sorted(tracks.items(), key=lambda kv: _order(kv[0])):
                    if other == card and zone != key[0] and old.stable and (zone, other) not in seen:
                        old.forget()
                        events.append(ZoneEvent(LEFT, zone, card, timestamp))
            track.stable = True
            events.append(self._event(APPEARED if card is not None else UNREADABLE, key, card_of, timestamp))
        for key in [k for k, t in tracks.items() if not t.stable and not any(t.seen)]:
            del tracks[key]

    @staticmethod
    def _event(kind: str, key, card_of, timestamp: float) -> ZoneEvent:
        return ZoneEvent(kind, key[0], card_of(key), timestamp)

    def _duplicates(self, places: list[tuple[str, Card]], timestamp: float, events: list[ZoneEvent]) -> None:
        cfg = self.config
        zones_of: dict[Card, list[str]] = {}
        for zone, card in places:
            zones_of.setdefault(card, []).append(zone)
        twice = {card: zones for card, zones in zones_of.items() if len(zones) > 1}
        for card in twice:
            self._dups.setdefault(card, _Track())
        for card in sorted(self._dups, key=lambda c: c.index):
            track = self._dups[card]
            track.push(card in twice, cfg.appear_n)
            if card in twice:
                self._dup_zones[card] = tuple(sorted(twice[card], key=zone_order)[:2])
            if card not in self._dup_reported and track.count >= cfg.appear_k:
                self._dup_reported.add(card)
                first, second = self._dup_zones[card]
                events.append(ZoneEvent(DUPLICATE, first, card, timestamp, other_zone=second))
            elif card in self._dup_reported and track.absent_run >= cfg.leave_after:
                self._dup_reported.discard(card)
                track.forget()
            if not track.stable and not any(track.seen) and card not in self._dup_reported:
                del self._dups[card]
                self._dup_zones.pop(card, None)

    # --- reading the table --------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        """The stable table now: every zone present, empty or not."""
        cards: dict[str, set[Card]] = {zone: set() for zone in self.zones.names}
        for (zone, card), track in self._cards.items():
            if track.stable:
                cards[zone].add(card)
        unreadable = {zone: 0 for zone in self.zones.names}
        for (zone, _), track in self._blanks.items():
            if track.stable:
                unreadable[zone] += 1
        return TableState(MappingProxyType({z: frozenset(c) for z, c in cards.items()}),
                          MappingProxyType(unreadable))


def _order(key: tuple[str, Hashable]) -> tuple:
    zone, what = key
    return (zone_order(zone), what.index if isinstance(what, Card) else what)
