"""Which card decks the project draws from, and how their SVG element ids name the cards.

The decks are Debian's kdegames-card-data-kf5 (GPL): /usr/share/carddecks/svg-<name>/<file>.svgz.
Three whole decks are held out of training so that accuracy can be measured on art the model never saw.
"""

from __future__ import annotations

from pathlib import Path

from cribbage.cards import Card

DECK_ROOT = Path("/usr/share/carddecks")
INSTALL_HINT = "sudo apt install kdegames-card-data-kf5"

# Decks left out, with the reason.
EXCLUDED_DECKS = {
    "xskat-french": "German-indexed faces (B D K), not English A K Q J",
    "xskat-german": "German suits and indices",
    "future": "not a standard card face",
    "konqi-modern": "72x96 bitmaps that rsvg-convert cannot export by id ('has no dimensions')",
}

# Decks whose top-left corner holds only the suit: their rank sits at the top right.  An index crop
# of the top-left corner cannot read their rank, so training on them teaches the wrong thing.
RANK_AT_TOP_RIGHT_DECKS = ("oxygen", "oxygen-air", "oxygen-white")

# Held out of training, kept varied: a plain modern deck, an ornate classical one, a novelty one.
HELD_OUT_DECKS = ("tigullio-international", "dondorf", "penguins")

_RANK_IDS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
_SUIT_IDS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
BACK = "back"


def element_id(card: Card | None) -> str:
    """The SVG element id of a card in every kdegames deck: '1_club', 'queen_heart'; None -> 'back'."""
    if card is None:
        return BACK
    return f"{_RANK_IDS[card.rank - 1]}_{_SUIT_IDS[card.suit]}"


def installed_decks(root: Path = DECK_ROOT) -> tuple[str, ...]:
    """Names of the usable decks installed under root (without the 'svg-' prefix), sorted."""
    if not root.is_dir():
        return ()
    names = (p.name[len("svg-"):] for p in root.glob("svg-*") if p.is_dir())
    return tuple(sorted(n for n in names if n not in EXCLUDED_DECKS and svg_file(n, root) is not None))


def svg_file(deck: str, root: Path = DECK_ROOT) -> Path | None:
    """The .svgz (or .svg) file of a deck, or None when the deck is not installed."""
    folder = root / f"svg-{deck}"
    found = sorted(folder.glob("*.svgz")) + sorted(folder.glob("*.svg"))
    return found[0] if found else None


def training_decks(root: Path = DECK_ROOT, *, rank_at_top_right: bool = False) -> tuple[str, ...]:
    """Installed usable decks that are not held out (without the top-right-rank decks unless asked)."""
    return tuple(d for d in installed_decks(root) if d not in HELD_OUT_DECKS
                 and (rank_at_top_right or d not in RANK_AT_TOP_RIGHT_DECKS))
