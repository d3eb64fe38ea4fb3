"""Whole legal games played by the computer, from a seeded Random: for property tests and the demo.

The table is simulated honestly: a shuffled deck is dealt, each player lays away at random, plays a
random card that fits when it is their turn (and says go otherwise, aloud or with the Go button),
and shows and claims their count (now and then wrongly, if asked). The game engine only sees what the
camera and the buttons would tell it. The result is the finished Game and the list of actions, each
a method name of Game and its arguments as text, so the same game can be driven again elsewhere.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from . import events as ev
from .cards import FULL_DECK, Card
from .game import Game
from .play_score import MAX_COUNT
from .variants import Options, Variant, variant_named


@dataclass(frozen=True)
class Action:
    """One call on a Game: its method name and arguments (cards as text)."""
    name: str
    args: tuple = ()

    def to_dict(self) -> dict:
        return {"action": self.name, "args": list(self.args)}

    def apply(self, game: Game) -> tuple[ev.Event, ...]:
        return getattr(game, self.name)(*self.args)


@dataclass(frozen=True)
class Deal:
    """The cards of one round as the dealer's shuffle left them."""
    hands: tuple[tuple[Card, ...], ...]   # kept cards, by seat
    crib: tuple[Card, ...]
    starter: Card


@dataclass
class Autoplay:
    """Plays games on a Game, recording every action. Use play_game(); read .game and .actions."""

    rng: random.Random
    game: Game
    go_buttons: bool = False          # players press Go instead of the engine inferring it
    claim_errors: float = 0.0         # chance that a claim is wrong (over or under)
    muggins_calls: float = 0.5        # chance that an opponent calls Muggins on an under-count
    actions: list[Action] = field(default_factory=list)

    def do(self, name: str, *args) -> tuple[ev.Event, ...]:
        action = Action(name, tuple(str(a) if isinstance(a, Card) else a for a in args))
        self.actions.append(action)
        return action.apply(self.game)

    def play_game(self, max_rounds: int = 200) -> Game:
        g = self.game
        if g.phase == "cut":
            self.cut_for_deal()
        for _ in range(max_rounds):
            if g.is_over:
                break
            self.play_round()
        return g

    def cut_for_deal(self) -> None:
        g = self.game
        while g.phase == "cut":
            deck = list(FULL_DECK)
            self.rng.shuffle(deck)
            for player in g.players:
                if g.can_cut_for_deal(player, deck[-1]):
                    self.do("cut_for_deal", player, deck.pop())

    def deal(self) -> Deal:
        """Shuffle, deal, and lay away at random, as players at the table would."""
        g, v = self.game, self.game.variant
        deck = list(FULL_DECK)
        self.rng.shuffle(deck)
        hands, crib = [], []
        for _ in g.players:
            dealt = [deck.pop() for _ in range(v.dealt)]
            self.rng.shuffle(dealt)
            hands.append(tuple(dealt[:v.hand]))
            crib += dealt[v.hand:]
        crib += [deck.pop() for _ in range(v.crib_from_pack)]
        return Deal(tuple(hands), tuple(crib), deck.pop())

    def play_round(self) -> None:
        g = self.game
        self.do("start_round")
        if g.is_over:
            return
        deal = self.deal()
        self.do("turn_starter", deal.starter)
        if g.is_over:
            return
        self.play_cards(deal)
        if g.is_over:
            return
        self.show_and_count(deal)

    def play_cards(self, deal: Deal) -> None:
        """Each player in turn plays a random card that fits, or goes; the engine follows."""
        g, v = self.game, self.game.variant
        held = {p: list(deal.hands[s]) for s, p in enumerate(g.players)}
        gone: set[str] = set()
        while g.phase == "play":
            start = g.players.index(g.turn)
            order = [g.players[(start + i) % v.players] for i in range(v.players)]
            moved = False
            for p in order:
                if p in gone or not held[p]:
                    continue
                fits = [c for c in held[p] if g.count + c.value <= MAX_COUNT]
                if fits:
                    card = self.rng.choice(fits)
                    held[p].remove(card)
                    events = self.do("play", p, card)
                    moved = True
                    break
                gone.add(p)
                if self.go_buttons and g.can_say_go(p):
                    events = self.do("say_go", p)
                    moved = True
                    break
            if not moved:
                # nobody can add: the last player pegs the go; the next leads (or the play ends)
                if v.single_series:
                    events = self.do("end_play")
                else:
                    leader = g.turn if not g.series else self._leader(held)
                    card = self.rng.choice(held[leader])
                    held[leader].remove(card)
                    events = self.do("play", leader, card)
            if any(isinstance(e, ev.GoPegged) or (isinstance(e, ev.CardPlayed)
                   and (e.new_series or e.count == MAX_COUNT)) for e in events):
                gone = set()   # a fresh count: everyone may play again

    def _leader(self, held: dict[str, list[Card]]) -> str:
        g = self.game
        last = g.events[-1]
        for e in reversed(g.events):
            if isinstance(e, ev.CardPlayed):
                last = e
                break
        seat = g.players.index(last.player)
        for i in range(1, len(g.players) + 1):
            p = g.players[(seat + i) % len(g.players)]
            if held[p]:
                return p
        return last.player

    def show_and_count(self, deal: Deal) -> None:
        g = self.game
        while g.phase == "show" and g.show_turn is not None:
            player, is_crib = g.show_turn
            cards = deal.crib if is_crib else deal.hands[g.players.index(player)]
            self.do("show", player, [str(c) for c in cards])
            if g.is_over:
                return
            actual = g.correct_count().total
            claim = actual
            if self.rng.random() < self.claim_errors:
                claim = max(0, actual + self.rng.choice((-3, -2, -1, 1, 2)))
            self.do("claim", claim)
            if g.is_over:
                return
            if claim < actual and self.rng.random() < self.muggins_calls:
                takers = [p for p in g.players if g.can_muggins(p)]
                if takers:
                    self.do("muggins", self.rng.choice(takers))
                    if g.is_over:
                        return


DEFAULT_NAMES = {2: ("North", "South"), 3: ("Ann", "Bob", "Cy"), 4: ("North", "East", "South", "West")}


def autoplay(rng: random.Random, variant: str | Variant = "six-card", options: Options | None = None,
             *, players=None, go_buttons: bool = False, claim_errors: float = 0.0,
             ) -> tuple[Game, list[Action]]:
    """Play one whole legal game; return the finished Game and the actions that drove it
    (replay them with Action.apply on Game(players, variant, options))."""
    v = variant if isinstance(variant, Variant) else variant_named(variant)
    players = tuple(players) if players else DEFAULT_NAMES[v.players]
    bot = Autoplay(rng, Game(players, v, options), go_buttons=go_buttons, claim_errors=claim_errors)
    bot.play_game()
    return bot.game, bot.actions
