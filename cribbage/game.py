"""A game of cribbage as an event-sourced state machine, for every variant: the actions.

Each action comes as a triplet (pokerkit's habit): verify_x(...) raises IllegalActionError or
IllegalPlayError with the reason, can_x(...) answers yes or no, and x(...) performs it and returns
the frozen events it produced. The state changes only by applying events, so Game.from_events(
game.events) rebuilds exactly the same state; undo is itself an event (Undone) that replay honours.

The engine never shuffles: the camera is the dealer. It learns each hand card by card as it is
played, and the crib when it is turned up at the show. Players are named; seats run in the order
given, which is the order of play (to the left).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from . import events as ev
from .cards import JACK, Card, check_unique, parse_cards
from .errors import CribbageError, DuplicateCardError, IllegalActionError, IllegalPlayError, InvalidCardError
from .game_state import PHASES, GameState, Pegs
from .show_score import ShowScore
from .show_state import check_cards, check_crib_cards, count_of, order_error
from .variants import Options, Variant, margin, variant_named

__all__ = ["Game", "Pegs", "PHASES"]


class _GameOver(Exception):
    """Stops an action part way: a peg reached the target, nothing after it counts."""


def _card(card) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def _cards(cards) -> tuple[Card, ...]:
    """Several cards as parse_cards reads them ("3C 4S" or a list), a duplicate left to the caller."""
    if isinstance(cards, Card):
        return (cards,)
    try:
        return parse_cards(cards, unique=False)
    except TypeError:
        raise InvalidCardError(f"not a list of cards: {cards!r:.40}") from None


class Game(GameState):
    """One match of cribbage (a game, then new_game() for the next): actions in, events out."""

    def __init__(self, players: Sequence[str], variant: str | Variant = "six-card",
                 options: Options | None = None):
        variant = variant if isinstance(variant, Variant) else variant_named(variant)
        if variant_named(variant.name) != variant:
            raise CribbageError(f"variant {variant.name!r} differs from the registered one: "
                                f"journals name their variant, so add new ones to VARIANTS")
        players = tuple(players)
        if len(players) != variant.players:
            raise CribbageError(f"{variant.name} is played by {variant.players} players, "
                                f"not {len(players)}")
        if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
            raise CribbageError(f"players need distinct names: {players!r}")
        self._reset_journal()
        self._act(lambda: self._emit(ev.GameStarted(variant.name, players, options or Options())))

    # --- cut for deal -----------------------------------------------------------------------------
    def verify_cut_for_deal(self, player: str, card) -> None:
        self._require_phase("cut", "the dealer is already chosen")
        seat = self._seat(player)
        card = _card(card)
        if seat not in self._cutting:
            raise IllegalActionError(f"{player} is not in the tie: only "
                                     f"{', '.join(self._players[s] for s in self._cutting)} cut again")
        if seat in self._cuts:
            raise IllegalActionError(f"{player} has already cut {self._cuts[seat]}")
        if card in self._cuts.values():
            raise DuplicateCardError(f"{card} was already cut: a deck holds one {card.name}", card)

    def can_cut_for_deal(self, player: str, card) -> bool:
        return self._can(self.verify_cut_for_deal, player, card)

    def cut_for_deal(self, player: str, card) -> tuple[ev.Event, ...]:
        """A player cuts a card for the deal; when all have cut, lowest deals, ties cut again."""
        self.verify_cut_for_deal(player, card)
        return self._act(lambda: self._do_cut(self._seat(player), _card(card)))

    def _do_cut(self, seat: int, card: Card) -> None:
        self._emit(ev.CardCutForDeal(self._players[seat], card))
        if len(self._cuts) < len(self._cutting):
            return
        low = min(c.rank for c in self._cuts.values())
        lowest = [s for s in sorted(self._cuts) if self._cuts[s].rank == low]
        if len(lowest) > 1:
            self._emit(ev.CutTied(tuple(self._players[s] for s in lowest)))
        else:
            self._emit(ev.DealerChosen(self._players[lowest[0]], "lowest cut"))

    def verify_set_dealer(self, player: str) -> None:
        self._require_phase("cut", "the dealer is already chosen")
        self._seat(player)

    def can_set_dealer(self, player: str) -> bool:
        return self._can(self.verify_set_dealer, player)

    def set_dealer(self, player: str) -> tuple[ev.Event, ...]:
        """Choose the first dealer from the panel instead of cutting."""
        self.verify_set_dealer(player)
        return self._act(lambda: self._emit(ev.DealerChosen(player, "set")))

    # --- the deal and the starter -----------------------------------------------------------------
    def verify_start_round(self) -> None:
        if self._phase == "cut":
            raise IllegalActionError("cut for the deal first")
        self._require_phase("deal", "the round in progress is not finished")

    def can_start_round(self) -> bool:
        return self._can(self.verify_start_round)

    def start_round(self) -> tuple[ev.Event, ...]:
        """The cards are dealt (off camera): the first dealer, then the deal passes to the left."""
        self.verify_start_round()
        return self._act(self._do_start_round)

    def _do_start_round(self) -> None:
        dealer = self._seat(self.next_dealer)
        self._emit(ev.RoundStarted(self._players[dealer], self._round_no + 1))
        if self._round_no == 1 and self._variant.three_for_last:
            self._emit(ev.ThreeForLast(self._players[self._left_of(dealer)],
                                       self._variant.three_for_last))

    def verify_turn_starter(self, card) -> None:
        self._require_phase("starter", "the starter is turned after the deal, before the play")
        _card(card)

    def can_turn_starter(self, card) -> bool:
        return self._can(self.verify_turn_starter, card)

    def turn_starter(self, card) -> tuple[ev.Event, ...]:
        """The starter is turned; a jack is two for his heels to the dealer (the game may end)."""
        self.verify_turn_starter(card)
        card = _card(card)

        def run():
            self._emit(ev.StarterTurned(card))
            if card.rank == JACK:
                self._emit(ev.HisHeels(self.dealer, 2))
        return self._act(run)

    # --- the play -----------------------------------------------------------------------------------
    def verify_play(self, player: str, card) -> None:
        self._require_phase("play", "cards are played after the starter, before the show")
        seat = self._seat(player)
        card = _card(card)
        self._check_unseen(card)
        self._play.check_play(seat, card, self._players)

    def can_play(self, player: str, card) -> bool:
        return self._can(self.verify_play, player, card)

    def goes_implied(self, player: str, card) -> tuple[str, ...]:
        """The players a play of this card by player would infer to have said go (see play): those
        its turn passes over, or, where it leads a new count, all still in. Asks, changes nothing."""
        self._require_phase("play", "cards are played after the starter, before the show")
        gone, _ = self._play.goes_before(self._seat(player), _card(card))
        return tuple(self._players[s] for s in gone)

    def play(self, player: str, card) -> tuple[ev.Event, ...]:
        """A card appears face up in player's seat. Go is inferred from the order of the plays."""
        self.verify_play(player, card)
        return self._act(lambda: self._do_play(self._seat(player), _card(card)))

    def _do_play(self, seat: int, card: Card) -> None:
        p = self._play
        gone, count_ends = p.goes_before(seat, card)
        for s in gone:
            self._emit(ev.GoSaid(self._players[s], p.count, True))
        if count_ends:
            self._emit(ev.GoPegged(self._players[p.last], 1, p.count))
        score = p.score_card(card)
        self._emit(ev.CardPlayed(self._players[seat], card, score.count, score.points, score.reasons,
                                 new_series=len(p.series) == 0))
        self._after_play_step(score.count)

    def _after_play_step(self, last_count: int | None) -> None:
        p = self._play
        if p.all_played():
            if p.series:
                self._emit(ev.LastCard(self._players[p.last], 1))
            self._emit(ev.PlayEnded("all cards played"))
        elif p.single_series and last_count == 31:
            self._emit(ev.PlayEnded("one series"))
        elif p.count_is_dead():
            self._emit(ev.GoPegged(self._players[p.last], 1, p.count))
            if p.single_series:
                self._emit(ev.PlayEnded("one series"))

    def verify_say_go(self, player: str) -> None:
        self._require_phase("play", "go is said in the play")
        self._play.check_go(self._seat(player), self._players)

    def can_say_go(self, player: str) -> bool:
        return self._can(self.verify_say_go, player)

    def say_go(self, player: str) -> tuple[ev.Event, ...]:
        """The Go button: player cannot add to the count. When nobody can, the last player pegs."""
        self.verify_say_go(player)

        def run():
            self._emit(ev.GoSaid(player, self._play.count, False))
            self._after_play_step(None)
        return self._act(run)

    def verify_end_play(self) -> None:
        self._require_phase("play", "the play is not in progress")

    def can_end_play(self) -> bool:
        return self._can(self.verify_end_play)

    def end_play(self) -> tuple[ev.Event, ...]:
        """Neither can go (five-card), or a hand ran short: the last player pegs go or last card."""
        self.verify_end_play()

        def run():
            p = self._play
            if p.series:
                # whoever could still add has, in effect, said go; but in five-card the last
                # player is "at liberty" to stop (Encyclopaedia Britannica, 9th ed.)
                for s in p.after(p.last):
                    if p.can_add(s) and not (p.single_series and s == p.last):
                        self._emit(ev.GoSaid(self._players[s], p.count, True))
                last = self._players[p.last]
                self._emit(ev.GoPegged(last, 1, p.count) if p.single_series else ev.LastCard(last, 1))
            self._emit(ev.PlayEnded("declared"))
        return self._act(run)

    # --- the show -----------------------------------------------------------------------------------
    def verify_show(self, player: str, cards) -> None:
        self._require_phase("show", "hands are shown after the play")
        seat = self._seat(player)
        cards = tuple(_card(c) for c in cards)
        check_unique(cards)
        item = self._show.current
        if item is None:
            raise IllegalActionError("every count of this round has been shown")
        if seat != item.seat:
            raise IllegalActionError(order_error(self._show, self._players))
        if item.crib:
            check_crib_cards(cards, {c for hand in self._play.played for c in hand})
        else:
            for other, hand in enumerate(self._play.played):
                clash = [c for c in cards if other != seat and c in hand]
                if clash:
                    raise DuplicateCardError(f"{clash[0]} was played by {self._players[other]}",
                                             clash[0])
        check_cards(self._show, self._play.played[seat], self._play.all_played(), self._starter,
                    cards, player)

    def can_show(self, player: str, cards) -> bool:
        return self._can(self.verify_show, player, cards)

    def show(self, player: str, cards) -> tuple[ev.Event, ...]:
        """The cards of the count now due, as seen: player's hand, or the crib (the dealer's).
        May be repeated before the claim, when a misread card is re-placed; the number of cards
        and any renege are judged at the claim."""
        self.verify_show(player, cards)
        cards = tuple(_card(c) for c in cards)
        return self._act(lambda: self._do_show(self._seat(player), cards))

    def _do_show(self, seat: int, cards: tuple[Card, ...]) -> None:
        self._emit(ev.HandShown(self._players[seat], cards, self._show.current.crib))

    def verify_correct_play(self, player: str, misread, cards) -> None:
        self._require_phase("show", "a card misread in the play is put right at the show, from the hand")
        seat = self._seat(player)
        misread, cards = _cards(misread), _cards(cards)
        item = self._show.current
        if item.crib or item.seat != seat:
            raise IllegalActionError(f"{player}'s play is put right while {player}'s hand is due, before "
                                     f"its claim: {order_error(self._show, self._players)}")
        if not misread:
            raise IllegalActionError("name the cards misread in the play")
        if len(cards) != len(misread):
            raise IllegalActionError(f"{len(misread)} card(s) misread, but {len(cards)} given in their place")
        check_unique(misread)
        check_unique(cards)
        played = self._play.played[seat]
        for card in misread:
            if card not in played:
                raise IllegalActionError(f"{player} is not recorded as playing {card}")
        elsewhere = self._show.seen_elsewhere()
        for card in cards:
            if card in misread:
                raise IllegalActionError(f"{card} is among the cards misread, not a card played in their place")
            if card == self._starter:
                raise DuplicateCardError(f"{card} is the starter: it cannot have been played", card)
            for other, hand in enumerate(self._play.played):
                if card in hand:
                    who = "already" if other == seat else f"by {self._players[other]}"
                    raise DuplicateCardError(f"{card} was played {who} this round", card)
            if card in elsewhere:
                raise DuplicateCardError(f"{card} was already seen in {elsewhere[card]} this round", card)

    def can_correct_play(self, player: str, misread, cards) -> bool:
        return self._can(self.verify_correct_play, player, misread, cards)

    def correct_play(self, player: str, misread, cards) -> tuple[ev.Event, ...]:
        """Cards recorded as played by player were misread: `cards` are what was really played, in the
        same order. Found at the show from the hand as it lies; no peg moves (the play's points were
        judged when the cards were played, and could have been disputed then)."""
        self.verify_correct_play(player, misread, cards)
        misread, cards = _cards(misread), _cards(cards)
        return self._act(lambda: self._emit(ev.PlayCorrected(player, misread, cards)))

    def _check_shown_count(self, seat: int, cards: tuple[Card, ...]) -> None:
        """At the claim, when the cards are final: Hoyle's penalty for a wrong number of cards,
        and any go said while holding a card that fitted (the hand shows what was held)."""
        item = self._show.current
        v, name = self._variant, self._players[seat]
        expected = v.crib_size if item.crib else v.hand
        if len(cards) != expected and self._options.wrong_cards_penalty:
            what = "crib" if item.crib else "hand"
            receiver = self._left_of(self._dealer) if item.crib else self._opponent(seat)
            self._emit(ev.PenaltyPegged(self._players[receiver], self._options.wrong_cards_penalty,
                                        name, "wrong-cards",
                                        f"a {what} of {len(cards)} cards, not {expected}"))
        if item.crib:
            return
        for count, fitted in self._play.reneges(seat, cards):
            self._emit(ev.RenegeFound(name, count, fitted))
            if self._options.renege == "two-per-card":
                self._emit(ev.PenaltyPegged(self._players[self._opponent(seat)], 2 * len(fitted),
                                            name, "renege",
                                            f"go at {count} holding {len(fitted)} card(s) that fitted"))

    def correct_count(self) -> ShowScore:
        """The true count of the hand or crib now due, with its breakdown (for auto mode)."""
        self._require_phase("show", "counts are made at the show")
        cards = self._show.current_cards
        if cards is None:
            raise IllegalActionError("show the cards before they are counted")
        return count_of(cards, self._starter, self._show.current.crib)

    def verify_claim(self, points: int) -> None:
        self._require_phase("show", "counts are claimed at the show")
        if self._show.current_cards is None:
            item = self._show.current
            whose = "the crib" if item.crib else f"{self._players[item.seat]}'s hand"
            raise IllegalActionError(f"{whose} must be shown before it is counted")
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise IllegalActionError(f"a claim is a number of points, not {points!r}")

    def can_claim(self, points: int) -> bool:
        return self._can(self.verify_claim, points)

    def claim(self, points: int) -> tuple[ev.Event, ...]:
        """The counter pegs a claim for the count now due; the engine checks it against the cards."""
        self.verify_claim(points)
        return self._act(lambda: self._do_claim(points))

    def _do_claim(self, claimed: int) -> None:
        item = self._show.current
        name = self._players[item.seat]
        self._check_shown_count(item.seat, self._show.current_cards)
        score = self.correct_count()
        actual = score.total
        verdict = "right" if claimed == actual else ("over" if claimed > actual else "under")
        pegged = min(claimed, actual)
        self._emit(ev.ClaimPegged(name, item.crib, claimed, actual, pegged, verdict, score.items,
                                  score.announcement()))
        if verdict == "over" and self._options.overclaim_penalty:
            self._emit(ev.PenaltyPegged(self._players[self._opponent(item.seat)], claimed - actual,
                                        name, "over-claim", f"{claimed} claimed, {actual} in the "
                                        + ("crib" if item.crib else "hand")))
        elif verdict == "under" and not self._options.muggins:
            self._emit(ev.MissedPointsTold(name, actual - claimed))

    def verify_muggins(self, player: str) -> None:
        seat = self._seat(player)
        if self._phase == "over":
            raise IllegalActionError("the game is over")
        window = self._show.muggins if self._show else None
        if not self._options.muggins:
            raise IllegalActionError("muggins is not being played")
        if window is None:
            raise IllegalActionError("there are no overlooked points to take: muggins is called "
                                     "on the last count, before the next is claimed")
        if self._variant.side_of(seat) == self._variant.side_of(window[0]):
            raise IllegalActionError(f"{player} cannot call muggins on their own side's count")

    def can_muggins(self, player: str) -> bool:
        return self._can(self.verify_muggins, player)

    def muggins(self, player: str) -> tuple[ev.Event, ...]:
        """An opponent calls Muggins on an under-count and pegs the points overlooked."""
        self.verify_muggins(player)
        counter, missed = self._show.muggins
        return self._act(lambda: self._emit(ev.MugginsTaken(player, missed, self._players[counter])))

    # --- a new game, undo ---------------------------------------------------------------------------
    def verify_new_game(self) -> None:
        if self._result is None:
            raise IllegalActionError("the game in progress is not over")

    def can_new_game(self) -> bool:
        return self._can(self.verify_new_game)

    def new_game(self) -> tuple[ev.Event, ...]:
        """The next game of the match: scores back to nothing, the loser of the last game deals."""
        self.verify_new_game()
        won, v = self._seat(self._result.winner), self._variant
        others = [(won + i) % v.players for i in range(1, v.players)]
        # the lowest score; among partners (or a tie) the first to the winner's left
        loser = min(others, key=lambda s: self._pegs[v.side_of(s)].front)

        def run():
            self._emit(ev.GameStarted(v.name, self._players, self._options, self._game_no + 1))
            self._emit(ev.DealerChosen(self._players[loser], "loser of the last game"))
        return self._act(run)

    def verify_undo(self) -> None:
        if self._last_step() is None:
            raise IllegalActionError("there is nothing to undo")

    def can_undo(self) -> bool:
        return self._can(self.verify_undo)

    def undo(self) -> tuple[ev.Event, ...]:
        """Withdraw the last action still standing (e.g. a misread card); recorded as an event."""
        self.verify_undo()
        step = self._last_step()
        return self._act(lambda: self._emit(ev.Undone(step)))

    def _last_step(self) -> int | None:
        steps = [e.step for e in self._journal
                 if not isinstance(e, ev.Undone) and e.step not in self._undone]
        return max(steps) if steps and max(steps) > 1 else None

    # --- machinery ------------------------------------------------------------------------------------
    def _act(self, run) -> tuple[ev.Event, ...]:
        self._step += 1
        start = len(self._journal)
        try:
            run()
        except _GameOver:
            pass
        return tuple(self._journal[start:])

    def _emit(self, event: ev.Event) -> None:
        event = replace(event, step=self._step)
        self._journal.append(event)
        self._apply(event)
        if event.pegs and self._result is None:
            side = self._side(event.player)
            if self._pegs[side].front >= self.target:
                self._emit(self._game_won(event.player))
                raise _GameOver

    def _game_won(self, player: str) -> ev.GameWon:
        side = self._side(player)
        losers = [p.front for i, p in enumerate(self._pegs) if i != side]
        how, points = margin(max(losers), self.target, self._options.ending)
        return ev.GameWon(player, self.sides[side], self.scores, how, points)

    # --- helpers --------------------------------------------------------------------------------------
    def _require_phase(self, phase: str, reason: str) -> None:
        if self._result is not None:
            raise IllegalActionError("the game is over")
        if self._phase != phase:
            raise IllegalActionError(f"{reason} (now: {self._phase})")

    def _check_unseen(self, card: Card) -> None:
        if card == self._starter:
            raise DuplicateCardError(f"{card} is the starter: it cannot be played", card)
        for seat, hand in enumerate(self._play.played):
            if card in hand:
                raise DuplicateCardError(f"{card} was already played by {self._players[seat]} "
                                         f"this round", card)

    @staticmethod
    def _can(verify, *args) -> bool:
        try:
            verify(*args)
        except (IllegalActionError, IllegalPlayError, CribbageError):
            return False
        return True
