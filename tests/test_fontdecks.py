"""Synthetic font decks: deterministic, laid out like printed decks, index in both corners."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL", reason="font decks are drawn with Pillow (pip install -e '.[test]')")

from cribbage.cards import Card  # noqa: E402
from sim.render import fontdecks  # noqa: E402
from sim.render.decks import HELD_OUT_DECKS  # noqa: E402
from vision.crops import index_crop  # noqa: E402
from vision.errors import VisionError  # noqa: E402

# Court pictures come from training decks in `make model`; the committed asset decks stand in here,
# so the tests need no apt package.
PICTURES = HELD_OUT_DECKS[:1]


def face_quad(face: np.ndarray) -> np.ndarray:
    h, w = face.shape[:2]
    return np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])


def ink(patch: np.ndarray) -> np.ndarray:
    """Where a patch is clearly darker than the card stock."""
    grey = patch.astype(np.float32).mean(axis=2)
    return grey < np.percentile(grey, 95) - 60


@pytest.mark.parametrize("rank", range(2, 11))
def test_pip_layout_has_one_pip_per_pip_and_is_symmetric(rank):
    pips = fontdecks.pip_layout(rank)
    assert len(pips) == rank
    assert len(set(pips)) == rank
    assert all(0 <= u <= 1 and 0 <= v <= 1 for u, v in pips)
    if rank == 7:  # the seven's odd pip sits in the upper half only, as printed
        return
    turned = sorted((round(1 - u, 6), round(1 - v, 6)) for u, v in pips)
    assert turned == sorted((round(u, 6), round(v, 6)) for u, v in pips)


def test_fonts_found_are_upright_and_set_every_rank():
    fonts = fontdecks.index_fonts()
    assert fonts, f"no fonts: {fontdecks.INSTALL_HINT}"
    assert not [p for p in fonts if "italic" in p.name.lower() or "oblique" in p.name.lower()]
    assert set(fontdecks.suit_fonts()) <= set(fonts) and fontdecks.suit_fonts()


def test_a_deck_is_the_same_every_time_and_decks_differ():
    card = Card.parse("QH")
    a = fontdecks.draw_face("fonts-3", card, PICTURES)
    assert np.array_equal(a, fontdecks.draw_face("fonts-3", card, PICTURES))
    styles = {fontdecks.deck_style(f"fonts-{i}", PICTURES) for i in range(12)}
    # Six fonts or more, or every training font where fewer are installed (fonts-dejavu-core alone
    # gives four, as on a machine that has only what .ci/run installs).
    train_fonts, _ = fontdecks.split_fonts(fontdecks.index_fonts())
    assert len({s.rank_font for s in styles}) >= min(6, len(train_fonts))
    assert len({round(s.rank_height, 3) for s in styles}) == 12


@pytest.mark.parametrize("deck", ["fonts-0", "fonts-7", "fonts-19"])
@pytest.mark.parametrize("card", ["AS", "7D", "TC", "KH"])
def test_index_is_printed_in_both_corners_turned(deck, card):
    face = fontdecks.draw_face(deck, Card.parse(card), PICTURES)
    from sim.render.faces import FACE_HEIGHT

    assert face.shape[2] == 4 and face.shape[0] == fontdecks.FACE_HEIGHT == FACE_HEIGHT
    quad = face_quad(face)
    top = index_crop(face[:, :, :3], quad)
    bottom = index_crop(face[:, :, :3], np.roll(quad, -2, axis=0))
    top_ink, bottom_ink = ink(top), ink(bottom)
    assert top_ink.mean() > 0.01, "no index ink in the top-left corner"
    # The index sits in the corner of its crop: the rank in the top half.
    assert top_ink[: top_ink.shape[0] // 2].mean() > 0.01
    overlap = (top_ink & bottom_ink).sum() / (top_ink | bottom_ink).sum()
    assert overlap > 0.8, "the bottom-right index is not the top-left one turned"


def test_red_suits_print_red_and_black_suits_dark():
    for card, reddish in (("5H", True), ("5D", True), ("5S", False), ("5C", False)):
        face = fontdecks.draw_face("fonts-2", Card.parse(card), PICTURES)
        patch = index_crop(face[:, :, :3], face_quad(face)).astype(np.float32)
        dark = ink(patch.astype(np.uint8))
        b, g, r = (patch[:, :, c][dark].mean() for c in range(3))
        assert (r > g + 60) == reddish, card


def test_the_corners_are_rounded():
    face = fontdecks.draw_face("fonts-4", Card.parse("9S"), PICTURES)
    alpha = face[:, :, 3]
    assert alpha[0, 0] < 64 and alpha[-1, -1] < 64 and alpha[alpha.shape[0] // 2, alpha.shape[1] // 2] == 255


def test_names():
    assert fontdecks.font_deck_names(3) == ("fonts-0", "fonts-1", "fonts-2")
    assert fontdecks.is_font_deck("fonts-12")
    assert not fontdecks.is_font_deck("fonts-x") and not fontdecks.is_font_deck("greywyvern")


def test_without_a_deck_to_borrow_pictures_from_the_message_says_so():
    with pytest.raises(VisionError, match="training deck"):
        fontdecks.deck_style("fonts-1", ())


def test_validation_decks_use_only_font_families_training_decks_never_use():
    train_fonts, validation_fonts = fontdecks.split_fonts(fontdecks.index_fonts())
    families = {fontdecks.font_family(p) for p in validation_fonts}
    assert families and not families & {fontdecks.font_family(p) for p in train_fonts}
    for deck in fontdecks.font_deck_names(5, validation=True):
        assert fontdecks.is_validation_deck(deck)
        assert fontdecks.deck_style(deck, PICTURES).rank_font in validation_fonts
    for deck in fontdecks.font_deck_names(20):
        assert not fontdecks.is_validation_deck(deck)
        assert fontdecks.deck_style(deck, PICTURES).rank_font in train_fonts


def test_font_families():
    from pathlib import Path

    assert fontdecks.font_family(Path("DejaVuSans-Bold.ttf")) == "dejavusans"
    assert fontdecks.font_family(Path("FreeSerifBold.ttf")) == "freeserif"
    assert fontdecks.font_family(Path("LinLibertine_RB.otf")) == "linlibertine"


def test_foreign_courts_are_the_letters_that_are_not_the_english_ones():
    assert fontdecks.foreign_ranks("en") == frozenset()
    assert fontdecks.foreign_ranks("fr") == fontdecks.foreign_ranks("it") == {11, 12, 13}
    # A German, Polish, Swedish or Russian king is lettered K (Cyrillic К looks the same): a king.
    for language in ("pl", "sv"):
        assert fontdecks.foreign_ranks(language) == {11, 12}
    # The jack's B (and Cyrillic В), an 8's twin in many fonts, is not drawn: those decks letter it J.
    assert fontdecks.foreign_ranks("nl") == {12, 13}
    assert fontdecks.foreign_ranks("de") == fontdecks.foreign_ranks("ru") == {12}
    assert not {"B", "\u0412"} & {letter for letters in fontdecks.COURT_LETTERS.values() for letter in letters.values()}


def test_a_share_of_the_training_decks_letter_their_courts_in_other_languages_and_say_so_by_name():
    plain = fontdecks.font_deck_names(60)
    assert fontdecks.with_court_languages(plain, 0.0, PICTURES) == plain
    named = fontdecks.with_court_languages(plain, 0.3, PICTURES)
    foreign = [deck for deck in named if fontdecks.language_of(deck) != "en"]
    assert 0.15 * 60 <= len(foreign) <= 0.45 * 60
    assert len({fontdecks.language_of(deck) for deck in foreign}) >= 4
    assert all(fontdecks.is_font_deck(deck) and not fontdecks.is_validation_deck(deck) for deck in named)
    # A smaller share letters some of the same decks, and changes nothing else of any deck's style.
    fewer = set(fontdecks.with_court_languages(plain, 0.15, PICTURES)) - set(plain)
    assert fewer and fewer <= set(foreign)
    for deck in foreign[:3]:
        number = deck.rsplit("-", 1)[0]
        assert fontdecks.deck_style(deck, PICTURES).language == fontdecks.language_of(deck)
        assert (fontdecks.deck_style(deck, PICTURES).rank_font, fontdecks.deck_style(deck, PICTURES).stock) == \
            (fontdecks.deck_style(number, PICTURES).rank_font, fontdecks.deck_style(number, PICTURES).stock)
    validation = fontdecks.font_deck_names(10, validation=True)
    assert fontdecks.with_court_languages(validation, 0.9, PICTURES) == validation
    assert not fontdecks.is_font_deck("fonts-3-xx") and fontdecks.language_of("fonts-3") == "en"


def test_foreign_decks_are_added_after_the_english_ones_and_leave_them_as_they_were(monkeypatch):
    from models.training import decks
    from sim.render import decks as render_decks

    monkeypatch.setattr(render_decks, "training_decks", lambda: ("standard",))
    monkeypatch.setattr(decks, "DEFAULT_DESIGNS", ())
    quiet = dict(log=lambda message: None, designs=())
    english = [deck for deck in decks.scenes_per_deck(500, 20, 2, 50, **quiet) if fontdecks.is_font_deck(deck)]
    beside = [deck for deck in decks.scenes_per_deck(500, 20, 2, 50, foreign_decks=8, **quiet)
              if fontdecks.is_font_deck(deck)]
    assert all(fontdecks.language_of(deck) == "en" for deck in english)
    added = [deck for deck in beside if deck not in english]
    assert len(added) == 8 and len(beside) == len(english) + 8
    assert [fontdecks.deck_number(deck) for deck in added] == list(range(20, 28))
    assert all(fontdecks.language_of(deck) != "en" for deck in added)


def test_a_foreign_deck_prints_its_own_court_letter_and_the_same_numbers():
    deck = next(d for d in fontdecks.with_court_languages(fontdecks.font_deck_names(60), 0.3, PICTURES)
                if 12 in fontdecks.foreign_ranks(fontdecks.language_of(d)))
    english = deck.rsplit("-", 1)[0]
    faces = {card: fontdecks.draw_face(deck, Card.parse(card), PICTURES) for card in ("QH", "8S")}
    plain = {card: fontdecks.draw_face(english, Card.parse(card), PICTURES) for card in faces}
    assert np.array_equal(faces["8S"], plain["8S"])
    quad = face_quad(faces["QH"])
    assert not np.array_equal(index_crop(faces["QH"], quad), index_crop(plain["QH"], quad))
    h, w = faces["QH"].shape[:2]
    assert np.array_equal(faces["QH"][h // 3: 2 * h // 3, w // 3: 2 * w // 3],
                          plain["QH"][h // 3: 2 * h // 3, w // 3: 2 * w // 3])  # the picture is the same


def _pixel_fonts_or_skip():
    try:
        return fontdecks.pixel_fonts()
    except VisionError as exc:
        pytest.skip(str(exc))


def test_pixel_decks_set_rank_and_suit_in_a_pixel_font_and_nothing_else_changes():
    ranks, suits = _pixel_fonts_or_skip()
    deck = fontdecks.font_deck_names(1, first=fontdecks.PIXEL_START)[0]
    assert fontdecks.is_pixel_deck(deck) and not fontdecks.is_pixel_deck("fonts-3")
    assert not fontdecks.is_pixel_deck(fontdecks.font_deck_names(1, validation=True)[0])
    style = fontdecks.deck_style(deck, PICTURES)
    assert style.rank_font in ranks and style.suit_font in suits
    assert not set(ranks) & set(fontdecks.index_fonts())  # the other decks' fonts are as they were
    face = fontdecks.draw_face(deck, Card.parse("AS"), PICTURES)
    assert ink(index_crop(face, face_quad(face))).any()


def test_pixel_decks_come_last_so_every_other_scene_keeps_its_seed(monkeypatch):
    _pixel_fonts_or_skip()
    from models.training import decks
    from sim.render import decks as render_decks

    monkeypatch.setattr(render_decks, "training_decks", lambda: ("standard",))
    quiet = dict(log=lambda message: None, designs=())
    plain = decks.scenes_per_deck(500, 20, 2, 50, **quiet)
    beside = decks.scenes_per_deck(500, 20, 2, 50, pixel_decks=3, **quiet)
    assert list(beside)[-3:] == [f"fonts-{n}" for n in range(fontdecks.PIXEL_START, fontdecks.PIXEL_START + 3)]
    weights = {"separate": 0.5, "row": 0.5}
    before = decks.scene_jobs(plain, weights, seed=0)
    assert decks.scene_jobs(beside, weights, seed=0)[:len(before)] == before


@pytest.mark.parametrize("option, setting, fonts, package", [
    ("pixel_decks", ("PIXEL_FONT_FILES", (Path("/nonexistent/pixel.ttf"),)), "pixel_fonts", "fonts-terminus"),
    ("more_font_decks", ("MORE_FONT_DIRS", (Path("/nonexistent/fonts"),)), "more_index_fonts", "fonts-open-sans"),
])
def test_decks_in_fonts_not_installed_say_what_to_install(monkeypatch, capsys, option, setting, fonts, package):
    from models.training import decks
    from sim.render import decks as render_decks

    monkeypatch.setattr(render_decks, "training_decks", lambda: ("standard",))
    monkeypatch.setattr(fontdecks, *setting)
    getattr(fontdecks, fonts).cache_clear()
    try:
        assert decks.scenes_per_deck(500, 2, 1, 50, log=lambda m: None, designs=(), **{option: 2}) is None
    finally:
        getattr(fontdecks, fonts).cache_clear()
    assert f"apt install {package}" in capsys.readouterr().err


def test_a_four_colour_deck_prints_clubs_green_and_diamonds_blue_and_nothing_else_changes():
    deck = "fonts-3" + fontdecks.FOUR_COLOUR
    assert fontdecks.is_font_deck(deck) and fontdecks.is_four_colour(deck) and not fontdecks.is_four_colour("fonts-3")
    assert fontdecks.deck_number(deck) == 3 and fontdecks.language_of("fonts-3-fr-4c") == "fr"
    plain, four = fontdecks.deck_style("fonts-3", PICTURES), fontdecks.deck_style(deck, PICTURES)
    assert plain.four_colour is None and four.four_colour is not None
    assert dataclasses.replace(four, four_colour=None) == plain
    for card in ("QH", "8S"):  # hearts and spades as the plain deck prints them
        assert np.array_equal(fontdecks.draw_face(deck, Card.parse(card), PICTURES),
                              fontdecks.draw_face("fonts-3", Card.parse(card), PICTURES))
    for card, (strongest, weakest) in {"8C": (1, 2), "8D": (0, 2)}.items():  # BGR: green, blue
        face = fontdecks.draw_face(deck, Card.parse(card), PICTURES)[:, :, :3]
        inked = face[ink(face)].astype(np.float32).mean(axis=0)
        assert int(np.argmax(inked)) == strongest and int(np.argmin(inked)) == weakest, (card, inked)


def test_four_colour_decks_are_picked_by_number_among_training_decks_only(monkeypatch):
    from models.training import decks
    from sim.render import decks as render_decks

    names = fontdecks.font_deck_names(60)
    assert fontdecks.with_four_colours(names, 0.0) == names
    some = fontdecks.with_four_colours(names, 0.25)
    assert 8 <= sum(map(fontdecks.is_four_colour, some)) <= 24
    assert [fontdecks.deck_number(d) for d in some] == list(range(60))
    validation = fontdecks.font_deck_names(10, validation=True)
    assert fontdecks.with_four_colours(validation, 1.0) == validation

    monkeypatch.setattr(render_decks, "training_decks", lambda: ("standard",))
    quiet = dict(log=lambda message: None, designs=())
    plain = decks.scenes_per_deck(500, 20, 2, 50, **quiet)
    four = decks.scenes_per_deck(500, 20, 2, 50, four_colour=0.5, **quiet)
    assert list(four.values()) == list(plain.values())  # the same scenes, some decks recoloured
    assert [d.removesuffix(fontdecks.FOUR_COLOUR) for d in four] == list(plain)
    assert any(map(fontdecks.is_four_colour, four))


def test_four_colour_decks_added_come_last_and_leave_every_other_scene_as_it_was(monkeypatch):
    from models.training import decks
    from sim.render import decks as render_decks

    monkeypatch.setattr(render_decks, "training_decks", lambda: ("standard",))
    quiet = dict(log=lambda message: None, designs=())
    plain = decks.scenes_per_deck(500, 20, 2, 50, **quiet)
    added = decks.scenes_per_deck(500, 20, 2, 50, four_colour_decks=3, **quiet)
    start = fontdecks.FOUR_COLOUR_START
    assert list(added)[-3:] == [f"fonts-{n}{fontdecks.FOUR_COLOUR}" for n in range(start, start + 3)]
    assert not any(map(fontdecks.is_four_colour, plain))
    weights = {"separate": 0.5, "row": 0.5}
    before = decks.scene_jobs(plain, weights, seed=0)
    assert decks.scene_jobs(added, weights, seed=0)[:len(before)] == before


def test_a_deck_in_more_fonts_sets_its_rank_in_a_font_no_other_deck_uses():
    try:
        more = fontdecks.more_index_fonts()
    except VisionError:
        pytest.skip("decks in more fonts need " + " ".join(fontdecks.MORE_FONT_PACKAGES))
    deck = f"fonts-{fontdecks.MORE_FONTS_START + 1}"
    assert fontdecks.is_more_fonts_deck(deck) and not fontdecks.is_more_fonts_deck("fonts-3")
    assert not fontdecks.is_pixel_deck(deck) and not fontdecks.is_validation_deck(deck)
    style = fontdecks.deck_style(deck, PICTURES)
    assert style.rank_font in {p for family in more.values() for p in family}
    assert style.rank_font not in fontdecks.index_fonts()
    picked = {fontdecks.font_family(fontdecks.deck_style(f"fonts-{fontdecks.MORE_FONTS_START + n}", PICTURES).rank_font)
              for n in range(20)}
    assert len(picked) >= 8  # families drawn alike, not the one with most weights
    face = fontdecks.draw_face(deck, Card.parse("QH"), PICTURES)
    assert ink(index_crop(face[:, :, :3], face_quad(face))).mean() > 0.03


def test_more_font_decks_come_last_so_every_other_scene_keeps_its_seed(monkeypatch):
    from models.training import decks
    from sim.render import decks as render_decks

    monkeypatch.setattr(render_decks, "training_decks", lambda: ("standard",))
    monkeypatch.setattr(fontdecks, "more_index_fonts", lambda: {"somefont": (fontdecks.REFERENCE_SUIT_FONT,)})
    quiet = dict(log=lambda message: None, designs=())
    plain = decks.scenes_per_deck(500, 20, 2, 50, **quiet)
    added = decks.scenes_per_deck(500, 20, 2, 50, more_font_decks=3, **quiet)
    start = fontdecks.MORE_FONTS_START
    assert list(added)[-3:] == [f"fonts-{n}" for n in range(start, start + 3)]
    weights = {"separate": 0.5, "row": 0.5}
    before = decks.scene_jobs(plain, weights, seed=0)
    assert decks.scene_jobs(added, weights, seed=0)[:len(before)] == before


def test_every_suit_font_draws_a_spade_for_spades_and_a_club_for_clubs():
    """GNU FreeSerif Bold sets the club at the spade's code point and the spade at the club's: a deck in
    that font taught the classifier spades labelled clubs until its characters were exchanged."""
    reference = fontdecks.REFERENCE_SUIT_FONT
    if not reference.is_file():
        pytest.skip("fonts-dejavu-core is not installed")
    spade, club = fontdecks.SUIT_GLYPHS["S"], fontdecks.SUIT_GLYPHS["C"]
    ref_spade, ref_club = fontdecks._suit_mask(reference, spade), fontdecks._suit_mask(reference, club)
    for font in fontdecks.suit_fonts():
        chars = fontdecks.suit_characters(font)
        drawn_spade = fontdecks._suit_mask(font, chars["S"])
        drawn_club = fontdecks._suit_mask(font, chars["C"])
        as_drawn = abs(drawn_spade - ref_spade).mean() + abs(drawn_club - ref_club).mean()
        exchanged = abs(drawn_spade - ref_club).mean() + abs(drawn_club - ref_spade).mean()
        assert as_drawn < exchanged, font.name
    freeserif_bold = next((f for f in fontdecks.suit_fonts() if f.name == "FreeSerifBold.ttf"), None)
    if freeserif_bold is not None:  # the font the check was written for: its characters exchanged
        assert fontdecks.suit_characters(freeserif_bold)["S"] == club
