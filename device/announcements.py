"""What the device says aloud and shows for each journaled event.

Every event gets two texts: `spoken` (for the voice; empty when nothing needs saying) and `shown`
(one line for the terminal or a log, with the cards and the points). The words spoken for game
events are the rules engine's own (cribbage.narration.spoken), so the voice and the tests agree;
this module adds the shown lines, and both texts for the device's own events (notices, read-outs).
"""

from __future__ import annotations

from dataclasses import dataclass

from cribbage import events as ev
from cribbage.narration import spoken as narrate
from cribbage.words import number_word
from cribbage.cards import Card, format_cards
from device import device_events as dev


@dataclass(frozen=True)
class Announcement:
    spoken: str
    shown: str


def card_words(card: Card) -> str:
    return card.name


def points_words(n: int) -> str:
    return f"{number_word(n)} point" + ("" if n == 1 else "s")


def announce(event, *, muggins: bool = True) -> Announcement:
    """The spoken and shown texts for one journaled event (a game event or a device event).

    muggins: whether Muggins is played (then an under-count is not corrected aloud)."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        return Announcement("", type(event).__name__)
    spoken, shown = handler(event)
    if isinstance(event, ev.Event):
        words = narrate(event, muggins=muggins)
        spoken = _sentence(words) if words else ""
    return Announcement(spoken, shown)


def _sentence(words: str) -> str:
    words = words[0].upper() + words[1:]
    return words if words[-1] in ".!?" else words + "."


def _game_started(e: ev.GameStarted):
    players = " against ".join(e.players)
    return (f"New game. {players}.", f"game {e.game_no}: {e.variant}, {players}")


def _cut(e: ev.CardCutForDeal):
    return (f"{e.player} cuts the {card_words(e.card)}.", f"{e.player} cuts {e.card}")


def _cut_tied(e: ev.CutTied):
    who = " and ".join(e.players)
    return (f"A tie. {who}, cut again.", f"cut tied: {who} cut again")


def _dealer(e: ev.DealerChosen):
    return (f"{e.player} deals.", f"{e.player} deals ({e.reason})")


def _round(e: ev.RoundStarted):
    return (f"{e.dealer}'s deal.", f"round {e.round_no}: {e.dealer} deals; lay away, then turn the starter")


def _three_for_last(e: ev.ThreeForLast):
    return (f"Three for last to {e.player}.", f"{e.player} pegs {e.points} for last")


def _starter(e: ev.StarterTurned):
    return (f"The starter is the {card_words(e.card)}.", f"starter {e.card}")


def _heels(e: ev.HisHeels):
    return (f"Two for his heels to {e.player}.", f"{e.player} pegs {e.points}: his heels")


def _go_said(e: ev.GoSaid):
    how = "(inferred)" if e.inferred else "(Go button)"
    return ("Go.", f"{e.player} says go at {e.count} {how}")


def _card_played(e: ev.CardPlayed):
    words = e.announcement()
    shown = f"{e.player} plays {e.card}: {e.count}"
    if e.points:
        shown += f", pegs {e.points} ({', '.join(e.reasons)})"
    if e.new_series:
        shown += " [new count]"
    return (words[0].upper() + words[1:], shown)


def _go_pegged(e: ev.GoPegged):
    return (f"One for the go to {e.player}.", f"{e.player} pegs {e.points} for the go at {e.count}")


def _last_card(e: ev.LastCard):
    return (f"One for last card to {e.player}.", f"{e.player} pegs {e.points} for last card")


def _play_ended(e: ev.PlayEnded):
    return ("The show.", f"the play is over ({e.reason}); the show, non-dealer first")


def _hand_shown(e: ev.HandShown):
    what = "crib" if e.crib else "hand"
    return ("", f"{e.player}'s {what}: {format_cards(e.cards)}")


def _claim(e: ev.ClaimPegged):
    what = "crib" if e.crib else "hand"
    if e.verdict == "over":
        spoken = f"{number_word(e.claimed).capitalize()} claimed, {number_word(e.actual)} in the {what}."
        if e.announcement:
            spoken += f" {e.announcement[0].upper()}{e.announcement[1:]}."
        return (spoken, f"{e.player} claims {e.claimed} for the {what}: over-claim, {e.actual} pegged")
    if e.verdict == "under":
        return (f"{e.player} pegs {number_word(e.points)}.",
                f"{e.player} claims {e.claimed} for the {what}: pegged")
    text = e.announcement or number_word(e.actual)
    return (f"{text[0].upper()}{text[1:]}.", f"{e.player} claims {e.claimed} for the {what}: right")


def _missed(e: ev.MissedPointsTold):
    return (f"{e.player}, you missed {points_words(e.points)}. Peg them.",
            f"{e.player} missed {e.points}: pegged to {e.player}")


def _muggins(e: ev.MugginsTaken):
    return (f"Muggins! {e.player} takes {points_words(e.points)} from {e.counter}.",
            f"muggins: {e.player} pegs {e.points} overlooked by {e.counter}")


def _renege(e: ev.RenegeFound):
    cards = " or ".join(f"the {card_words(c)}" for c in e.cards)
    return (f"{e.player} said go at {number_word(e.count)} holding {cards}.",
            f"{e.player} said go at {e.count} holding {format_cards(e.cards)}, which fitted")


def _penalty(e: ev.PenaltyPegged):
    return (f"Penalty: {e.player} pegs {number_word(e.points)}. {e.reason}",
            f"penalty ({e.kind}): {e.player} pegs {e.points} from {e.offender}: {e.reason}")


def _won(e: ev.GameWon):
    scores = " to ".join(str(s) for s in sorted(e.scores, reverse=True))
    spoken = f"{e.winner} wins, {scores}."
    if e.margin == "lurch":
        spoken += " A lurch!"
    elif e.margin in ("skunk", "double skunk"):
        spoken += f" A {e.margin}!"
    return (spoken, f"game over: {e.winner} wins {scores} ({e.margin}, {e.game_points} game"
                    f"{'' if e.game_points == 1 else 's'})")


def _undone(e: ev.Undone):
    return ("Undone.", f"undone: action {e.undone}")


def _notice(e: dev.Notice):
    return (e.text, f"! {e.text}")


def _preview(e: dev.ClaimPreview):
    return ("", f"{e.player} dials {e.points}")


def _readout(e: dev.DisputeReadout):
    what = "crib" if e.crib else "hand"
    items = "; ".join(e.items) if e.items else "nothing scores"
    return (e.text, f"dispute: {e.player}'s {what} {' '.join(e.cards)} + starter {e.starter} = {e.total}: {items}")


def _cleared(e: dev.TableCleared):
    return ("", "the table is clear")


_HANDLERS = {
    ev.GameStarted: _game_started, ev.CardCutForDeal: _cut, ev.CutTied: _cut_tied,
    ev.DealerChosen: _dealer, ev.RoundStarted: _round, ev.ThreeForLast: _three_for_last,
    ev.StarterTurned: _starter, ev.HisHeels: _heels, ev.GoSaid: _go_said, ev.CardPlayed: _card_played,
    ev.GoPegged: _go_pegged, ev.LastCard: _last_card, ev.PlayEnded: _play_ended,
    ev.HandShown: _hand_shown, ev.ClaimPegged: _claim, ev.MissedPointsTold: _missed,
    ev.MugginsTaken: _muggins, ev.RenegeFound: _renege, ev.PenaltyPegged: _penalty, ev.GameWon: _won,
    ev.Undone: _undone,
    dev.Notice: _notice, dev.ClaimPreview: _preview, dev.DisputeReadout: _readout,
    dev.TableCleared: _cleared,
}
