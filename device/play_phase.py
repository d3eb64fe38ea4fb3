"""From a card appearing on the table to a game action: the cut for deal, the starter, the play.

DESIGN.md steps 1-4. Only appearances matter here: a card that leaves (picked up, turned face down
after a go) is remembered by the game, never un-played. A card the rules refuse (past 31, the
wrong leader, a card already played) gets a notice saying what is wrong and is left for the player
to take back; it is tried again only when it is placed again.
"""

from __future__ import annotations

from cribbage.errors import DuplicateCardError, IllegalActionError, IllegalPlayError, NotYourLeadError
from cribbage.play import MAX_COUNT
from device import device_events as dev
from device import trouble
from vision.zone_events import APPEARED, DUPLICATE, UNREADABLE
from vision.zone_names import CENTRE


def on_change(ctl, change) -> None:
    """One change of the stable table."""
    if ctl.game.is_over:
        return
    if change.kind == UNREADABLE:
        ctl.notice(trouble.unreadable(ctl.place_words(change.zone), change.zone))
    elif change.kind == DUPLICATE:
        ctl.notice(trouble.seen_twice(change.card, (ctl.place_words(change.zone),
                                                    ctl.place_words(change.other_zone or change.zone)),
                                      change.zone))
    elif change.kind == APPEARED and change.card is not None:
        card_appeared(ctl, change.zone, change.card)


def in_turn_order(ctl, changes):
    """Changes in the order the table most likely saw them.

    Two cards can become readable in the same frame (a hand hid the first, or it was read only at
    the second look). In the play they are taken starting from the player whose turn it is, round
    the table; the starter (centre) before any seat. Otherwise the tracker's order is kept.
    """
    changes = list(changes)
    appeared = [c for c in changes if c.kind == APPEARED and c.card is not None]
    if len(appeared) < 2:
        return changes
    players = ctl.players
    turn = ctl.game.turn
    first = players.index(turn) if turn in players else 0

    def rank(change):
        if change.kind != APPEARED or change.card is None:
            return (-1, 0)  # unreadable/left/duplicate news first, as the tracker gave it
        seat = ctl.player_at(change.zone)
        if seat is None:
            return (0, 0)   # the starter before any play
        return (1, (players.index(seat) - first) % len(players))

    return sorted(changes, key=rank)  # stable: same-seat cards keep the tracker's order


def card_appeared(ctl, zone: str, card) -> None:
    game, phase = ctl.game, ctl.game.phase
    player = ctl.player_at(zone)
    if phase == "cut":
        if player is not None:
            ctl.act(game.cut_for_deal, player, card)
    elif phase == "starter":
        if zone == CENTRE:
            ctl.act(game.turn_starter, card)
        elif player is not None:
            ctl.notice(dev.Notice("not-now", f"Turn the starter first, {player}: the play starts after it.",
                                  zone))
    elif phase == "play":
        if player is not None:
            play_card(ctl, player, zone, card)
    elif phase == "show":
        pass  # the show reads whole zones (show_phase.settle), not single cards


def play_card(ctl, player: str, zone: str, card) -> None:
    """A card in player's seat during the play: a play, or a mistake said aloud."""
    game = ctl.game
    if card in game.played(player):
        return  # seen again (turned back up, or a flicker of the tracker): already played
    try:
        game.verify_play(player, card)
    except IllegalPlayError as exc:
        count = game.count + card.value
        if count > MAX_COUNT:
            ctl.notice(trouble.past_31(player, card, count, zone))
        else:
            ctl.notice(trouble.refused(str(exc), zone))
        return
    except DuplicateCardError as exc:
        ctl.notice(dev.Notice("duplicate", f"{_sentence(str(exc))} Take it back.", zone))
        return
    except NotYourLeadError as exc:
        ctl.notice(trouble.wrong_leader(player, exc.leader, card, zone))
        return
    except IllegalActionError as exc:
        ctl.notice(trouble.not_your_turn(player, card, zone, str(exc)))
        return
    ctl.act(game.play, player, card)


def on_go(ctl, event) -> None:
    """A Go button (seat number in event.player)."""
    players = ctl.players
    if event.player is None or not 0 <= event.player < len(players):
        return
    player = players[event.player]
    try:
        ctl.game.verify_say_go(player)
    except (IllegalActionError, IllegalPlayError) as exc:
        ctl.notice(trouble.refused(str(exc), ctl.zone_of_player(player)))
        return
    ctl.act(ctl.game.say_go, player)


def start_round_when_clear(ctl) -> None:
    """Between deals: once the last round's cards (or the cut) are gathered, the next deal begins."""
    table = ctl.table
    if any(table.cards.get(z) for z in table.cards) or any(table.unreadable.get(z) for z in table.unreadable):
        return
    ctl.add(dev.TableCleared())
    ctl.act(ctl.game.start_round)


def _sentence(text: str) -> str:
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."
