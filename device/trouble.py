"""The words for trouble at the table, said the way a person would say it.

Vision trouble (a card it cannot read, a dark table, a card seen twice, no camera) and table mistakes
(a card past 31, the wrong leader, the wrong number of cards, a shown hand that is not the cards
played) each become one Notice: spoken and shown, journaled, never a peg on a guess.
"""

from __future__ import annotations

from typing import Iterable

from cribbage.words import number_word
from cribbage.cards import Card
from device.device_events import Notice


def unreadable(place: str, zone: str) -> Notice:
    return Notice("unreadable", f"I can't read the card {place} — move it into the light.", zone)


def dark() -> Notice:
    return Notice("dark", "It's too dark to see the cards.")


def camera_lost(detail: str = "") -> Notice:
    extra = f" ({detail})" if detail else ""
    return Notice("camera", f"I can't see the table: the camera is not answering{extra}.")


def seen_twice(card: Card, places: Iterable[str], zone: str | None = None) -> Notice:
    where = " and ".join(places)
    return Notice("duplicate", f"I see the {card.name} twice, {where}. Two decks, or did I misread one? "
                               "Take one away.", zone)


def past_31(player: str, card: Card, count: int, zone: str) -> Notice:
    return Notice("over-31", f"{player}, the {card.name} takes the count to {number_word(count)}, past "
                             f"thirty-one. Take it back.", zone)


def wrong_leader(player: str, leader: str, card: Card, zone: str) -> Notice:
    return Notice("wrong-leader", f"It's {leader}'s lead, not {player}'s. Take the {card.name} back.", zone)


def not_your_turn(player: str, card: Card, zone: str, reason: str) -> Notice:
    return Notice("wrong-player", f"{player}, not now: {reason}. Take the {card.name} back.", zone)


def wrong_number(player: str, what: str, have: int, want: int, zone: str | None) -> Notice:
    return Notice("wrong-cards", f"{player}'s {what} has {number_word(have)} card{'s' if have != 1 else ''}; "
                                 f"it should have {number_word(want)}.", zone)


def too_few(player: str, what: str, have: int, want: int, zone: str | None) -> Notice:
    """A count shown short: a card may lie unseen (covered, or missed by the camera), so the claim
    waits for the counter to lay them apart or press again."""
    return Notice("too-few", f"I see only {number_word(have)} card{'s' if have != 1 else ''} in {player}'s {what}; "
                             f"it should have {number_word(want)}. Lay them apart so I can see each one, "
                             f"or press again to count it as it lies.", zone)


def hand_differs(player: str, shown: Iterable[Card], played: Iterable[Card], zone: str | None,
                 *, ask: bool = False) -> Notice:
    """ask: the claim was pressed for this hand, which may hold a card misread in the play; the
    players are told how to go on (a press again counts the hand as it lies)."""
    extra = sorted(set(shown) - set(played))
    missing = sorted(set(played) - set(shown))
    parts = []
    if extra:
        parts.append("shows the " + " and the ".join(c.name for c in extra))
    if missing:
        parts.append("played the " + " and the ".join(c.name for c in missing))
    then = " If I misread a card in the play, press again to count the hand as it lies." if ask else ""
    return Notice("hand-differs", f"{player}'s hand is not the cards {player} played: "
                                  f"{player} {', but '.join(parts)}.{then}", zone)


def refused(reason: str, zone: str | None = None) -> Notice:
    """An action the rules refuse, with the rules engine's own reason."""
    text = reason[0].upper() + reason[1:] if reason else "Not now."
    if not text.endswith("."):
        text += "."
    return Notice("not-now", text, zone)
