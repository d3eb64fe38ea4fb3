"""Synthetic font decks: deterministic, laid out like printed decks, index in both corners."""

from __future__ import annotations

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
    assert len({s.rank_font for s in styles}) >= 6
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
