"""The variants of cribbage as data, and the table options players agree before a game.

One game loop (game.py) plays every variant; a Variant only says how many cards are dealt and kept,
how the crib is made, how far the game goes, and whether the play is one series or runs to the last
card. Sources: Hoyle (BSD games manual), Hoyle's Games (1840s, five-card), Bicycle's three- and
four-hand rules, the Encyclopaedia Britannica (9th ed.) on the five-card play.

- five-card: 5 dealt, 2 each to the crib, hands of 3; the first non-dealer takes "three for last";
  one series only: the play ends at 31 or when neither can go, the rest are not played; to 61.
- six-card: 6 dealt, 2 each to the crib, hands of 4; to 121.
- seven-card: 7 dealt, 2 each to the crib, hands of 5; to 181.
- three players: 5 dealt each, 1 each to the crib and 1 from the pack; the player to the dealer's left
  cuts and leads; deal, play and show go round to the left; to 121 (61 by agreement: Options.target).
- four players: two partnerships (seats 1 and 3 against 2 and 4), 5 dealt, 1 each to the crib;
  partners peg together; to 121.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from .errors import CribbageError


@dataclass(frozen=True)
class Variant:
    """How one variant deals, plays and ends; everything else is the same game."""

    name: str
    players: int
    dealt: int                 # cards dealt to each player
    hand: int                  # cards each keeps for the play and the show
    target: int                # points that win
    crib_from_pack: int = 0    # cards the dealer adds to the crib from the pack (three players)
    single_series: bool = False  # five-card: one series of play, no restart after a go
    three_for_last: int = 0    # points the first non-dealer pegs at the start of the game
    partnerships: bool = False  # four players: seats 0 and 2 against 1 and 3

    @property
    def laid_away(self) -> int:
        """Cards each player lays away to the crib."""
        return self.dealt - self.hand

    @property
    def crib_size(self) -> int:
        return self.players * self.laid_away + self.crib_from_pack

    @property
    def sides(self) -> int:
        """How many scores the board keeps: one per player, or one per partnership."""
        return 2 if self.partnerships else self.players

    def side_of(self, seat: int) -> int:
        """The score a seat pegs on: partners (seats 0 and 2, 1 and 3) share one."""
        return seat % 2 if self.partnerships else seat


FIVE_CARD = Variant("five-card", players=2, dealt=5, hand=3, target=61, single_series=True,
                    three_for_last=3)
SIX_CARD = Variant("six-card", players=2, dealt=6, hand=4, target=121)
SEVEN_CARD = Variant("seven-card", players=2, dealt=7, hand=5, target=181)
THREE_PLAYERS = Variant("three-player", players=3, dealt=5, hand=4, target=121, crib_from_pack=1)
FOUR_PLAYERS = Variant("four-player", players=4, dealt=5, hand=4, target=121, partnerships=True)

VARIANTS: dict[str, Variant] = {v.name: v for v in
                                (FIVE_CARD, SIX_CARD, SEVEN_CARD, THREE_PLAYERS, FOUR_PLAYERS)}


def variant_named(name: str) -> Variant:
    """The variant with this name; an error that lists the names otherwise."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise CribbageError(f"{name!r} is not a variant: choose one of {', '.join(VARIANTS)}") from None


ENDINGS = ("lurch", "skunk")
RENEGE_RULES = ("announce", "two-per-card")


@dataclass(frozen=True)
class Options:
    """What the players agreed before the game.

    muggins: an under-count is held silently and the opponent may take the points missed; off, the
        device tells the counter and pegs them to him.
    overclaim_penalty: an over-count is corrected and the opponent also pegs the excess (Hoyle:
        "score the same extra number for his own game").
    ending: "lurch" (classic: a loser short of half the target is lurched, a double game) or
        "skunk" (modern: for 121, under 91 a skunk, under 61 a double skunk; scaled to the target).
    target: overrides the variant's target (e.g. three players to 61).
    renege: a "go" said while holding a card that fitted, found at the show: "announce" only (no
        penalty is agreed in the classic texts), or "two-per-card" (the ACC's rule 7.3: the
        opponent pegs two for each card that could have been played).
    wrong_cards_penalty: Hoyle: a hand found with the wrong number of cards, the opponent pegs 2;
        a wrong crib, the non-dealer pegs 2.
    """

    muggins: bool = True
    overclaim_penalty: bool = False
    ending: str = "lurch"
    target: int | None = None
    renege: str = "announce"
    wrong_cards_penalty: int = 2

    def __post_init__(self):
        if self.ending not in ENDINGS:
            raise CribbageError(f"ending {self.ending!r}: choose one of {', '.join(ENDINGS)}")
        if self.renege not in RENEGE_RULES:
            raise CribbageError(f"renege {self.renege!r}: choose one of {', '.join(RENEGE_RULES)}")
        if self.target is not None and not 1 <= self.target <= 1000:
            raise CribbageError(f"target {self.target} must be between 1 and 1000")

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "Options":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


def target_of(variant: Variant, options: Options) -> int:
    return options.target if options.target is not None else variant.target


def margin(loser_score: int, target: int, ending: str) -> tuple[str, int]:
    """How a game was won, and how many games it counts for, from the loser's score.

    Lurch (Hoyle): a loser who fails to reach half the game (61 of 121) is lurched: a double game.
    Skunk (modern): under 91 of 121 a skunk (2), under 61 a double skunk (3). Other targets scale:
    the skunk line is a quarter of the way back from the target, the double skunk line half way.
    """
    half = (target + 1) // 2
    if ending == "lurch":
        return ("lurch", 2) if loser_score < half else ("single", 1)
    skunk_line = target - (target - 1) // 4
    if loser_score < half:
        return "double skunk", 3
    if loser_score < skunk_line:
        return "skunk", 2
    return "single", 1
