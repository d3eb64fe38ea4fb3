"""Exceptions of the rules engine, one class per cause, all rooted in CribbageError.

Each is also a ValueError, so callers that only care that the input was bad can catch that.
"""


class CribbageError(ValueError):
    """Root of every error the rules engine raises for bad input or an illegal action."""


class InvalidCardError(CribbageError):
    """Text that is not a card, or a card that cannot be where it was put."""


class DuplicateCardError(InvalidCardError):
    """The same card twice where a single deck allows it once."""

    def __init__(self, message: str, card=None):
        super().__init__(message)
        self.card = card


class IllegalPlayError(CribbageError):
    """A card that may not be played now, e.g. one that takes the count past 31."""


class OverCountError(IllegalPlayError):
    """A card that would take the count past 31; `count` is the count it would make."""

    def __init__(self, message: str, count: int):
        super().__init__(message)
        self.count = count


class IllegalActionError(CribbageError):
    """A game action that is not allowed in the current state (wrong player, wrong phase...)."""


class NotYourLeadError(IllegalActionError):
    """A card led by the wrong player on a fresh count; `leader` names whose lead it is."""

    def __init__(self, message: str, leader: str):
        super().__init__(message)
        self.leader = leader


class HandDiffersError(IllegalActionError):
    """A hand shown that is not the cards its player played: `missing` were played but not shown,
    `extra` shown but never played (tuples of cards)."""

    def __init__(self, message: str, player: str, missing=(), extra=()):
        super().__init__(message)
        self.player, self.missing, self.extra = player, tuple(missing), tuple(extra)
