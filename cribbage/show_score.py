"""Counting a hand or crib at the show: the total, every scoring combination, and the spoken count.

Rules (Hoyle in the BSD games manual; the CRIB6 and Turbo Cribbage help; Hoyle's Games Modernized):
each fifteen 2; each pair 2 (three of a rank, a pair royal, 6; four, a double pair royal, 12); each
run of three or more 1 a card, counted once for every way of choosing its cards, so a double run of
three is two runs and a pair (8); a flush; his nobs, the jack of the starter's suit in the hand, 1.
His heels (a jack turned as starter) is pegged at the cut, not at the show, so it is not counted here.

Flush. Four-card hand: four cards of one suit 4, five with the starter; crib: only all five, 5.
The classic texts state the rule by card count, so it scales with the hand: a hand scores a flush
when all its cards share a suit, one point a card, one more if the starter matches; a crib only when
the starter matches too. Sources: Hoyle's Games (five-card cribbage, p. 250: "Three cards of the same
suit in hand ... entitle the player to reckon that number as a flush, and also one more when the
turn-up card happens to be of the same suit; but among professed gamesters it is not customary to
allow flushes in crib, unless all the cards, including that turned up, are of the same suit");
Cassell's Book of In-door Amusements (five-card: "a flush, that is, three cards of same suit 3; a full
flush, when cards in hand and turn-up are of same suit 4"); Enquire Within Upon Everything ("When the
cards are all of one suit, they reckon for as many points as there are cards. For a flush in the crib,
the turned-up card must be of the same suit as those put out"). Seven-card cribbage (five kept) follows
the same count: 5, or 6 with the starter. No flush is made of part of the hand plus the starter.

Breakdown: each fifteen, each pair group (kind "pair", "pair royal" or "double pair royal" with all its
cards), each single run (kind "run", so a double run appears as its two runs plus its pair), the
flush and his nobs. The announcement reads a run together with the pairs inside it the traditional
way: "fifteen two, fifteen four, and a double run of three is twelve".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Union

from ._score_ranks import RANK_BIT, pattern_pickers, pattern_points
from .words import number_word
from .cards import JACK, Card, parse_cards
from .errors import DuplicateCardError, InvalidCardError

# Cards may be given as Card values or as text ("5H"); a hand also as one string ("5H 5D 5C JS").
Cards = Union[Iterable[Union[Card, str]], str]
CardLike = Union[Card, str]

HAND_SIZES = (3, 4, 5)
CRIB_SIZE = 4


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination of the show: its kind, the cards that make it, and its points."""

    kind: str  # "fifteen", "pair", "pair royal", "double pair royal", "run", "flush", "nobs"
    cards: tuple[Card, ...]
    points: int

    def to_dict(self) -> dict:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class ShowScore:
    """A counted hand or crib: the cards, every combination that scores, the total."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[ScoreItem, ...]
    total: int

    def announcement(self) -> str:
        """The count as a player says it: 'fifteen two, fifteen four, and a pair is six'.

        A hand worth nothing is 'nineteen', the traditional joke (no hand can score 19).
        """
        return announce(self.items)

    def to_dict(self) -> dict:
        """A JSON-ready summary; cards in the notation of cards.py."""
        return {
            "total": self.total,
            "items": [item.to_dict() for item in self.items],
            "announcement": self.announcement(),
            "hand": [str(c) for c in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
        }


def score_show(hand: Cards, starter: CardLike, *, crib: bool = False) -> ShowScore:
    """Count a hand (3, 4 or 5 cards) or a crib (4 cards) with this starter, with its breakdown."""
    if not _plain(hand, starter, crib):
        hand, starter = _checked(hand, starter, crib)
    cards = sorted(hand + (starter,))
    key = 0
    for card in cards:
        key += RANK_BIT[card[0]]
    items = [ScoreItem(kind, pick(cards), points) for kind, pick, points in pattern_pickers(key)]
    total = pattern_points(key)
    suit = hand[0][1]
    for card in hand:
        if card[1] != suit:
            break
    else:
        flush = len(hand) + 1 if starter[1] == suit else 0 if crib else len(hand)
        if flush:
            items.append(ScoreItem("flush", tuple(sorted(hand + (starter,) if flush > len(hand) else hand)),
                                   flush))
            total += flush
    for card in hand:
        if card[0] == JACK and card[1] == starter[1]:
            items.append(ScoreItem("nobs", (card,), 1))
            total += 1
    return ShowScore(hand, starter, crib, tuple(items), total)


def show_total(hand: Cards, starter: CardLike, *, crib: bool = False) -> int:
    """The same total as score_show(...).total, without building the breakdown."""
    if not _plain(hand, starter, crib):
        hand, starter = _checked(hand, starter, crib)
    srank, ssuit = starter
    key = RANK_BIT[srank]
    first_suit = hand[0][1]
    same_suit = True
    total = 0
    for rank, suit in hand:
        key += RANK_BIT[rank]
        if suit != first_suit:
            same_suit = False
        if rank == JACK and suit == ssuit:
            total += 1  # his nobs
    if same_suit:
        if ssuit == first_suit:
            total += len(hand) + 1
        elif not crib:
            total += len(hand)
    return total + pattern_points(key)


def _plain(hand, starter, crib: bool) -> bool:
    """True when the input is already a tuple of distinct Cards of a countable size (the fast path)."""
    if starter.__class__ is not Card or hand.__class__ is not tuple:
        return False
    n = len(hand)
    if n != CRIB_SIZE and (crib or n not in HAND_SIZES):
        return False
    for card in hand:
        if card.__class__ is not Card:
            return False
    return starter not in hand and len(set(hand)) == n


def _checked(hand, starter, crib: bool) -> tuple[tuple[Card, ...], Card]:
    """Parse the cards if they are text, and check the hand's size and that no card appears twice."""
    cards = parse_cards(hand, unique=False)
    starter = starter if isinstance(starter, Card) else Card.parse(starter)
    if crib and len(cards) != CRIB_SIZE:
        raise InvalidCardError(f"a crib holds {CRIB_SIZE} cards, not {len(cards)}")
    if len(cards) not in HAND_SIZES:
        raise InvalidCardError(f"a hand to count holds 3, 4 or 5 cards besides the starter, "
                               f"not {len(cards)}")
    seen: set[Card] = set()
    for card in cards + (starter,):
        if card in seen:
            what = "the starter" if card == starter else "the hand"
            raise DuplicateCardError(f"{card} appears twice in {what}: a deck holds one {card.name}",
                                     card)
        seen.add(card)
    return cards, starter


# --- announcement -------------------------------------------------------------------------------

_RUN_NAMES = {(): "a run", (2,): "a double run", (3,): "a triple run", (2, 2): "a double double run",
              (4,): "a quadruple run"}
_PAIR_PHRASES = {"pair": "a pair", "pair royal": "a pair royal", "double pair royal": "a double pair royal"}


def announce(items: Iterable[ScoreItem]) -> str:
    """Spoken count of a breakdown: fifteens, pairs, runs (with the pairs inside them), flush, nobs."""
    items = tuple(items)
    fifteens = [i for i in items if i.kind == "fifteen"]
    pairs = [i for i in items if i.kind in _PAIR_PHRASES]
    runs: dict[tuple[int, ...], list[ScoreItem]] = {}
    for item in items:
        if item.kind == "run":
            runs.setdefault(tuple(sorted(c.rank for c in item.cards)), []).append(item)
    phrases: list[tuple[str, int]] = [("fifteen", i.points) for i in fifteens]
    run_phrases: list[tuple[str, int]] = []
    for ranks, group in sorted(runs.items()):
        inside = [p for p in pairs if p.cards[0].rank in ranks]
        shape = tuple(sorted(len(p.cards) for p in inside))
        length = number_word(len(ranks))
        if shape in _RUN_NAMES:
            points = sum(i.points for i in group) + sum(p.points for p in inside)
            run_phrases.append((f"{_RUN_NAMES[shape]} of {length}", points))
            pairs = [p for p in pairs if p not in inside]
        else:
            run_phrases.append((f"{number_word(len(group))} runs of {length}",
                                sum(i.points for i in group)))
    phrases += [(_PAIR_PHRASES[p.kind], p.points) for p in pairs]
    phrases += run_phrases
    phrases += [(f"a flush of {number_word(i.points)}", i.points) for i in items if i.kind == "flush"]
    phrases += [("his nobs", i.points) for i in items if i.kind == "nobs"]
    if not phrases:
        return "nineteen"
    spoken: list[str] = []
    total = 0
    for n, (phrase, points) in enumerate(phrases):
        total += points
        if phrase == "fifteen":  # fifteens are counted bare: "fifteen two, fifteen four"
            spoken.append(f"fifteen {number_word(total)}")
            continue
        said = f"another {phrase[2:]}" if n and phrases[n - 1][0] == phrase and phrase.startswith("a ") \
            else phrase
        joiner = "and " if n == len(phrases) - 1 and n > 0 else ""
        spoken.append(f"{joiner}{said} is {number_word(total)}")
    return ", ".join(spoken)
