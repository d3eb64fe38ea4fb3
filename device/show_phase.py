"""The show, docs/DESIGN.md step 5: each count shown from the table, claimed at the panel, checked.

Strictly in order (the rules engine keeps it): non-dealer's hand, dealer's hand, crib. A hand is
shown as soon as its seat holds exactly the cards its player played; the crib when the crib zone
(or, without one, the dealer's seat beside the dealer's hand) holds the crib's cards. Then the counter
dials a claim and presses; the engine judges it (right / over / under). Muggins is taken from the
panel; Dispute reads out the cards seen and the full breakdown. A misread card re-placed before the
claim is shown again. A hand that lies whole but is not the cards played may hold a card misread in
the play: the claim pressed for it asks first, and pressed again puts the device's record of the play
right and counts the hand as it lies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cribbage import events as ev
from cribbage.cards import Card
from cribbage.errors import CribbageError, HandDiffersError, IllegalActionError
from cribbage.game import Game
from cribbage.show_score import score_show
from cribbage.words import number_word
from device import device_events as dev
from device import trouble
from device.seating import Seating
from device.step import Step, Table

if TYPE_CHECKING:
    from device.panel import PanelEvent


class ShowPhase:
    """Counts shown from the table, claimed, judged, disputed; in auto mode counted by the device."""

    def __init__(self, game: Game, seating: Seating, step: Step, *, auto: bool = False):
        self.game, self.seating, self.step, self.auto = game, seating, step, auto
        self._short: tuple | None = None  # (count, cards) of a short count already asked about
        self._differs: tuple | None = None  # (count, cards) of a hand asked about as misread in the play

    def settle(self, table: Table) -> None:
        """Show the count now due once its cards lie on the table; re-show a card re-placed; auto-claim."""
        game = self.game
        turn = game.show_turn
        if turn is None:
            return
        player, crib = turn
        zone, cards = self._zone_cards(table, player, crib)
        shown = self._shown_cards()
        if len(cards) > self._expected(crib):
            what = "crib" if crib else "hand"
            self.step.notice(trouble.wrong_number(player if not crib else game.dealer, what, len(cards),
                                                  self._expected(crib), zone))
            return
        if shown is None or (cards != shown and self._ready(player, crib, cards)):
            if self._ready(player, crib, cards):
                self._show(player, crib, zone, cards)
        if self.auto and self._is_shown() and game.show_turn == turn:
            self.step.act(game.claim, game.correct_count().total)

    def on_dial(self, event: PanelEvent) -> None:
        turn = self.game.show_turn
        if turn is None or self.auto or event.value is None:
            return
        self.step.add(dev.ClaimPreview(turn[0], int(event.value)))

    def on_claim(self, event: PanelEvent, table: Table) -> None:
        game = self.game
        if game.phase == "play" and game.variant.single_series and game.can_end_play():
            # Five-card: one count only; when neither can go nobody plays on, and the first claim
            # pressed says the play is over (in auto mode too: without Go buttons nothing else can).
            self.step.act(game.end_play)
            self.settle(table)
            if self.auto:
                return
        if self.auto:
            # The device claims each count itself, but only the players can say a hand that is not the
            # cards played holds a card misread in the play: that press is answered as in manual mode.
            misread = self._misread_play(table)
            if misread is None:
                self.step.notice(dev.Notice("not-now", "I count the hands myself in auto mode."))
            elif misread == "corrected":
                self.settle(table)
            return
        turn = game.show_turn
        if game.phase != "show" or turn is None:
            self.step.notice(trouble.refused("counts are claimed at the show"))
            return
        player, crib = turn
        if not self._is_shown():
            zone, cards = self._zone_cards(table, player, crib)
            if table.unreadable.get(zone, 0):  # never count a hand with a card unread
                self.step.notice(trouble.unreadable(self._place(zone), zone))
                return
            if not cards:
                what = "the crib" if crib else f"{player}'s hand"
                self.step.notice(dev.Notice(
                    "not-now", f"I can't see {what}: turn it face up {self._place(zone)}.", zone))
                return
            owner, what = (game.dealer, "crib") if crib else (player, "hand")
            want = self._expected(crib)
            if len(cards) < want and self._short != (turn, cards):
                # A card may lie unseen: asked first; the same cards pressed again are counted as they lie.
                self._short = (turn, cards)
                self.step.notice(trouble.too_few(owner, what, len(cards), want, zone))
                return
            if self._misread_play(table) == "asked":
                return
            if len(cards) != want:  # counted as it lies: the rules decide the penalty
                self.step.notice(trouble.wrong_number(owner, what, len(cards), want, zone))
            if not self._show(player, crib, zone, cards):
                return
        self.step.act(game.claim, int(event.value or 0))

    def _misread_play(self, table: Table) -> str | None:
        """A claim pressed for a hand not yet shown that lies whole but is not the cards its player
        played: a card may have been misread in the play and be read rightly now. Asked first
        ("asked"); pressed again with the same cards seen, the device's record of the play is put right
        (Game.correct_play, the play's pegs standing: "corrected"), so the hand can be shown as it
        lies. None: no such hand, or one the record cannot be put right from."""
        game = self.game
        turn = game.show_turn
        if game.phase != "show" or turn is None or turn[1] or self._is_shown():
            return None
        player = turn[0]
        zone, cards = self._zone_cards(table, player, False)
        if table.unreadable.get(zone, 0) or len(cards) != self._expected(False):
            return None
        try:
            game.verify_show(player, tuple(sorted(cards)))
            return None
        except HandDiffersError as exc:
            misread = exc.missing
        except CribbageError:
            return None
        played = game.played(player)
        real = tuple(sorted(c for c in cards if c not in played))
        # A hand with cards left unplayed (five-card's one count) shows more cards never played than were
        # misread: which one was played cannot be told, so the record is not put right on a guess.
        if len(real) != len(misread) or not game.can_correct_play(player, misread, real):
            return None
        if self._differs != (turn, cards):
            self._differs = (turn, cards)
            self.step.notice(trouble.hand_differs(player, tuple(sorted(cards)), played, zone, ask=True))
            return "asked"
        self.step.act(game.correct_play, player, misread, real)
        return "corrected"

    def on_muggins(self, event: PanelEvent) -> None:
        """A Muggins button: event.player is the side whose button it is."""
        game = self.game
        side = event.player
        players = [p for seat, p in enumerate(game.players) if game.variant.side_of(seat) == side]
        if not players:
            return
        for p in players:
            if game.can_muggins(p):
                self.step.act(game.muggins, p)
                return
        try:
            game.verify_muggins(players[0])
        except CribbageError as exc:
            self.step.notice(trouble.refused(f"no muggins, {players[0]}: {exc}"))

    def on_dispute(self, event: PanelEvent) -> None:
        """Read out the cards seen for the count in question and its full breakdown (or the play's count)."""
        game = self.game
        if game.phase == "play":
            series = game.series
            if series:
                names = ", ".join(f"the {c.name}" for c in series)
                text = f"The count is {number_word(game.count)}: {names}."
            else:
                text = f"A fresh count: {game.turn} to lead."
            self.step.add(dev.DisputeReadout(game.turn or "", tuple(str(c) for c in series),
                                             str(game.starter) if game.starter else "", False, game.count, text))
            return
        subject = self._dispute_subject()
        if subject is None:
            self.step.notice(dev.Notice("not-now", "There is no count to dispute yet."))
            return
        player, cards, crib = subject
        self.step.add(readout(player, cards, game.starter, crib))

    # ---- what lies where -------------------------------------------------------------------------

    def _place(self, zone: str) -> str:
        return self.seating.place_words(zone, self.game.dealer)

    def _zone_cards(self, table: Table, player: str, crib: bool) -> tuple[str, frozenset]:
        """The zone where this count lies, and the cards seen there that belong to it."""
        game, seating = self.game, self.seating
        if crib:
            zone = seating.crib_zone(game.dealer)
            cards = table.in_zone(zone)
            if not seating.has_crib_zone:  # crib turned up in the dealer's seat, beside the dealer's hand
                cards = cards - self._dealer_hand()
            return zone, frozenset(cards)
        zone = seating.zone_of(player)
        cards = frozenset(table.in_zone(zone))
        played = set(game.played(player))
        if (not seating.has_crib_zone and player == game.dealer and len(played) == self._expected(False)
                and played < cards):
            cards = frozenset(played)  # the crib turned up early beside the dealer's hand: not the hand
        return zone, cards

    def _dealer_hand(self) -> frozenset:
        """The cards the dealer showed for the hand count, which lie beside the crib in the dealer's seat.

        Not merely the cards played: in five-card the play is one count, and a card left unplayed lies
        there too. The show's order is the hands from the dealer's left round to the dealer, then the
        crib, so the dealer's hand is the last hand shown.
        """
        shown = self.game.state()["shown"] or {}
        return frozenset(shown.get(len(self.game.players) - 1, ()))

    def _is_shown(self) -> bool:
        return self.game.can_claim(0)

    def _shown_cards(self) -> frozenset | None:
        """The cards of the count now due as shown (None before it is): the last show still standing,
        not one an undo withdrew."""
        if not self._is_shown():
            return None
        events = self.game.events
        undone = {e.undone for e in events if isinstance(e, ev.Undone)}
        for e in reversed(events):
            if isinstance(e, ev.HandShown) and e.step not in undone:
                return frozenset(e.cards)
        return None

    def _expected(self, crib: bool) -> int:
        v = self.game.variant
        return v.crib_size if crib else v.hand

    def _ready(self, player: str, crib: bool, cards: frozenset) -> bool:
        """The whole count lies face up: as many cards as it should hold (a hand: at least those played)."""
        if len(cards) != self._expected(crib):
            return False
        if crib:
            return True
        return set(self.game.played(player)) <= cards or len(cards) == self._expected(crib)

    def _show(self, player: str, crib: bool, zone: str, cards) -> bool:
        """Show these cards for the count now due; a hand that is not the cards played is said aloud."""
        game = self.game
        ordered = tuple(sorted(cards))
        try:
            game.verify_show(player, ordered)
        except HandDiffersError:
            asked = self._differs == (game.show_turn, frozenset(cards))  # said again as asked, not plainer
            self.step.notice(trouble.hand_differs(player, ordered, game.played(player), zone, ask=asked))
            return False
        except IllegalActionError as exc:
            self.step.notice(trouble.refused(str(exc), zone))
            return False
        except CribbageError as exc:
            self.step.notice(dev.Notice("duplicate", trouble.refused(str(exc)).text, zone))
            return False
        self.step.act(game.show, player, ordered)
        return True

    def _dispute_subject(self):
        """The count shown now (before its claim), else the last one claimed this round."""
        game = self.game
        if game.starter is None:
            return None
        for e in reversed(game.events):
            if isinstance(e, ev.HandShown):
                return e.player, e.cards, e.crib
            if isinstance(e, (ev.RoundStarted, ev.GameStarted)):
                return None
        return None


def readout(player: str, cards, starter: Card, crib: bool) -> dev.DisputeReadout:
    """A dispute's answer: the cards seen, the starter, and the count's full breakdown."""
    score = score_show(tuple(cards), starter, crib=crib)
    names = ", ".join(f"the {c.name}" for c in cards)
    what = "the crib" if crib else f"{player}'s hand"
    text = (f"I see {what}: {names}, and the starter, the {starter.name}. "
            f"{score.announcement()[0].upper()}{score.announcement()[1:]}.")
    items = tuple(f"{item.kind} {' '.join(str(c) for c in item.cards)} = {item.points}" for item in score.items)
    return dev.DisputeReadout(player, tuple(str(c) for c in cards), str(starter), crib, score.total, text, items)
