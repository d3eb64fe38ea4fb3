"""A table and panel for controller tests: cards put and taken per zone, as the tracker would report."""

from __future__ import annotations

from types import MappingProxyType

from cribbage.cards import Card
from device.config import GameConfig
from device.controller import Controller
from device.journal import JOURNAL_NAME, Journal
from device.panel import PanelEvent
from vision.tracker import TableState
from vision.zone_events import ZoneEvent

ZONES = ("seat:0", "seat:1", "centre")


def late_game(rules: GameConfig, scores: tuple[int, int]):
    """The events of a game begun whose sides already hold these scores (pegged as penalties)."""
    from dataclasses import replace

    from cribbage.events import PenaltyPegged

    game = rules.new_game()
    events = list(game.events)
    for step, (player, points) in enumerate(zip(rules.players, scores), start=2):
        if points:
            events.append(replace(PenaltyPegged(player, points, rules.players[1 - rules.players.index(player)],
                                                "wrong-cards", "set up for a test"), step=step))
    return events


class Spy:
    """A presenter that records what it was shown, and how much the journal held at that moment."""

    def __init__(self, journal):
        self.journal = journal
        self.shown = []
        self.journal_len_when_shown = []
        self.restored = []

    def restore(self, records):
        self.restored = list(records)

    def present(self, seq, record, scores=None):
        self.shown.append(record)
        self.journal_len_when_shown.append((seq, len(self.journal)))


class Table:
    def __init__(self, tmp_path, rules: GameConfig | None = None, zones=ZONES, name=JOURNAL_NAME,
                 scores: tuple[int, int] | None = None):
        self.rules = rules or GameConfig()
        self.path = tmp_path / name
        self.zones = zones
        self.cards = {z: [] for z in zones}
        self.unreadable = {z: 0 for z in zones}
        self.journal = Journal.open(self.path, self.rules.to_dict())
        if scores is not None:  # a game already well on: its journal holds the points so far
            self.journal.append([e.to_dict() for e in late_game(self.rules, scores)])
        self.spy = Spy(self.journal)
        self.ctl = Controller(self.rules, self.journal, self.spy, zones=zones)
        self.ctl.start()

    @property
    def game(self):
        return self.ctl.game

    def state(self) -> TableState:
        return TableState(MappingProxyType({z: frozenset(c) for z, c in self.cards.items()}),
                          MappingProxyType(dict(self.unreadable)))

    def put(self, zone: str, *cards: str):
        changes = []
        for text in cards:
            card = Card.parse(text)
            self.cards[zone].append(card)
            changes.append(ZoneEvent("appeared", zone, card, 0.0))
        return self.ctl.on_table(changes, self.state())

    def take(self, zone: str, *cards: str):
        changes = []
        for text in cards:
            card = Card.parse(text)
            self.cards[zone].remove(card)
            changes.append(ZoneEvent("left", zone, card, 0.0))
        return self.ctl.on_table(changes, self.state())

    def blur(self, zone: str):
        self.unreadable[zone] += 1
        return self.ctl.on_table([ZoneEvent("unreadable", zone, None, 0.0)], self.state())

    def duplicate(self, zone: str, card: str, other: str):
        return self.ctl.on_table([ZoneEvent("duplicate", zone, Card.parse(card), 0.0, other_zone=other)],
                                 self.state())

    def clear(self):
        changes = [ZoneEvent("left", z, c, 0.0) for z, cs in self.cards.items() for c in cs]
        self.cards = {z: [] for z in self.zones}
        self.unreadable = {z: 0 for z in self.zones}
        return self.ctl.on_table(changes, self.state())

    def press(self, kind: str, player: int | None = None, value: int | None = None):
        return self.ctl.on_panel(PanelEvent(kind, player=player, value=value))

    def claim(self, points: int):
        self.press("dial", value=points)
        return self.press("claim", value=points)

    def said(self) -> list[str]:
        from device.announcements import announce

        return [announce(r).spoken for r in self.spy.shown if announce(r).spoken]

    def types(self) -> list[str]:
        return [type(r).__name__ for r in self.spy.shown]

    def notices(self) -> list[str]:
        return [r.kind for r in self.spy.shown if type(r).__name__ == "Notice"]

    def deal_to(self, dealer_seat: int = 0):
        """Cut so that `dealer_seat` deals, gather the cut, and start the round."""
        low, high = ("AC", "KD") if dealer_seat == 0 else ("KD", "AC")
        self.put("seat:0", low)
        self.put("seat:1", high)
        self.clear()
        assert self.game.phase == "starter"
