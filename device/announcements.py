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
from cribbage.cards import format_cards
from device import device_events as dev


@dataclass(frozen=True)
class Announcement:
    spoken: str
    shown: str


def announce(event, *, muggins: bool = True) -> Announcement:
    """The spoken and shown texts for one journaled event (a game event or a device event).

    muggins: whether Muggins is played (then an under-count is not corrected aloud)."""
    if isinstance(event, ev.Event):
        shown = _SHOWN.get(type(event))
        if shown is None:
            return Announcement("", type(event).__name__)
        words = narrate(event, muggins=muggins)
        return Announcement(_sentence(words) if words else "", shown(event))
    texts = _DEVICE_TEXTS.get(type(event))
    if texts is None:
        return Announcement("", type(event).__name__)
    return Announcement(*texts(event))


def _sentence(words: str) -> str:
    words = words[0].upper() + words[1:]
    return words if words[-1] in ".!?" else words + "."


# ---- the shown line of each game event (its spoken words are cribbage.narration's) ----------

def _game_started(e: ev.GameStarted) -> str:
    return f"game {e.game_no}: {e.variant}, {' against '.join(e.players)}"


def _cut(e: ev.CardCutForDeal) -> str:
    return f"{e.player} cuts {e.card}"


def _cut_tied(e: ev.CutTied) -> str:
    return f"cut tied: {' and '.join(e.players)} cut again"


def _dealer(e: ev.DealerChosen) -> str:
    return f"{e.player} deals ({e.reason})"


def _round(e: ev.RoundStarted) -> str:
    return f"round {e.round_no}: {e.dealer} deals; lay away, then turn the starter"


def _three_for_last(e: ev.ThreeForLast) -> str:
    return f"{e.player} pegs {e.points} for last"


def _starter(e: ev.StarterTurned) -> str:
    return f"starter {e.card}"


def _heels(e: ev.HisHeels) -> str:
    return f"{e.player} pegs {e.points}: his heels"


def _go_said(e: ev.GoSaid) -> str:
    how = "(inferred)" if e.inferred else "(Go button)"
    return f"{e.player} says go at {e.count} {how}"


def _card_played(e: ev.CardPlayed) -> str:
    shown = f"{e.player} plays {e.card}: {e.count}"
    if e.points:
        shown += f", pegs {e.points} ({', '.join(e.reasons)})"
    if e.new_series:
        shown += " [new count]"
    return shown


def _go_pegged(e: ev.GoPegged) -> str:
    return f"{e.player} pegs {e.points} for the go at {e.count}"


def _last_card(e: ev.LastCard) -> str:
    return f"{e.player} pegs {e.points} for last card"


def _play_ended(e: ev.PlayEnded) -> str:
    return f"the play is over ({e.reason}); the show, non-dealer first"


def _hand_shown(e: ev.HandShown) -> str:
    return f"{e.player}'s {'crib' if e.crib else 'hand'}: {format_cards(e.cards)}"


def _play_corrected(e: ev.PlayCorrected) -> str:
    return (f"{e.player}'s play put right: {format_cards(e.cards)} played, misread as {format_cards(e.misread)}; "
            f"the play's pegs stand")


def _claim(e: ev.ClaimPegged) -> str:
    what = "crib" if e.crib else "hand"
    if e.verdict == "over":
        return f"{e.player} claims {e.claimed} for the {what}: over-claim, {e.actual} pegged"
    if e.verdict == "under":
        return f"{e.player} claims {e.claimed} for the {what}: pegged"
    return f"{e.player} claims {e.claimed} for the {what}: right"


def _missed(e: ev.MissedPointsTold) -> str:
    return f"{e.player} missed {e.points}: pegged to {e.player}"


def _muggins(e: ev.MugginsTaken) -> str:
    return f"muggins: {e.player} pegs {e.points} overlooked by {e.counter}"


def _renege(e: ev.RenegeFound) -> str:
    return f"{e.player} said go at {e.count} holding {format_cards(e.cards)}, which fitted"


def _penalty(e: ev.PenaltyPegged) -> str:
    return f"penalty ({e.kind}): {e.player} pegs {e.points} from {e.offender}: {e.reason}"


def _won(e: ev.GameWon) -> str:
    scores = " to ".join(str(s) for s in sorted(e.scores, reverse=True))
    games = f"{e.game_points} game{'' if e.game_points == 1 else 's'}"
    return f"game over: {e.winner} wins {scores} ({e.margin}, {games})"


def _undone(e: ev.Undone) -> str:
    return f"undone: action {e.undone}"


# ---- both texts of the device's own events -----------------------------------------------------

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


_SHOWN = {
    ev.GameStarted: _game_started, ev.CardCutForDeal: _cut, ev.CutTied: _cut_tied,
    ev.DealerChosen: _dealer, ev.RoundStarted: _round, ev.ThreeForLast: _three_for_last,
    ev.StarterTurned: _starter, ev.HisHeels: _heels, ev.GoSaid: _go_said, ev.CardPlayed: _card_played,
    ev.GoPegged: _go_pegged, ev.LastCard: _last_card, ev.PlayEnded: _play_ended,
    ev.HandShown: _hand_shown, ev.PlayCorrected: _play_corrected, ev.ClaimPegged: _claim,
    ev.MissedPointsTold: _missed, ev.MugginsTaken: _muggins, ev.RenegeFound: _renege,
    ev.PenaltyPegged: _penalty, ev.GameWon: _won, ev.Undone: _undone,
}

_DEVICE_TEXTS = {
    dev.Notice: _notice, dev.ClaimPreview: _preview, dev.DisputeReadout: _readout,
    dev.TableCleared: _cleared,
}
