"""From a card appearing on the table to a game action: the cut for deal, the starter, the play.

docs/DESIGN.md steps 1-4. Only appearances matter here: a card that leaves (picked up, turned face down
after a go) is remembered by the game, never un-played. A card the rules refuse (past 31, the
wrong leader, a card already played) gets a notice saying what is wrong and is left for the player
to take back (in five-card's one count a card past 31 may instead be laid for the show); it is tried
again only when it is placed again.

Go is read from the order of the plays (Game.goes_implied): a card laid out of turn means the
players it passes over said go, and one leading a new count that all still in did. Not while another
of those players has a card in their seat that could not be read: that card may be their play.
Such a card is held, the unread card named, and played once that seat holds no unread card (read at
last, or taken away). A held card is not journaled: after a restart it is played only when placed
again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from cribbage.cards import Card
from cribbage.errors import DuplicateCardError, IllegalActionError, IllegalPlayError, NotYourLeadError
from cribbage.game import Game
from cribbage.play_score import MAX_COUNT
from cribbage.words import number_word
from device import device_events as dev
from device import trouble
from device.seating import Seating
from device.step import Step, Table
from vision.zone_events import APPEARED, DUPLICATE, UNREADABLE, ZoneEvent
from vision.zone_names import CENTRE

if TYPE_CHECKING:
    from device.panel import PanelEvent


class PlayPhase:
    """The cut for deal, the starter and the play, read from cards appearing in the zones."""

    def __init__(self, game: Game, seating: Seating, step: Step):
        self.game, self.seating, self.step = game, seating, step
        self.held: list[tuple[str, str, Card]] = []  # (player, zone, card) waiting on an unread card

    def in_turn_order(self, changes: Iterable[ZoneEvent]) -> list[ZoneEvent]:
        """Changes in the order the table most likely saw them.

        Two cards can become readable in the same frame (a hand hid the first, or it was read only at
        the second look). In the play they are taken starting from the player whose turn it is, round
        the table; the starter (centre) before any seat. Otherwise the tracker's order is kept.
        """
        changes = list(changes)
        appeared = [c for c in changes if c.kind == APPEARED and c.card is not None]
        if len(appeared) < 2:
            return changes
        players = self.game.players
        turn = self.game.turn
        first = players.index(turn) if turn in players else 0

        def rank(change):
            if change.kind != APPEARED or change.card is None:
                return (-1, 0)  # unreadable/left/duplicate news first, as the tracker gave it
            seat = self.seating.player_at(change.zone)
            if seat is None:
                return (0, 0)   # the starter before any play
            return (1, (players.index(seat) - first) % len(players))

        return sorted(changes, key=rank)  # stable: same-seat cards keep the tracker's order

    def on_change(self, change: ZoneEvent, table: Table) -> None:
        """One change of the stable table (table: the table as it stands after this step's changes)."""
        if self.game.is_over:
            return
        if change.kind == UNREADABLE:
            self.step.notice(trouble.unreadable(self._place(change.zone), change.zone))
        elif change.kind == DUPLICATE:
            self.step.notice(trouble.seen_twice(
                change.card, (self._place(change.zone), self._place(change.other_zone or change.zone)),
                change.zone))
        elif change.kind == APPEARED and change.card is not None:
            self._card_appeared(change.zone, change.card, table)
            if self.held:  # laid before any card still to come in this step: they follow it at once
                self.release_held(table)

    def on_go(self, event: PanelEvent) -> None:
        """A Go button (seat number in event.player)."""
        players = self.game.players
        if event.player is None or not 0 <= event.player < len(players):
            return
        player = players[event.player]
        try:
            self.game.verify_say_go(player)
        except (IllegalActionError, IllegalPlayError) as exc:
            self.step.notice(trouble.refused(str(exc), self.seating.zone_of(player)))
            return
        self.step.act(self.game.say_go, player)

    def release_held(self, table: Table) -> None:
        """Play the held cards still on the table, in the order they were laid, where no seat they
        would pass over holds an unread card any more (each is held again otherwise)."""
        held, self.held = self.held, []
        if self.game.phase != "play":
            return
        for player, zone, card in held:
            if card not in table.in_zone(zone):
                continue  # taken back while held
            if self._unread_seat_passed_over(player, card, table) is not None:
                self.held.append((player, zone, card))  # still waiting; the unread card was named once
            else:
                self._play_card(player, zone, card, table)

    def start_round_when_clear(self, table: Table) -> None:
        """Between deals: once the last round's cards (or the cut) are gathered, the next deal begins."""
        if any(table.cards.get(z) for z in table.cards) or any(table.unreadable.get(z) for z in table.unreadable):
            return
        self.step.add(dev.TableCleared())
        self.step.act(self.game.start_round)

    def _place(self, zone: str) -> str:
        return self.seating.place_words(zone, self.game.dealer)

    def _unread_seat_passed_over(self, player: str, card: Card, table: Table) -> str | None:
        """The seat zone of another player this card would infer to have said go (Game.goes_implied)
        who has an unread card there: it may be that player's play."""
        for other in self.game.goes_implied(player, card):
            zone = self.seating.zone_of(other)
            if other != player and zone is not None and table.unreadable.get(zone, 0):
                return zone
        return None

    def _card_appeared(self, zone: str, card: Card, table: Table) -> None:
        game, phase = self.game, self.game.phase
        player = self.seating.player_at(zone)
        if phase == "cut":
            if player is not None:
                self.step.act(game.cut_for_deal, player, card)
        elif phase == "starter":
            if zone == CENTRE:
                self.step.act(game.turn_starter, card)
            elif player is not None:
                self.step.notice(dev.Notice(
                    "not-now", f"Turn the starter first, {player}: the play starts after it.", zone))
        elif phase == "play":
            if player is not None:
                self._play_card(player, zone, card, table)
        # at the show whole zones are read (ShowPhase.settle), not single cards

    def _play_card(self, player: str, zone: str, card: Card, table: Table) -> None:
        """A card in player's seat during the play: a play, a card held while a player it would pass
        over has an unread card, or a mistake said aloud."""
        game = self.game
        if card in game.played(player):
            return  # seen again (turned back up, or a flicker of the tracker): already played
        unread = self._unread_seat_passed_over(player, card, table)
        if unread is not None:
            if (player, zone, card) not in self.held:
                self.held.append((player, zone, card))
            self.step.notice(trouble.unreadable(self._place(unread), unread))
            return
        try:
            game.verify_play(player, card)
        except IllegalPlayError as exc:
            count = game.count + card.value
            if count > MAX_COUNT and game.variant.single_series:
                self.step.notice(_past_31_in_one_count(player, card, count, zone))
            elif count > MAX_COUNT:
                self.step.notice(trouble.past_31(player, card, count, zone))
            else:
                self.step.notice(trouble.refused(str(exc), zone))
            return
        except DuplicateCardError as exc:
            self.step.notice(dev.Notice("duplicate", f"{_sentence(str(exc))} Take it back.", zone))
            return
        except NotYourLeadError as exc:
            self.step.notice(trouble.wrong_leader(player, exc.leader, card, zone))
            return
        except IllegalActionError as exc:
            self.step.notice(trouble.not_your_turn(player, card, zone, str(exc)))
            return
        self.step.act(game.play, player, card)


def _past_31_in_one_count(player: str, card: Card, count: int, zone: str) -> dev.Notice:
    """Five-card's one count: a card that fits nowhere is a mistake, or laid for the show because
    nobody can go (without Go buttons the device cannot tell which), so "take it back" is not always right."""
    return dev.Notice("over-31", f"{player}, the {card.name} takes the count to {number_word(count)}, past "
                                 "thirty-one. Take it back if you can still go; if nobody can, the play is "
                                 "over: leave it for the show and press Claim.", zone)


def _sentence(text: str) -> str:
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."
