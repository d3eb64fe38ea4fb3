"""Which decks `make model` renders, and how many scenes of each: shared by both models' training."""

from __future__ import annotations

import sys


def scenes_per_deck(per_card_deck: int, font_decks: int, validation_font_decks: int, per_font_deck: int,
                    log) -> dict[str, int] | None:
    """Scenes per deck: every installed training deck, then the synthetic font decks (validation ones
    last). None, with the packages to install said on stderr, when no training deck is installed."""
    from vision.render.decks import HELD_OUT_DECKS, INSTALL_HINT, training_decks
    from vision.render.fontdecks import font_deck_names, suit_fonts

    decks = list(training_decks())
    if not decks:
        print(f"no training decks are installed: run `{INSTALL_HINT}`", file=sys.stderr)
        return None
    assert not set(decks) & set(HELD_OUT_DECKS)
    log(f"training decks: {', '.join(decks)}; held out: {', '.join(HELD_OUT_DECKS)}")
    scenes = {deck: per_card_deck for deck in decks}
    if font_decks or validation_font_decks:
        suit_fonts()  # fails here, with the packages to install, when there are no fonts
        names = font_deck_names(font_decks) + font_deck_names(validation_font_decks, validation=True)
        scenes.update({deck: per_font_deck for deck in names})
        log(f"and {font_decks} synthetic font decks for training, {validation_font_decks} in other "
            f"fonts for validation only; {per_font_deck} scenes each")
    return scenes
