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


class IllegalActionError(CribbageError):
    """A game action that is not allowed in the current state (wrong player, wrong phase...)."""
