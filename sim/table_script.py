"""A simulated table: a whole game's worth of table happenings and panel presses, from a seed.

The rules engine's autoplay deals from a shuffled deck, lays away, plays and shows on a shadow game;
this module turns what it did into what a camera and a panel would see, step by step:

- TableStep: the table now looks like this (face-up cards per zone, in the order laid), possibly
  with one card in shadow (unreadable) or the whole table too dark;
- PressStep: a press on the panel (dial, claim, muggins, dispute).

It also scripts what a real table brings: the cut for deal, cards gathered between rounds, a right
claim, an over-claim, an under-claim taken by Muggins, a dispute, a card played past 31 or out of
turn and taken back, a card in the dark and a dark table. The shadow game's end is what the
device should reach when it reads the table right (`Script.expected`), peg by peg (`Script.pegs`).

Every variant is scripted: in five-card the one count ends with the players pressing Go (the
panel's optional Go buttons) and the cards not played are turned up for the show; with a crib
zone (crib_zone=True) the crib is turned up there, else beside the dealer's hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cribbage import events as ev
from cribbage.autoplay import Autoplay
from cribbage.cards import Card
from cribbage.errors import CribbageError, NotYourLeadError, OverCountError
from cribbage.play_score import MAX_COUNT
from device.panel import PanelEvent
from vision.zone_names import CENTRE, CRIB, seat


@dataclass(frozen=True)
class TableStep:
    """The table as it now lies. zones: (zone, cards in the order laid) pairs.

    shadow: a card lying in the dark (drawn so it cannot be read); dark: the whole frame too dark."""

    zones: tuple[tuple[str, tuple[Card, ...]], ...]
    note: str = ""
    shadow: Card | None = None
    dark: bool = False

    def cards(self, zone: str) -> tuple[Card, ...]:
        return dict(self.zones).get(zone, ())


@dataclass(frozen=True)
class PressStep:
    event: PanelEvent
    note: str = ""


@dataclass
class Script:
    steps: list
    expected: dict  # the shadow game's result: scores by side, winner
    players: tuple[str, ...]
    pegs: tuple[tuple[str, int], ...] = ()  # every count of the shadow game, in order: (player, points)

    def table_before(self, index: int) -> tuple[int, TableStep] | None:
        """(its step number, the table) as it lay after the steps before `index` (None: nothing yet)."""
        for i in range(index - 1, -1, -1):
            step = self.steps[i]
            if isinstance(step, TableStep) and not step.dark:
                return i, step
        return None


@dataclass
class _Plan:
    """Which scripted extras are still to come."""

    over: bool = True
    under: bool = True
    dispute: bool = True
    past_31: bool = True
    wrong_leader: bool = True
    shadow: bool = True
    dark: bool = True


class _Table:
    """Cards on the table per zone; every change is written as a TableStep."""

    def __init__(self, zones: tuple[str, ...], steps: list):
        self.zones = zones
        self.steps = steps
        self.cards: dict[str, list[Card]] = {z: [] for z in zones}

    def snapshot(self, note: str, **extra) -> TableStep:
        return TableStep(tuple((z, tuple(c)) for z, c in self.cards.items() if c), note, **extra)

    def put(self, zone: str, card: Card, note: str) -> None:
        self.cards[zone].append(card)
        self.steps.append(self.snapshot(note))

    def take(self, zone: str, card: Card, note: str) -> None:
        self.cards[zone].remove(card)
        self.steps.append(self.snapshot(note))

    def clear(self, note: str) -> None:
        for z in self.cards:
            self.cards[z] = []
        self.steps.append(self.snapshot(note))


class _ScriptedBot(Autoplay):
    """Autoplay that also writes the table and panel happenings of every action it takes."""

    def __init__(self, rng, game, table: _Table, plan: _Plan):
        # five-card's one count ends when neither can go: the players say so with the Go buttons
        super().__init__(rng, game, go_buttons=game.variant.single_series)
        self.table = table
        self.plan = plan
        self.deal_now = None
        self.round_plays = 0

    # every game action goes through here
    def do(self, name: str, *args):
        g = self.game
        if name == "cut_for_deal":
            player, card = args[0], Card.parse(str(args[1]))
            self.table.put(seat(g.players.index(player)), card, f"{player} cuts")
            events = super().do(name, *args)
            if any(isinstance(e, ev.CutTied) for e in events):
                self.table.clear("the tied cuts are gathered")
            return events
        if name == "turn_starter":
            card = Card.parse(str(args[0]))
            self.table.put(CENTRE, card, "the starter is turned")
            return super().do(name, *args)
        if name == "play":
            player, card = args[0], Card.parse(str(args[1]))
            self._mistakes_before(player, card)
            zone = seat(g.players.index(player))
            self.round_plays += 1
            if self.plan.shadow and g.round_no >= 1 and self.round_plays == 3:
                self.plan.shadow = False
                self.table.steps.append(self._with_card(zone, card, "a card laid in the dark", shadow=card))
            if self.plan.dark and g.round_no >= 2 and self.round_plays == 5:
                self.plan.dark = False
                self.table.steps.append(self.table.snapshot("the lamp goes out", dark=True))
            self.table.put(zone, card, f"{player} plays")
            return super().do(name, *args)
        if name == "say_go":
            player = args[0]
            self.table.steps.append(PressStep(PanelEvent("go", player=g.players.index(player)),
                                              f"{player} presses Go"))
            return super().do(name, *args)
        return super().do(name, *args)

    def _with_card(self, zone: str, card: Card, note: str, **extra) -> TableStep:
        cards = {z: list(c) for z, c in self.table.cards.items()}
        cards[zone].append(card)
        return TableStep(tuple((z, tuple(c)) for z, c in cards.items() if c), note, **extra)

    def _mistakes_before(self, player: str, card: Card) -> None:
        """Now and then a player first lays a card the rules refuse, hears why, and takes it back."""
        g, deal = self.game, self.deal_now
        if deal is None:
            return
        for other in g.players:
            held = [c for c in deal.hands[g.players.index(other)] if c not in g.played(other) and c != card]
            for wrong in held:
                if g.can_play(other, wrong):
                    continue
                try:
                    g.verify_play(other, wrong)
                except CribbageError as exc:
                    refusal = exc
                else:
                    continue
                zone = seat(g.players.index(other))
                if self.plan.past_31 and g.count + wrong.value > MAX_COUNT and isinstance(refusal, OverCountError):
                    self.plan.past_31 = False
                elif self.plan.wrong_leader and not g.series and isinstance(refusal, NotYourLeadError):
                    self.plan.wrong_leader = False
                else:
                    continue
                self.table.put(zone, wrong, f"{other} lays the {wrong} by mistake")
                self.table.take(zone, wrong, f"{other} takes the {wrong} back")
                return

    def play_round(self) -> None:
        g = self.game
        self.do("start_round")
        if g.is_over:
            return
        self.deal_now = self.deal()
        self.round_plays = 0
        self.do("turn_starter", self.deal_now.starter)
        if g.is_over:
            return
        self.play_cards(self.deal_now)
        if g.is_over:
            return
        self.show_and_count(self.deal_now)
        if not g.is_over:
            self.table.clear("the cards are gathered for the next deal")

    def show_and_count(self, deal) -> None:
        g, steps = self.game, self.table.steps
        while g.phase == "show" and g.show_turn is not None:
            player, is_crib = g.show_turn
            cards = deal.crib if is_crib else deal.hands[g.players.index(player)]
            zone = seat(g.players.index(player))
            if is_crib:
                for card in cards:
                    self.table.put(CRIB if CRIB in self.table.zones else zone, card, "the crib is turned up")
            else:  # five-card: the cards not played are turned up for the show
                for card in cards:
                    if card not in self.table.cards[zone]:
                        self.table.put(zone, card, f"{player} turns up the rest of the hand")
            Autoplay.do(self, "show", player, [str(c) for c in cards])
            if g.is_over:
                return
            actual = g.correct_count().total
            claim, kind = actual, "right"
            if self.plan.over and g.round_no >= 1 and actual <= 20:
                claim, kind, self.plan.over = actual + 2, "over", False
            elif self.plan.under and g.round_no >= 2 and actual >= 4:
                claim, kind, self.plan.under = actual - 2, "under", False
            if self.plan.dispute and g.round_no >= 3:
                self.plan.dispute = False
                steps.append(PressStep(PanelEvent("dispute"), f"someone disputes {player}'s count"))
            steps.append(PressStep(PanelEvent("dial", value=claim), f"{player} dials {claim}"))
            steps.append(PressStep(PanelEvent("claim", value=claim), f"{player} claims {claim} ({kind})"))
            Autoplay.do(self, "claim", claim)
            if g.is_over:
                return
            if kind == "under":
                taker = next(p for p in g.players if g.can_muggins(p))
                side = g.variant.side_of(g.players.index(taker))
                steps.append(PressStep(PanelEvent("muggins", player=side), f"{taker} calls muggins"))
                Autoplay.do(self, "muggins", taker)
                if g.is_over:
                    return


def build_script(seed: int, rules, *, crib_zone: bool = False) -> Script:
    """The whole game's happenings for this seed, played on a shadow game with these rules (on a
    table with a crib zone, or with the crib turned up beside the dealer's hand)."""
    game = rules.new_game()
    steps: list = []
    players = game.players
    zones = tuple(seat(i) for i in range(len(players))) + (CENTRE,) + ((CRIB,) if crib_zone else ())
    table = _Table(zones, steps)
    bot = _ScriptedBot(random.Random(seed), game, table, _Plan())
    bot.cut_for_deal()
    table.clear("the cut cards go back in the pack")
    for _ in range(200):
        if game.is_over:
            break
        bot.play_round()
    expected = {"scores": {" & ".join(side): score for side, score in zip(game.sides, game.scores)},
                "winner": game.winner}
    return Script(steps, expected, players, pegs_of(game.events))


def pegs_of(events) -> tuple[tuple[str, int], ...]:
    """Every count a game's events pegged, in order: (player, points)."""
    return tuple(e.pegs for e in events if e.pegs is not None)
