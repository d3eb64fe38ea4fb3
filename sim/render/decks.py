"""Which card decks the project draws from, and how their SVG element ids name the cards.

The decks are Debian's kdegames-card-data-kf5 (GPL): /usr/share/carddecks/svg-<name>/<file>.svgz,
less those that copy a design reserved for independent evaluation (../shared/RESERVED.md). Whole
decks are held out of training so that accuracy can be measured on art the model never saw.
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
    "tigullio-international": "Luciano Montanaro's Tigullio deck, of which aisleriot's tigullio theme is a "
                              "version: reserved for independent evaluation",
}

# Aisleriot's card themes (Debian gnome-cards-data: /usr/share/aisleriot/cards/<name>.svgz, and bonded
# in aisleriot itself), which ../shared/RESERVED.md keeps for independent evaluation with any copy of
# them.  kdegames ships some of them under their own file names (svg-gm-paris/paris.svgz,
# svg-nicu-ornamental/ornamental.svgz, svg-dondorf/dondorf.svgz): a deck whose file bears one of these
# names is never rendered.
AISLERIOT_THEMES = frozenset({
    "ancient_french", "anglo", "anglo_bitmap", "anglo_modern", "anglo_modern_4_color", "anglo_poker",
    "atlasnye", "atlasnye_skat", "bellot", "berlin", "bonded", "dondorf", "gnomangelo", "gnomangelo_bitmap",
    "guyenne-classic", "lattmann", "neoclassical", "neoclassical_4_color", "orell", "ornamental", "paris",
    "plastic", "rheinland", "simplistic", "slavic_costumes", "swiss-xvii", "tango", "tango_nuevo", "tarocco",
    "tigullio", "Атласные",
})

# Decks whose top-left corner holds only the suit: their rank sits at the top right.  An index crop
# of the top-left corner cannot read their rank, so training on them teaches the wrong thing.
RANK_AT_TOP_RIGHT_DECKS = ("oxygen", "oxygen-air", "oxygen-white")

# Held out of training, kept varied: a novelty deck (penguins, kdegames), a plain one whose courts are
# photographs (greywyvern), and a classic one with small indices in all four corners and painted
# courts (xskat-french-large); the last two are PySol cardsets (sim/render/export_assets.py), small
# bitmaps, so their faces are soft when a card fills much of the frame.
HELD_OUT_DECKS = ("penguins", "greywyvern", "xskat-french-large")

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
    return tuple(sorted(n for n in names if n not in EXCLUDED_DECKS and svg_file(n, root) is not None
                        and not reserved(svg_file(n, root))))


def reserved(svg: Path) -> bool:
    """Whether a deck's file is one of aisleriot's themes by its name (theme.svgz or theme.svg)."""
    return svg.name.split(".")[0] in AISLERIOT_THEMES


def svg_file(deck: str, root: Path = DECK_ROOT) -> Path | None:
    """The .svgz (or .svg) file of a deck, or None when the deck is not installed."""
    folder = root / f"svg-{deck}"
    found = sorted(folder.glob("*.svgz")) + sorted(folder.glob("*.svg"))
    return found[0] if found else None


def training_decks(root: Path = DECK_ROOT, *, rank_at_top_right: bool = False) -> tuple[str, ...]:
    """Installed usable decks that are not held out (without the top-right-rank decks unless asked)."""
    return tuple(d for d in installed_decks(root) if d not in HELD_OUT_DECKS
                 and (rank_at_top_right or d not in RANK_AT_TOP_RIGHT_DECKS))
