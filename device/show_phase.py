"""The show, DESIGN.md step 5: each count shown from the table, claimed at the panel, checked.

Strictly in order (the rules engine keeps it): non-dealer's hand, dealer's hand, crib. A hand is
shown as soon as its seat holds exactly the cards its player played; the crib when the crib zone
(or, without one, the dealer's seat beside the dealer's hand) holds the crib's cards. Then the counter
dials a claim and presses; the engine judges it (right / over / under). Muggins is taken from the
panel; Dispute reads out the cards seen and the full breakdown. A misread card re-placed before the
claim is shown again.
"""

from __future__ import annotations

from cribbage import events as ev
from cribbage.words import number_word
from cribbage.cards import Card
from cribbage.errors import CribbageError, HandDiffersError, IllegalActionError
from cribbage.show import score_show
from device import device_events as dev
from device import trouble


def _zone_cards(ctl, player: str, crib: bool) -> tuple[str, frozenset]:
    """The zone where this count lies, and the cards seen there that belong to it."""
    if crib:
        zone = ctl.crib_zone()
        cards = ctl.table.in_zone(zone)
        if not ctl.has_crib_zone:  # crib turned up in the dealer's seat, beside the dealer's hand
            cards = cards - set(ctl.game.played(player))
        return zone, frozenset(cards)
    zone = ctl.zone_of_player(player)
    cards = frozenset(ctl.table.in_zone(zone))
    played = set(ctl.game.played(player))
    if (not ctl.has_crib_zone and player == ctl.game.dealer and len(played) == _expected(ctl, False)
            and played < cards):
        cards = frozenset(played)  # the crib turned up early beside the dealer's hand: not the hand
    return zone, cards


def _is_shown(ctl) -> bool:
    return ctl.game.can_claim(0)


def _shown_cards(ctl) -> frozenset | None:
    if not _is_shown(ctl):
        return None
    for e in reversed(ctl.game.events):
        if isinstance(e, ev.HandShown):
            return frozenset(e.cards)
    return None


def _expected(ctl, crib: bool) -> int:
    v = ctl.game.variant
    return v.crib_size if crib else v.hand


def _ready(ctl, player: str, crib: bool, cards: frozenset) -> bool:
    """The whole count lies face up: as many cards as it should hold (a hand: at least those played)."""
    if len(cards) != _expected(ctl, crib):
        return False
    if crib:
        return True
    return set(ctl.game.played(player)) <= cards or len(cards) == _expected(ctl, crib)


def settle(ctl) -> None:
    """Show the count now due once its cards lie on the table; re-show a card re-placed; auto-claim."""
    game = ctl.game
    turn = game.show_turn
    if turn is None:
        return
    player, crib = turn
    zone, cards = _zone_cards(ctl, player, crib)
    shown = _shown_cards(ctl)
    if len(cards) > _expected(ctl, crib):
        what = "crib" if crib else "hand"
        ctl.notice(trouble.wrong_number(player if not crib else game.dealer, what, len(cards),
                                        _expected(ctl, crib), zone))
        return
    if shown is None or (cards != shown and _ready(ctl, player, crib, cards)):
        if _ready(ctl, player, crib, cards):
            show(ctl, player, crib, zone, cards)
    if ctl.rules.mode == "auto" and _is_shown(ctl) and game.show_turn == turn:
        ctl.act(game.claim, game.correct_count().total)


def show(ctl, player: str, crib: bool, zone: str, cards) -> bool:
    """Show these cards for the count now due; a hand that is not the cards played is said aloud."""
    game = ctl.game
    ordered = tuple(sorted(cards))
    try:
        game.verify_show(player, ordered)
    except HandDiffersError:
        ctl.notice(trouble.hand_differs(player, ordered, game.played(player), zone))
        return False
    except IllegalActionError as exc:
        ctl.notice(trouble.refused(str(exc), zone))
        return False
    except CribbageError as exc:
        ctl.notice(dev.Notice("duplicate", trouble.refused(str(exc)).text, zone))
        return False
    ctl.act(game.show, player, ordered)
    return True


def on_dial(ctl, event) -> None:
    turn = ctl.game.show_turn
    if turn is None or ctl.rules.mode == "auto" or event.value is None:
        return
    ctl.add(dev.ClaimPreview(turn[0], int(event.value)))


def on_claim(ctl, event) -> None:
    game = ctl.game
    if ctl.rules.mode == "auto":
        ctl.notice(dev.Notice("not-now", "I count the hands myself in auto mode."))
        return
    if game.phase == "play" and game.variant.single_series and game.can_end_play():
        # Five-card: one count only; when neither can go nobody plays on, and the first claim
        # pressed says the play is over.
        ctl.act(game.end_play)
        ctl.settle_show()
    turn = game.show_turn
    if game.phase != "show" or turn is None:
        ctl.notice(trouble.refused("counts are claimed at the show"))
        return
    player, crib = turn
    if not _is_shown(ctl):
        zone, cards = _zone_cards(ctl, player, crib)
        if ctl.table.unreadable.get(zone, 0):  # never count a hand with a card unread
            ctl.notice(trouble.unreadable(ctl.place_words(zone), zone))
            return
        if not cards:
            what = "the crib" if crib else f"{player}'s hand"
            ctl.notice(dev.Notice("not-now", f"I can't see {what}: turn it face up {ctl.place_words(zone)}.",
                                  zone))
            return
        if len(cards) != _expected(ctl, crib):  # counted as it lies: the rules decide the penalty
            ctl.notice(trouble.wrong_number(game.dealer if crib else player, "crib" if crib else "hand",
                                            len(cards), _expected(ctl, crib), zone))
        if not show(ctl, player, crib, zone, cards):
            return
    ctl.act(game.claim, int(event.value or 0))


def on_muggins(ctl, event) -> None:
    """A Muggins button: event.player is the side whose button it is."""
    game = ctl.game
    side = event.player
    players = [p for seat, p in enumerate(game.players) if game.variant.side_of(seat) == side]
    if not players:
        return
    for p in players:
        if game.can_muggins(p):
            ctl.act(game.muggins, p)
            return
    try:
        game.verify_muggins(players[0])
    except CribbageError as exc:
        ctl.notice(trouble.refused(f"no muggins, {players[0]}: {exc}"))


def on_dispute(ctl, event) -> None:
    """Read out the cards seen for the count in question and its full breakdown (or the play's count)."""
    game = ctl.game
    if game.phase == "play":
        series = game.series
        if series:
            names = ", ".join(f"the {c.name}" for c in series)
            text = f"The count is {number_word(game.count)}: {names}."
        else:
            text = f"A fresh count: {game.turn} to lead."
        ctl.add(dev.DisputeReadout(game.turn or "", tuple(str(c) for c in series),
                                   str(game.starter) if game.starter else "", False, game.count, text))
        return
    subject = _dispute_subject(ctl)
    if subject is None:
        ctl.notice(dev.Notice("not-now", "There is no count to dispute yet."))
        return
    player, cards, crib = subject
    ctl.add(readout(player, cards, game.starter, crib))


def _dispute_subject(ctl):
    """The count shown now (before its claim), else the last one claimed this round."""
    game = ctl.game
    if game.starter is None:
        return None
    for e in reversed(game.events):
        if isinstance(e, ev.HandShown):
            return e.player, e.cards, e.crib
        if isinstance(e, (ev.RoundStarted, ev.GameStarted)):
            return None
    return None


def readout(player: str, cards, starter: Card, crib: bool) -> dev.DisputeReadout:
    score = score_show(tuple(cards), starter, crib=crib)
    names = ", ".join(f"the {c.name}" for c in cards)
    what = "the crib" if crib else f"{player}'s hand"
    text = (f"I see {what}: {names}, and the starter, the {starter.name}. "
            f"{score.announcement()[0].upper()}{score.announcement()[1:]}.")
    items = tuple(f"{item.kind} {' '.join(str(c) for c in item.cards)} = {item.points}" for item in score.items)
    return dev.DisputeReadout(player, tuple(str(c) for c in cards), str(starter), crib, score.total, text, items)
