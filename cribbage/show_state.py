"""The show of one round: the order of the counts, the cards seen, and what a claim is worth.

Strictly in order (Hoyle): the hands from the dealer's left round to the dealer, then the crib. The
order matters because the game ends the moment a peg reaches the target. Each count is shown (the
cards seen) and then claimed; the engine compares the claim with the true count (show_score.score_show).
Hoyle on a wrong number of cards: a hand, the opponent pegs 2; the crib, the non-dealer pegs 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card, format_cards
from .errors import DuplicateCardError, HandDiffersError
from .show_score import ShowScore, score_show


@dataclass(frozen=True)
class ShowItem:
    """One count of the show: a player's hand, or the crib (which the dealer counts)."""
    seat: int
    crib: bool


@dataclass
class ShowState:
    order: list[ShowItem]
    index: int = 0
    shown: dict[int, tuple[Card, ...]] = field(default_factory=dict)   # item index -> cards
    muggins: tuple[int, int] | None = None   # (counter's seat, points overlooked), open to Muggins

    @classmethod
    def start(cls, players: int, dealer: int) -> "ShowState":
        hands = [ShowItem((dealer + i) % players, False) for i in range(1, players + 1)]
        return cls(hands + [ShowItem(dealer, True)])

    @property
    def current(self) -> ShowItem | None:
        return self.order[self.index] if self.index < len(self.order) else None

    @property
    def current_cards(self) -> tuple[Card, ...] | None:
        return self.shown.get(self.index)

    def seen_elsewhere(self) -> dict[Card, str]:
        """Cards shown for the other counts of this round."""
        return {c: ("the crib" if self.order[i].crib else "another hand")
                for i, cards in self.shown.items() if i != self.index for c in cards}

    # --- applying events ------------------------------------------------------------------------
    def apply_shown(self, cards: tuple[Card, ...]) -> None:
        self.shown[self.index] = cards

    def apply_claim(self, counter: int, missed_silently: int) -> None:
        self.muggins = (counter, missed_silently) if missed_silently > 0 else None
        self.index += 1

    def apply_muggins(self) -> None:
        self.muggins = None


def count_of(cards: tuple[Card, ...], starter: Card, crib: bool) -> ShowScore:
    """The true count of a hand or crib; a count of the wrong size that cannot be counted is nil."""
    try:
        return score_show(cards, starter, crib=crib)
    except ValueError:
        return ShowScore(tuple(cards), starter, crib, (), 0)


def order_error(state: ShowState, names) -> str:
    words = ", ".join(f"{names[i.seat]}'s hand" for i in state.order if not i.crib)
    item = state.current
    now = f"the crib ({names[item.seat]} counts it)" if item.crib else f"{names[item.seat]}'s hand"
    return f"the show goes {words}, then the crib: it is {now} now"


def check_cards(state: ShowState, played: list[Card], all_played: bool, starter: Card,
                cards: tuple[Card, ...], name: str) -> None:
    """Raise if the cards shown for the current count cannot be right: a card seen elsewhere this
    round, or (for a hand) cards that differ from those the player played."""
    item = state.current
    elsewhere = state.seen_elsewhere()
    for card in cards:
        if card == starter:
            raise DuplicateCardError(f"{card} is the starter: it cannot be in a hand too", card)
        if card in elsewhere:
            raise DuplicateCardError(f"{card} was already seen in {elsewhere[card]} this round", card)
    if item.crib:
        return
    missing = [c for c in played if c not in cards]
    extra = [c for c in cards if c not in played] if all_played else []
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"{format_cards(missing)} played but not shown")
        if extra:
            parts.append(f"{format_cards(extra)} shown but never played")
        raise HandDiffersError(f"{name}'s hand differs from the cards {name} played: " + "; ".join(parts),
                               name, missing, extra)


def check_crib_cards(cards: tuple[Card, ...], played_by_anyone: set[Card]) -> None:
    for card in cards:
        if card in played_by_anyone:
            raise DuplicateCardError(f"{card} was played in the play: it cannot be in the crib", card)
