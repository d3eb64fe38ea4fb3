"""The play of one round: who may play, the count, and the go read from the order of the plays.

docs/DESIGN.md step 4. Nobody tells the device "go": it follows from the cards. A player who plays out
of turn means those skipped said go. A player who has said go cannot add to that count, so their
next card leads a new one; so does a card that would pass 31 — but only from the player entitled to
lead it. The last player of a count pegs one for go (two for 31 came with the card), and the next
player to their left who still holds cards leads the next. The last card of all pegs one, not on 31.
Five-card cribbage plays one count only.

This module keeps the state (PlayState, changed only by its apply_* methods, which replay uses
too), checks a card or a go (check_*), and works out what a card means (goes_before, score_card)
without changing anything; game.py turns those answers into events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .errors import IllegalActionError, IllegalPlayError, NotYourLeadError, OverCountError
from .play_score import MAX_COUNT, score_play


@dataclass
class GoRecord:
    """A go, kept to find a renege at the show: the cards on the count, and how many cards the
    player had played. The cards, not their sum, so that a card misread in the play and put right
    at the show (apply_correction) puts the go's count right too. implied_by: the card whose value
    passing 31 was all that showed this go (its player led a new count without having said go)."""
    seat: int
    on_count: tuple[Card, ...]
    played_before: int
    implied_by: Card | None = None

    @property
    def count(self) -> int:
        return sum(card.value for card in self.on_count)


@dataclass
class PlayState:
    """The play phase of one round, seat-indexed (seat 0 is the first player in seating order)."""

    players: int
    hand: int
    single_series: bool
    turn: int                                   # who plays next (or leads a fresh count)
    played: list[list[Card]] = field(default_factory=list)
    series: list[tuple[int, Card]] = field(default_factory=list)
    gone: set[int] = field(default_factory=set)  # said go on the current count
    last: int | None = None                      # who played last on the current count
    goes: list[GoRecord] = field(default_factory=list)
    inferred_since_card: list[GoRecord] = field(default_factory=list)
    ended: bool = False

    @classmethod
    def start(cls, players: int, hand: int, single_series: bool, leader: int) -> "PlayState":
        return cls(players, hand, single_series, leader, [[] for _ in range(players)])

    # --- reading --------------------------------------------------------------------------------
    @property
    def count(self) -> int:
        return sum(card.value for _, card in self.series)

    def cards_left(self, seat: int) -> int:
        return self.hand - len(self.played[seat])

    def all_played(self) -> bool:
        return all(self.cards_left(s) <= 0 for s in range(self.players))

    def after(self, seat: int):
        """Seats in turn order after `seat`, ending with `seat` itself."""
        return [(seat + i) % self.players for i in range(1, self.players + 1)]

    def leader_after(self, seat: int) -> int:
        """Who leads a new count when `seat` played last on the old one: the next player to the
        left who still holds cards (seat itself if only it does)."""
        for s in self.after(seat):
            if self.cards_left(s) > 0:
                return s
        return seat

    def can_add(self, seat: int) -> bool:
        return seat not in self.gone and self.cards_left(seat) > 0

    def next_turn(self, seat: int) -> int | None:
        """Who may add to the count after `seat`, or None when nobody can."""
        for s in self.after(seat):
            if self.can_add(s):
                return s
        return None

    def leads_new_count(self, seat: int, card: Card) -> bool:
        """Whether this card starts a fresh count rather than adding to the current one."""
        return bool(self.series) and (seat in self.gone or self.count + card.value > MAX_COUNT)

    # --- checking -------------------------------------------------------------------------------
    def check_play(self, seat: int, card: Card, names) -> None:
        """Raise IllegalPlayError/IllegalActionError with the reason this card cannot be played now."""
        if self.ended:
            raise IllegalActionError("the play is over: the show comes next")
        if self.cards_left(seat) <= 0:
            raise IllegalPlayError(f"{names[seat]} has played all {self.hand} cards of a hand")
        if not self.series:
            if seat != self.turn:
                raise NotYourLeadError(f"it is {names[self.turn]}'s lead", names[self.turn])
            return
        if not self.leads_new_count(seat, card):
            return
        new_count = self.count + card.value
        if self.single_series:
            if new_count > MAX_COUNT:
                raise OverCountError(f"{new_count} is over {MAX_COUNT}: five-card cribbage plays "
                                     f"one count, so the play ends when neither can go", new_count)
            raise IllegalActionError(f"{names[seat]} has said go: five-card cribbage plays one count, "
                                     f"so the play ends when neither can go")
        leader = self.leader_after(self.last)
        if seat != leader:
            if new_count > MAX_COUNT and seat not in self.gone:
                raise OverCountError(f"{new_count} is over {MAX_COUNT}", new_count)
            raise NotYourLeadError(f"it is {names[leader]}'s lead after the go", names[leader])

    def check_go(self, seat: int, names) -> None:
        if self.ended:
            raise IllegalActionError("the play is over: the show comes next")
        if not self.series:
            raise IllegalActionError("nobody says go on a fresh count: any card fits")
        if seat != self.turn:
            raise IllegalActionError(f"it is {names[self.turn]}'s turn, not {names[seat]}'s")

    # --- what an action means (pure) ---------------------------------------------------------------
    def goes_before(self, seat: int, card: Card) -> tuple[list[int], bool]:
        """Players inferred to have said go before this card, and whether the count ends with a go
        point first. A card out of turn: those skipped went. A new count: all still in went."""
        if not self.series:
            return [], False
        if self.leads_new_count(seat, card):
            still_in = [s for s in self.after(self.last) if self.can_add(s)]
            return still_in, True
        skipped = []
        for i in range(self.players):
            s = (self.turn + i) % self.players
            if s == seat:
                break
            if self.can_add(s):
                skipped.append(s)
        return skipped, False

    def score_card(self, card: Card):
        return score_play([c for _, c in self.series] + [card])

    # --- applying events (the only changes) --------------------------------------------------------
    def apply_go(self, seat: int, inferred: bool = False) -> None:
        go = GoRecord(seat, tuple(c for _, c in self.series), len(self.played[seat]))
        self.goes.append(go)
        if inferred:
            self.inferred_since_card.append(go)
        self.gone.add(seat)
        if self.turn == seat:
            nxt = self.next_turn(seat)
            self.turn = nxt if nxt is not None else seat

    def apply_card(self, seat: int, card: Card, count: int) -> None:
        if not self.series and any(go.seat == seat for go in self.inferred_since_card):
            for go in self.inferred_since_card:         # this card passing 31 is what showed them
                go.implied_by = card
        self.inferred_since_card = []
        self.series.append((seat, card))
        self.played[seat].append(card)
        self.last = seat
        if count == MAX_COUNT:
            self._reset()
            return
        nxt = self.next_turn(seat)
        self.turn = nxt if nxt is not None else seat

    def apply_go_pegged(self) -> None:
        self._reset()

    def apply_end(self) -> None:
        self.ended = True

    def apply_correction(self, seat: int, misread: tuple[Card, ...], cards: tuple[Card, ...]) -> None:
        """Cards of this seat's misread in the play put right, each in its counterpart's place, so a
        go's record of how many cards the player had played still holds, and the count of every go
        said over them is the count that really stood. The goes that only a misread card passing 31
        showed are dropped where the real card fitted: its player played on the count. (Such a card
        is its player's lead, so the goes it showed are its player's and those of everyone after.)"""
        real = dict(zip(misread, cards))
        self.played[seat] = [real.get(c, c) for c in self.played[seat]]
        self.series = [(s, real.get(c, c) if s == seat else c) for s, c in self.series]
        for go in self.goes:
            go.on_count = tuple(real.get(c, c) for c in go.on_count)
        for card, real_card in real.items():
            shown = [go for go in self.goes if go.implied_by == card]
            if shown and shown[0].count + real_card.value <= MAX_COUNT:
                self.goes = [go for go in self.goes if go.implied_by != card]
            for go in shown:
                go.implied_by = real_card

    def _reset(self) -> None:
        last = self.last
        self.series.clear()
        self.gone.clear()
        self.turn = self.leader_after(last)

    def count_is_dead(self) -> bool:
        """Nobody can add to the current count: its last player pegs the go at once."""
        return bool(self.series) and self.next_turn(self.last) is None

    def reneges(self, seat: int, shown: tuple[Card, ...]) -> list[tuple[int, tuple[Card, ...]]]:
        """Each go this player said while holding a card that fitted: (count, cards that fitted).
        The cards held at a go are those the player played after it, and any never played."""
        unplayed = tuple(c for c in shown if c not in self.played[seat])
        found = []
        for go in self.goes:
            if go.seat != seat:
                continue
            held = tuple(self.played[seat][go.played_before:]) + unplayed
            fitted = tuple(c for c in held if go.count + c.value <= MAX_COUNT)
            if fitted:
                found.append((go.count, fitted))
        return found
