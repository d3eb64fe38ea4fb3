"""Cards and their notation: parse "5h", "10♦", "QS"; print "5H".

A Card is a small immutable value (a named tuple of rank 1..13 and suit letter), so it hashes,
sorts and compares cheaply and round-trips through text: Card.parse(str(c)) == c.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple

from .errors import DuplicateCardError, InvalidCardError

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "♧": "C", "♢": "D", "♡": "H", "♤": "S"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")

_RANK_HELP = "rank must be one of " + " ".join(RANK_LETTERS) + " (or 10)"
_SUIT_HELP = "suit must be one of " + " ".join(SUIT_LETTERS) + " (or ♣ ♦ ♥ ♠)"

JACK = 11


class Card(NamedTuple):
    """One playing card. rank: 1 (ace) .. 13 (king); suit: 'C', 'D', 'H' or 'S'."""

    rank: int
    suit: str

    @classmethod
    def parse(cls, text: str) -> "Card":
        """Read a card such as '5h', '10D', 'T♦', 'qs'; raise InvalidCardError saying what is wrong."""
        if not isinstance(text, str):
            raise InvalidCardError(f"{text!r} is not a card: expected text such as '5H'")
        raw = text.strip()
        if len(raw) < 2:
            raise InvalidCardError(f"{text!r} is not a card: expected a rank and a suit, such as '5H'")
        rank_text, suit_text = raw[:-1].upper(), raw[-1]
        suit = SUIT_SYMBOLS.get(suit_text, suit_text.upper())
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANK_LETTERS:
            raise InvalidCardError(f"{text!r} is not a card: {_RANK_HELP}")
        if suit not in SUIT_LETTERS:
            raise InvalidCardError(f"{text!r} is not a card: {_SUIT_HELP}")
        return cls(RANK_LETTERS.index(rank_text) + 1, suit)

    @classmethod
    def from_index(cls, index: int) -> "Card":
        """The card with this position (0..51) in a deck ordered by rank, then suit."""
        if not 0 <= index < 52:
            raise InvalidCardError(f"{index} is not a card index: it must be 0..51")
        return cls(index // 4 + 1, SUIT_LETTERS[index % 4])

    @property
    def index(self) -> int:
        """Position 0..51 in a deck ordered by rank, then suit (AC=0, AD=1, ..., KS=51)."""
        return (self.rank - 1) * 4 + SUIT_LETTERS.index(self.suit)

    @property
    def value(self) -> int:
        """Counting value: ace 1, number cards their pips, ten and faces 10."""
        return self.rank if self.rank < 10 else 10

    @property
    def name(self) -> str:
        """Spoken name, e.g. 'five of hearts'."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


FULL_DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))


def parse_cards(cards: Iterable[str | Card] | str, *, unique: bool = True) -> tuple[Card, ...]:
    """Read several cards ("5H 5D JS" or a list); with unique, a card twice is an error naming it."""
    items = cards.replace(",", " ").split() if isinstance(cards, str) else list(cards)
    parsed = tuple(c if isinstance(c, Card) else Card.parse(c) for c in items)
    if unique:
        check_unique(parsed)
    return parsed


def check_unique(cards: Iterable[Card]) -> None:
    """Raise DuplicateCardError naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"{card} appears twice: a deck holds one {card.name}", card)
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> str:
    """Print cards the way parse_cards reads them: '5H 5D JS'."""
    return " ".join(str(c) for c in cards)
