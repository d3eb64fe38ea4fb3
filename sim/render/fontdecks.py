"""Synthetic decks whose indices are set in the machine's own fonts: more index styles to train on.

The SVG decks give the model only a handful of index fonts, and a font it never saw is where it reads
wrong (a queen taken for a 5, a queen for a 10).  Each synthetic deck "fonts-N" draws every face the
way a printed deck is laid out, from a style drawn once from N: card stock and corners, an index of
rank over suit in one font at one size and place (repeated turned at the bottom right), pips in the
standard layout for 2-10, a big pip for the ace, and for J Q K the picture of a *training* deck's court
card inside a frame.  Held-out decks are never drawn from.

A training deck may letter its courts as another language prints them (a French V D R): its name says
so (`fonts-7-fr`), a court whose letter is not the English one is no card the device may read, and
training labels it "not a card" (foreign_ranks), so that a foreign court is refused rather than read
as a number. `python -m models.training --foreign-courts SHARE` renames that share of the decks;
`--foreign-decks N` adds N decks lettered in another language after the English ones, and
`--pixel-decks N` N decks indexed in a pixel font (fonts-terminus, -dotgothic16, -unifont, -proggy),
as a computer deck prints: an A as flat-topped as an 8. `--more-font-decks N` adds N decks whose rank
is set in fonts of other packages (MORE_FONT_PACKAGES), which no other deck draws from.

Fonts come from the system (Debian's fonts-dejavu core and extra, fonts-liberation2, fonts-freefont-ttf,
fonts-urw-base35, fonts-linuxlibertine, fonts-texgyre); text is set with Pillow (FreeType), which only
training installs.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from cribbage.cards import Card
from vision.errors import VisionError

PREFIX = "fonts-"
# Decks numbered from here draw their rank fonts only from VALIDATION_FONTS' families, which the
# training decks never use: the threshold is then chosen on index fonts the model has not seen,
# which is what a real deck will be.
VALIDATION_START = 1000
VALIDATION_DECKS = 10  # how many: fonts-1000 ... fonts-1009
STYLE_VERSION = 3  # bump when the way font decks are drawn changes: cached training crops are then stale
# Only the directories of FONT_PACKAGES are searched: other fonts a machine happens to have would
# change the decks `make model` draws, and which families are kept for validation.
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation2"),
             Path("/usr/share/fonts/truetype/freefont"), Path("/usr/share/fonts/opentype/urw-base35"),
             Path("/usr/share/fonts/opentype/linux-libertine"),
             Path("/usr/share/texmf/fonts/opentype/public/tex-gyre"))
FONT_PACKAGES = ("fonts-dejavu-core", "fonts-dejavu-extra", "fonts-liberation2", "fonts-freefont-ttf",
                 "fonts-urw-base35", "fonts-linuxlibertine", "fonts-texgyre")
INSTALL_HINT = "sudo apt install " + " ".join(FONT_PACKAGES)
# Decks numbered from PIXEL_START (below VALIDATION_START) set rank and suit in a pixel font, drawn
# square pixel by square pixel as a computer card game draws its faces: a flat-topped A beside a
# flat-topped 8. Kept apart from FONT_DIRS, so no other deck changes.
PIXEL_START = 500
FOUR_COLOUR_START = 300  # the numbers of font decks added in four colours (--four-colour-decks)
PIXEL_FONT_FILES = (Path("/usr/share/fonts/truetype/terminus/TerminusTTF-[0-9]*.ttf"),  # named with its version
                    Path("/usr/share/fonts/truetype/dotgothic16/DotGothic16-Regular.ttf"),
                    Path("/usr/share/fonts/opentype/unifont/unifont.otf"),
                    Path("/usr/share/fonts/truetype/proggy/ProggyTiny.ttf"))
PIXEL_FONT_PACKAGES = ("fonts-terminus", "fonts-dotgothic16", "fonts-unifont", "fonts-proggy")
# Decks numbered from MORE_FONTS_START (below FOUR_COLOUR_START) set their rank in a font of
# MORE_FONT_DIRS, which no other deck draws from (`--more-font-decks N`): more index fonts to learn,
# while every other deck and the validation fonts stay as they are.
MORE_FONTS_START = 200
MORE_FONT_DIRS = tuple(Path("/usr/share/fonts") / d for d in (
    "truetype/open-sans", "truetype/lato", "truetype/roboto/unhinted", "opentype/roboto/slab",
    "truetype/crosextra", "opentype/cantarell", "opentype/ebgaramond", "truetype/croscore", "opentype/cabin",
    "truetype/karla", "truetype/quicksand", "opentype/inter", "opentype/b612", "truetype/andika",
    "truetype/oxygen", "opentype/didot"))
MORE_FONT_PACKAGES = ("fonts-open-sans", "fonts-lato", "fonts-roboto-unhinted", "fonts-roboto-slab",
                      "fonts-crosextra-carlito", "fonts-crosextra-caladea", "fonts-cantarell", "fonts-ebgaramond",
                      "fonts-croscore", "fonts-cabin", "fonts-karla", "fonts-quicksand", "fonts-inter", "fonts-b612",
                      "fonts-sil-andika", "fonts-oxygen", "fonts-gfs-didot")
_HAIRLINE = re.compile(r"thin|hairline|extralight", re.IGNORECASE)  # strokes no printed index has
# Faces no printed index uses: slanted, script, symbol and maths fonts.
_SKIP = re.compile(r"ita|oblique|math|keyboard|initials|z003|d050000l|standardsymbols|dingbat|chorus|"
                   r"display|_r?[bz]?i\.|_k\.|_dr\.", re.IGNORECASE)
RANK_GLYPHS = "AJQK0123456789"  # what a font must set to print every index
SUIT_GLYPHS = {"S": "\u2660", "C": "\u2663", "H": "\u2665", "D": "\u2666"}
# How other languages letter J Q K. A German, Polish, Swedish or Russian king is still a K; every other
# letter here means another rank in English or none, and the same letter means different courts in
# different languages (a Dutch V is a queen, a French V a jack). The jack's B (Dutch, German) and
# Cyrillic В are left out, their decks' jacks lettered J: in many fonts a B is an 8's twin at an
# index's size, so no crop tells them apart, and learning it as "not a card" taught the classifier
# that some eights are none (models/HISTORY.md, section 16).
COURT_LETTERS = {
    "en": {11: "J", 12: "Q", 13: "K"},
    "nl": {11: "J", 12: "V", 13: "H"},
    "fr": {11: "V", 12: "D", 13: "R"},
    "de": {11: "J", 12: "D", 13: "K"},
    "pl": {11: "W", 12: "D", 13: "K"},
    "it": {11: "F", 12: "D", 13: "R"},
    "sv": {11: "Kn", 12: "D", 13: "K"},
    "ru": {11: "J", 12: "\u0414", 13: "\u041a"},
}
# A deck printed in four colours, as many poker decks are, its clubs green and its diamonds blue, so
# that no suit can be told by its colour: its name ends so (`fonts-1003-4c`, `fonts-7-fr-4c`).
FOUR_COLOUR = "-4c"
_NAME = re.compile(rf"{PREFIX}(\d+)(?:-({'|'.join(lang for lang in COURT_LETTERS if lang != 'en')}))?({FOUR_COLOUR})?")
FACE_HEIGHT = 350  # sim.render.faces.FACE_HEIGHT (which imports this module): all faces share it


def foreign_ranks(language: str) -> frozenset[int]:
    """The court ranks whose letter in `language` is not the English one's: no card to read."""
    latin = {"\u0414": "D", "\u041a": "K"}  # the Cyrillic letters as they look
    return frozenset(rank for rank, letter in COURT_LETTERS[language].items()
                     if latin.get(letter, letter) != COURT_LETTERS["en"][rank])


def court_language(number: int, rank_font: Path, share: float) -> str:
    """The language training font deck `number` letters its courts in, where `share` of the decks
    letter them in another than English: drawn from its number alone (apart from the rest of its
    style, so that `share` changes nothing else), among the languages whose letters its rank font
    sets. Validation decks are always English, so their figures compare from one model to the next."""
    rng = np.random.default_rng([20261128, number])
    if number >= VALIDATION_START or rng.random() >= share:
        return "en"
    languages = [lang for lang, letters in COURT_LETTERS.items()
                 if lang != "en" and _has_glyphs(rank_font, "".join(letters.values()))]
    return languages[int(rng.integers(len(languages)))] if languages else "en"


def with_court_languages(decks, share: float, picture_decks: tuple[str, ...]) -> tuple[str, ...]:
    """The font decks named `fonts-N`, renamed `fonts-N-<language>` where deck N letters its courts in
    another language than English (court_language); a deck's name is all that says how it looks."""
    if not share:
        return tuple(decks)
    named = []
    for deck in decks:
        language = court_language(deck_number(deck), deck_style(deck, picture_decks).rank_font, share)
        named.append(deck if language == "en" else f"{deck}-{language}")
    return tuple(named)


def with_four_colours(decks, share: float) -> tuple[str, ...]:
    """The font decks, those of them `share` picks (by number alone, apart from the rest of the style,
    so that `share` changes nothing else; never a validation deck) renamed to be printed in four
    colours."""
    return tuple(f"{deck}{FOUR_COLOUR}" if deck_number(deck) < VALIDATION_START and
                 np.random.default_rng([20261206, deck_number(deck)]).random() < share else deck
                 for deck in decks)


def is_four_colour(deck: str) -> bool:
    match = _NAME.fullmatch(deck)
    return bool(match and match.group(3))


def language_of(deck: str) -> str:
    """How font deck `deck` letters its courts: the language its name ends with, else English."""
    match = _NAME.fullmatch(deck)
    return match.group(2) if match and match.group(2) else "en"


def deck_number(deck: str) -> int:
    return int(_NAME.fullmatch(deck).group(1))


def cache_key(decks) -> list:
    """What cached renders of `decks` depend on beyond their names: how font decks are drawn and which
    fonts are installed (other fonts, other faces); no fonts where none of them is a font deck."""
    fonts = [p.name for p in index_fonts()] if any(is_font_deck(d) for d in decks) else []
    if any(is_pixel_deck(d) for d in decks):
        fonts += [p.name for group in pixel_fonts() for p in group]
    if any(is_more_fonts_deck(d) for d in decks):
        fonts += [p.name for family in more_index_fonts().values() for p in family]
    return [STYLE_VERSION, fonts]


def is_font_deck(deck: str) -> bool:
    return _NAME.fullmatch(deck) is not None


def font_deck_names(n: int, *, validation: bool = False, first: int = 0) -> tuple[str, ...]:
    """`n` font deck names from number `first` on (validation decks count from VALIDATION_START)."""
    first += VALIDATION_START if validation else 0
    return tuple(f"{PREFIX}{i}" for i in range(first, first + n))


def validation_deck_names() -> tuple[str, ...]:
    """The VALIDATION_DECKS validation decks the benches read and training calibrates on by default."""
    return font_deck_names(VALIDATION_DECKS, validation=True)


def is_validation_deck(deck: str) -> bool:
    return is_font_deck(deck) and deck_number(deck) >= VALIDATION_START


def font_family(path: Path) -> str:
    """'DejaVuSans-Bold.ttf' -> 'dejavusans', 'FreeSerifBold.ttf' -> 'freeserif', 'LinLibertine_RB.otf' -> 'linlibertine'."""
    stem = re.split(r"[-_]", path.stem)[0]
    return re.sub(r"(bold|regular|roman|book|demi|light|medium)$", "", stem, flags=re.IGNORECASE).lower()


def split_fonts(fonts: tuple[Path, ...]) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """(training fonts, validation fonts): every fifth family, in sorted order, is for validation."""
    families = sorted({font_family(p) for p in fonts})
    held = set(families[2::5])
    return (tuple(p for p in fonts if font_family(p) not in held),
            tuple(p for p in fonts if font_family(p) in held))


def _pil():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError as exc:
        raise VisionError("synthetic font decks need Pillow: run `pip install -e '.[train]'`") from exc
    return Image, ImageDraw, ImageFont


@functools.lru_cache(maxsize=1)
def index_fonts() -> tuple[Path, ...]:
    """Upright Latin fonts installed here, sorted, that can set A 2-10 J Q K."""
    return _rank_fonts(FONT_DIRS, _SKIP)


def _rank_fonts(dirs, *skips: re.Pattern) -> tuple[Path, ...]:
    """The fonts under `dirs`, sorted, named by none of `skips`, that can set A 2-10 J Q K."""
    paths = sorted(p for d in dirs if d.is_dir() for p in d.rglob("*")
                   if p.suffix.lower() in (".ttf", ".otf") and not any(skip.search(p.name) for skip in skips))
    return tuple(p for p in paths if _has_glyphs(p, RANK_GLYPHS))


@functools.lru_cache(maxsize=1)
def pixel_fonts() -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """(rank fonts, suit fonts) of the pixel decks: PIXEL_FONT_FILES that set A 2-10 J Q K, and of
    those the ones that draw the four suits."""
    found = (min(pattern.parent.glob(pattern.name), default=None) for pattern in PIXEL_FONT_FILES)
    ranks = tuple(p for p in found if p is not None and _has_glyphs(p, RANK_GLYPHS))
    suits = tuple(p for p in ranks if _has_glyphs(p, "".join(SUIT_GLYPHS.values())))
    if not ranks or not suits:
        raise VisionError(f"pixel font decks need their fonts: run `sudo apt install {' '.join(PIXEL_FONT_PACKAGES)}`")
    return ranks, suits


@functools.lru_cache(maxsize=1)
def more_index_fonts() -> dict[str, tuple[Path, ...]]:
    """The upright fonts of MORE_FONT_DIRS that set A 2-10 J Q K, by family."""
    families: dict[str, tuple[Path, ...]] = {}
    for path in _rank_fonts(MORE_FONT_DIRS, _SKIP, _HAIRLINE):
        families[font_family(path)] = families.get(font_family(path), ()) + (path,)
    if not families:
        raise VisionError(f"decks in more fonts need them: run `sudo apt install {' '.join(MORE_FONT_PACKAGES)}`")
    return families


def is_more_fonts_deck(deck: str) -> bool:
    return is_font_deck(deck) and MORE_FONTS_START <= deck_number(deck) < FOUR_COLOUR_START


def is_pixel_deck(deck: str) -> bool:
    return is_font_deck(deck) and PIXEL_START <= deck_number(deck) < VALIDATION_START


@functools.lru_cache(maxsize=1)
def suit_fonts() -> tuple[Path, ...]:
    """Installed fonts (of index_fonts' kind) that draw the four suit symbols."""
    return tuple(p for p in index_fonts() if _has_glyphs(p, "".join(SUIT_GLYPHS.values())))


REFERENCE_SUIT_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")  # fonts-dejavu-core


def _suit_mask(path: Path, ch: str) -> np.ndarray:
    """The glyph of ch in the font at path, trimmed to its ink and scaled to 32 x 32 (float32 0..1)."""
    ink = _glyph(path, ch, 32)
    return cv2.resize(ink, (32, 32), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=None)
def suit_characters(path: Path) -> dict[str, str]:
    """The character to set for each suit in the font at path: SUIT_GLYPHS, except in a font that
    draws the club at the spade's code point and the spade at the club's (GNU FreeSerif Bold does),
    told by likeness to the reference font's glyphs. Without the reference font, SUIT_GLYPHS."""
    if not REFERENCE_SUIT_FONT.is_file() or path == REFERENCE_SUIT_FONT:
        return dict(SUIT_GLYPHS)
    spade, club = SUIT_GLYPHS["S"], SUIT_GLYPHS["C"]
    ref = {ch: _suit_mask(REFERENCE_SUIT_FONT, ch) for ch in (spade, club)}
    own = {ch: _suit_mask(path, ch) for ch in (spade, club)}

    def unlike(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.abs(a - b).mean())

    as_drawn = unlike(own[spade], ref[spade]) + unlike(own[club], ref[club])
    exchanged = unlike(own[spade], ref[club]) + unlike(own[club], ref[spade])
    if exchanged < as_drawn:
        return {**SUIT_GLYPHS, "S": club, "C": spade}
    return dict(SUIT_GLYPHS)


def _has_glyphs(path: Path, text: str) -> bool:
    """True when every character of text has its own glyph (not the font's missing-glyph box)."""
    _, _, ImageFont = _pil()
    try:
        font = ImageFont.truetype(str(path), 40)
    except OSError:
        return False
    missing = bytes(font.getmask("\uffff"))  # a non-character: drawn as .notdef, if at all
    for ch in text:
        mask = font.getmask(ch)
        if mask.size[0] == 0 or bytes(mask) == missing:
            return False
    return True


@dataclass(frozen=True)
class DeckStyle:
    """Everything that makes one synthetic deck look like one printed deck."""

    aspect: float
    corner: float          # corner radius, share of the width
    stock: tuple[float, float, float]
    stock_fade: float      # top-to-bottom darkening (grey, glossy stock)
    border: float          # inset of a thin border line, share of the width; 0: none
    rank_font: Path
    suit_font: Path
    rank_height: float     # share of the card height
    squeeze: float         # horizontal scale of the rank
    suit_ratio: float      # suit height / rank height
    suit_beside: bool      # suit to the right of the rank rather than under it
    margin: tuple[float, float]  # (left, top) of the index, shares of width and height
    black: tuple[int, int, int]
    red: tuple[int, int, int]
    pip_height: float      # share of the card height
    pip_column: float      # u of the left pip column
    pip_row: float         # v of the top pip row
    ace_height: float
    court_box: tuple[float, float]  # (u0, v0) of the picture frame
    court_frame: bool      # a line round the picture
    corner_pip: tuple[float, float, float] | None  # (u, v, height) of a big pip beside the index on every card
    court_deck: str        # training deck whose court pictures are shown
    back_deck: str
    language: str = "en"   # how the courts are lettered (COURT_LETTERS)
    four_colour: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None  # (clubs, diamonds) inks


def ink(style: DeckStyle, suit: str) -> tuple[int, int, int]:
    """The colour a suit is printed in (BGR)."""
    if style.four_colour is not None and suit in "CD":
        return style.four_colour["CD".index(suit)]
    return style.red if suit in "HD" else style.black


@functools.lru_cache(maxsize=256)
def deck_style(deck: str, picture_decks: tuple[str, ...]) -> DeckStyle:
    """The style of font deck `deck`, drawn from its number (the same on every call)."""
    fonts, suits = index_fonts(), suit_fonts()
    if not fonts or not suits:
        raise VisionError(f"no usable fonts found under {', '.join(map(str, FONT_DIRS))}: run `{INSTALL_HINT}`")
    if not picture_decks:
        raise VisionError("synthetic decks borrow court pictures from a training deck; none is installed")
    number = deck_number(deck)
    rng = np.random.default_rng([20261122, number])
    train_fonts, validation_fonts = split_fonts(fonts)
    fonts = validation_fonts if number >= VALIDATION_START else train_fonts
    u = rng.uniform
    stock_kind = rng.random()
    if stock_kind < 0.55:
        stock = (250.0, 250.0, 250.0)
    elif stock_kind < 0.8:
        stock = (u(205, 235), u(230, 248), u(240, 252))  # cream
    else:
        g = u(215, 245)
        stock = (g, g, g)
    margin = (u(0.03, 0.1), u(0.02, 0.07))
    suit_ratio = u(0.45, 1.0)
    # Small indices are the hardest to read: give them extra weight.
    rank_height = u(0.055, 0.08) if rng.random() < 0.3 else u(0.06, 0.16)
    # The whole index (rank, gap, suit) stays inside the top 0.34 of the card, as on printed decks.
    rank_height = min(rank_height, (0.34 - margin[1]) / (1 + 1.15 * suit_ratio))
    red = (u(0, 90), u(0, 80), u(170, 245))  # crimson to pinkish
    black = (u(0, 60),) * 3 if rng.random() < 0.8 else (u(60, 110), u(20, 50), u(0, 40))  # black or navy
    corner_pip = (u(0.2, 0.3), u(0.06, 0.14), u(0.1, 0.2)) if rng.random() < 0.35 else None
    # Pips keep clear of a corner pip, as printed decks with one do.
    pip_column, pip_row, pip_height = ((u(0.33, 0.38), u(0.22, 0.26), u(0.09, 0.14)) if corner_pip
                                       else (u(0.25, 0.38), u(0.15, 0.24), u(0.1, 0.19)))
    style = DeckStyle(
        aspect=u(0.66, 0.72), corner=u(0.02, 0.08), stock=stock,
        stock_fade=u(0.0, 0.15) if stock_kind >= 0.8 else 0.0,
        border=u(0.02, 0.05) if rng.random() < 0.3 else 0.0,
        rank_font=fonts[int(rng.integers(len(fonts)))],
        suit_font=suits[int(rng.integers(len(suits)))],
        rank_height=rank_height, squeeze=u(0.65, 1.15), suit_ratio=suit_ratio,
        suit_beside=bool(rng.random() < 0.1 and rank_height < 0.1),
        margin=margin, black=tuple(int(c) for c in black), red=tuple(int(c) for c in red),
        pip_height=pip_height, pip_column=pip_column, pip_row=pip_row,
        ace_height=u(0.2, 0.45), court_box=(u(0.12, 0.3), u(0.07, 0.14)), court_frame=bool(rng.random() < 0.7),
        # Some decks print a big pip beside the index of every card, courts included: then what lies
        # beside the index says nothing of the rank, and the model must read the rank itself.
        corner_pip=corner_pip,
        court_deck=picture_decks[int(rng.integers(len(picture_decks)))],
        back_deck=picture_decks[int(rng.integers(len(picture_decks)))],
    )
    if is_more_fonts_deck(deck):  # a family first, so that one with many weights is not drawn more often
        more = more_index_fonts()
        pick = np.random.default_rng([20261206, number, 7]).integers
        family = more[sorted(more)[int(pick(len(more)))]]
        style = dataclasses.replace(style, rank_font=family[int(pick(len(family)))])
    if is_pixel_deck(deck):
        ranks, suits = pixel_fonts()
        style = dataclasses.replace(style, rank_font=ranks[int(rng.integers(len(ranks)))],
                                    suit_font=suits[int(rng.integers(len(suits)))])
    language = language_of(deck)
    # index_fonts() all set J Q K; another language's letters are checked.
    if language != "en" and not _has_glyphs(style.rank_font, "".join(COURT_LETTERS[language].values())):
        raise VisionError(f"{deck}: its font {style.rank_font.name} cannot set the courts' letters")
    four_colour = None
    if is_four_colour(deck):  # drawn apart from the rest of the style, which stays the deck's own
        u = np.random.default_rng([20261206, number, 4]).uniform
        four_colour = ((int(u(0, 70)), int(u(100, 160)), int(u(0, 50))),    # green
                       (int(u(140, 220)), int(u(40, 110)), int(u(0, 40))))  # blue
    return dataclasses.replace(style, language=language, four_colour=four_colour)


def draw_face(deck: str, card: Card | None, picture_decks: tuple[str, ...]) -> np.ndarray:
    """The face of `card` (None: the back) in font deck `deck` as BGRA uint8, FACE_HEIGHT rows high."""
    from sim.render.faces import load_face

    style = deck_style(deck, picture_decks)
    h = FACE_HEIGHT
    w = round(h * style.aspect)
    if card is None:
        back = load_face(style.back_deck, None)
        return cv2.resize(back, (w, h), interpolation=cv2.INTER_AREA)
    fade = 1.0 - style.stock_fade * np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    face = (np.ones((h, w, 3), np.float32) * np.float32(style.stock) * fade).astype(np.uint8)
    if style.border:
        inset = round(style.border * w)
        cv2.rectangle(face, (inset, inset), (w - 1 - inset, h - 1 - inset), style.black, 1, cv2.LINE_AA)
    colour = ink(style, card.suit)
    if card.rank > 10:
        _draw_court(face, card, style)
    elif card.rank == 1:
        _draw_pip(face, card.suit, style, (0.5, 0.5), style.ace_height, colour, False)
    else:
        for (cu, cv) in pip_layout(card.rank):
            uu = style.pip_column + cu * (1 - 2 * style.pip_column)
            vv = style.pip_row + cv * (1 - 2 * style.pip_row)
            # Pips four rows deep must not touch: at most 0.85 of the row spacing.
            size = min(style.pip_height, 0.85 * (1 - 2 * style.pip_row) / 3)
            _draw_pip(face, card.suit, style, (uu, vv), size, colour, cv > 0.5)
    for _ in range(2):  # each index corner: the corner pip, if any, then the index; then turn the card
        if style.corner_pip is not None:
            pu, pv, ph = style.corner_pip
            _draw_pip(face, card.suit, style, (pu, pv + ph / 2), ph, colour, False)
        _draw_index(face, card, style, colour)
        face = cv2.rotate(face, cv2.ROTATE_180)
    return np.dstack([face, rounded_mask(w, h, style.corner * w)])


def pip_layout(rank: int) -> list[tuple[float, float]]:
    """Standard pip centres of a 2-10 in a unit box (columns 0, 0.5, 1; rows 0 top to 1 bottom)."""
    left_right = {2: [], 3: [], 4: [0, 1], 5: [0, 1], 6: [0, 0.5, 1], 7: [0, 0.5, 1], 8: [0, 0.5, 1],
                  9: [0, 1 / 3, 2 / 3, 1], 10: [0, 1 / 3, 2 / 3, 1]}[rank]
    centre = {2: [0, 1], 3: [0, 0.5, 1], 4: [], 5: [0.5], 6: [], 7: [0.25], 8: [0.25, 0.75], 9: [0.5],
              10: [1 / 6, 5 / 6]}[rank]
    return [(0.0, v) for v in left_right] + [(1.0, v) for v in left_right] + [(0.5, v) for v in centre]


def rounded_mask(w: int, h: int, radius: float) -> np.ndarray:
    """Alpha (uint8) of a w x h card with rounded corners, anti-aliased."""
    scale = 4
    big = np.zeros((h * scale, w * scale), np.uint8)
    r = max(1, round(radius * scale))
    cv2.rectangle(big, (r, 0), (w * scale - 1 - r, h * scale - 1), 255, -1)
    cv2.rectangle(big, (0, r), (w * scale - 1, h * scale - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w * scale - 1 - r, r), (r, h * scale - 1 - r), (w * scale - 1 - r, h * scale - 1 - r)):
        cv2.circle(big, (cx, cy), r, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=128)
def _font(path: Path):
    """A font at the size glyphs are set at before scaling (opened once per process)."""
    _, _, ImageFont = _pil()
    return ImageFont.truetype(str(path), 96)


def _glyph(font_path: Path, text: str, height_px: float, squeeze: float = 1.0) -> np.ndarray:
    """Coverage (float32 0..1) of text set in font_path, trimmed and scaled so its ink is height_px high."""
    Image, ImageDraw, _ = _pil()
    font = _font(font_path)
    left, top, right, bottom = font.getbbox(text)
    canvas = Image.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(canvas).text((4 - left, 4 - top), text, fill=255, font=font)
    ink = np.asarray(canvas, np.float32) / 255.0
    ys, xs = np.nonzero(ink > 0.05)
    ink = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    scale = height_px / ink.shape[0]
    size = (max(1, round(ink.shape[1] * scale * squeeze)), max(1, round(height_px)))
    return cv2.resize(ink, size, interpolation=cv2.INTER_AREA)


def _stamp(face: np.ndarray, ink: np.ndarray, x: float, y: float, colour) -> None:
    """Blend ink (coverage) into face with its top-left at (x, y), clipped to the face."""
    h, w = face.shape[:2]
    x0, y0 = int(round(x)), int(round(y))
    ih, iw = ink.shape
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x0 + iw, w), min(y0 + ih, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    a = ink[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    roi = face[cy0:cy1, cx0:cx1].astype(np.float32)
    face[cy0:cy1, cx0:cx1] = (roi * (1 - a) + np.float32(colour) * a).astype(np.uint8)


def _draw_index(face: np.ndarray, card: Card, style: DeckStyle, colour) -> None:
    h, w = face.shape[:2]
    text = COURT_LETTERS[style.language][card.rank] if card.rank > 10 else "A" if card.rank == 1 else str(card.rank)
    rank_px = style.rank_height * h
    rank = _glyph(style.rank_font, text, rank_px, style.squeeze)
    # A two-digit 10 must still fit the corner: squeeze it further when it is too wide.
    max_w = 0.2 * w if not style.suit_beside else 0.13 * w
    if rank.shape[1] > max_w:
        rank = cv2.resize(rank, (round(max_w), rank.shape[0]), interpolation=cv2.INTER_AREA)
    suit = _glyph(style.suit_font, suit_characters(style.suit_font)[card.suit], style.suit_ratio * rank_px)
    left, top = style.margin[0] * w, style.margin[1] * h
    if style.suit_beside:
        _stamp(face, rank, left, top, colour)
        _stamp(face, suit, left + rank.shape[1] + 0.02 * w, top + (rank.shape[0] - suit.shape[0]) / 2, colour)
        return
    axis = left + max(rank.shape[1], suit.shape[1]) / 2
    _stamp(face, rank, axis - rank.shape[1] / 2, top, colour)
    _stamp(face, suit, axis - suit.shape[1] / 2, top + rank.shape[0] + 0.15 * suit.shape[0], colour)


def _draw_pip(face: np.ndarray, suit: str, style: DeckStyle, centre: tuple[float, float], height: float,
              colour, turned: bool) -> None:
    h, w = face.shape[:2]
    ink = _glyph(style.suit_font, suit_characters(style.suit_font)[suit], height * h)
    if turned:
        ink = ink[::-1, ::-1]
    _stamp(face, ink, centre[0] * w - ink.shape[1] / 2, centre[1] * h - ink.shape[0] / 2, colour)


def _draw_court(face: np.ndarray, card: Card, style: DeckStyle) -> None:
    """The picture of the same court card of a training deck, often inside a frame."""
    from sim.render.faces import load_face

    h, w = face.shape[:2]
    source = load_face(style.court_deck, card)
    sh, sw = source.shape[:2]
    picture = source[round(0.12 * sh):round(0.88 * sh), round(0.2 * sw):round(0.8 * sw)]
    u0, v0 = style.court_box
    x0, y0, x1, y1 = round(u0 * w), round(v0 * h), round((1 - u0) * w), round((1 - v0) * h)
    picture = cv2.resize(picture, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = picture[:, :, 3:4] / 255.0
    roi = face[y0:y1, x0:x1].astype(np.float32)
    face[y0:y1, x0:x1] = (roi * (1 - alpha) + picture[:, :, :3] * alpha).astype(np.uint8)
    if style.court_frame:
        cv2.rectangle(face, (x0, y0), (x1 - 1, y1 - 1), style.black, 1, cv2.LINE_AA)
