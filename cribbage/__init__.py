"""The rules of cribbage: cards, counting the show and the play, the game and its variants.

Pure standard library: nothing outside it is imported here, so the rules run anywhere and are
tested exhaustively. The device and vision layers import this package, never the reverse.
"""

from .cards import FULL_DECK, Card, check_unique, format_cards, parse_cards
from .errors import (CribbageError, DuplicateCardError, HandDiffersError, IllegalActionError,
                     IllegalPlayError, InvalidCardError, NotYourLeadError, OverCountError)
from .coach import LayAway, lay_aways
from .play_score import PlayScore, score_play, series_count
from .show_score import ScoreItem, ShowScore, score_show, show_total
from .variants import VARIANTS, Options, Variant
from .game import Game

__all__ = [
    "Card", "FULL_DECK", "parse_cards", "check_unique", "format_cards",
    "CribbageError", "InvalidCardError", "DuplicateCardError", "IllegalPlayError", "OverCountError",
    "IllegalActionError", "NotYourLeadError", "HandDiffersError",
    "ScoreItem", "ShowScore", "score_show", "show_total", "PlayScore", "score_play", "series_count",
    "LayAway", "lay_aways",
    "Game", "Options", "Variant", "VARIANTS",
]
