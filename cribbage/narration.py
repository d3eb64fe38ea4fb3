"""What the device says for each game event, in the words players use at the table.

One function, spoken(event), so the voice, the demo's printed lines and the tests agree. Some events
are said by nobody (a card cut, a hand shown): None. An under-count with Muggins on is said as the
claim alone — the device keeps the overlooked points to itself, as docs/DESIGN.md asks.
"""

from __future__ import annotations

from . import events as ev
from .words import number_word


def _n(points: int) -> str:
    return number_word(points)


def spoken(event: ev.Event, *, muggins: bool = True) -> str | None:
    """The sentence for this event, or None when the device stays quiet.
    muggins: whether Muggins is being played (an under-count is then not corrected aloud)."""
    e = event
    if isinstance(e, ev.DealerChosen):
        return f"{e.player} deals"
    if isinstance(e, ev.CutTied):
        return f"a tie: {' and '.join(e.players)} cut again"
    if isinstance(e, ev.RoundStarted):
        return f"{e.dealer} deals"
    if isinstance(e, ev.ThreeForLast):
        return f"three for last to {e.player}"
    if isinstance(e, ev.HisHeels):
        return f"two for his heels to {e.player}"
    if isinstance(e, ev.CardPlayed):
        return e.announcement()
    if isinstance(e, ev.GoSaid):
        return None if e.inferred else f"{e.player}: go"
    if isinstance(e, ev.GoPegged):
        return f"one for go, {e.player}"
    if isinstance(e, ev.LastCard):
        return f"one for last card, {e.player}"
    if isinstance(e, ev.ClaimPegged):
        what = "crib" if e.crib else "hand"
        if e.verdict == "right":
            return f"{e.player}: {e.announcement}"
        if e.verdict == "over":
            return f"{_n(e.claimed)} claimed, {_n(e.actual)} in the {what}: {e.announcement}"
        if muggins:
            return f"{e.player} pegs {_n(e.claimed)}"
        return f"{_n(e.claimed)} claimed, {_n(e.actual)} in the {what}"
    if isinstance(e, ev.PlayCorrected):
        took = " and ".join(f"the {c.name} for the {m.name}" for m, c in zip(e.misread, e.cards))
        return f"I took {took} in the play"
    if isinstance(e, ev.MissedPointsTold):
        return f"{e.player} missed {_n(e.points)}, and pegs them"
    if isinstance(e, ev.MugginsTaken):
        return f"muggins! {e.player} takes {_n(e.points)} from {e.counter}'s count"
    if isinstance(e, ev.RenegeFound):
        cards = " and ".join(c.name for c in e.cards)
        return f"{e.player} said go at {_n(e.count)} holding the {cards}"
    if isinstance(e, ev.PenaltyPegged):
        return f"penalty: {e.reason}; {_n(e.points)} to {e.player}"
    if isinstance(e, ev.GameWon):
        how = {"single": "", "lurch": ", and lurched", "skunk": ", a skunk",
               "double skunk": ", a double skunk"}[e.margin]
        return f"{' and '.join(e.side)} win{'s' if len(e.side) == 1 else ''}{how}"
    if isinstance(e, ev.Undone):
        return "undone"
    return None
