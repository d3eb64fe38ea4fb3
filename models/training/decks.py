"""Which decks `make model` renders, how many scenes of each and with which seeds: shared by both
models' training."""

from __future__ import annotations

import argparse
import sys

from vision.errors import VisionError

# The designs of sim.render.designs the committed models were trained on; the others (the PySol
# bitmap decks) are rendered only when asked for (--designs), see models/HISTORY.md section 15.
DEFAULT_DESIGNS = ("aguilar",)


def parse_designs(text: str) -> tuple[str, ...]:
    """--designs: names of sim.render.designs, comma-separated, or `all`."""
    from sim.render.designs import DESIGNS

    names = tuple(DESIGNS) if text.strip() == "all" else tuple(n.strip() for n in text.split(",") if n.strip())
    unknown = [n for n in names if n not in DESIGNS]
    if unknown:
        raise argparse.ArgumentTypeError(f"no such design: {', '.join(unknown)} (there are: {', '.join(DESIGNS)})")
    return names


def scenes_per_deck(per_card_deck: int, font_decks: int, validation_font_decks: int, per_font_deck: int,
                    log, designs: tuple[str, ...] = DEFAULT_DESIGNS,
                    per_design: int | None = None, foreign_courts: float = 0.0,
                    foreign_decks: int = 0, pixel_decks: int = 0, four_colour: float = 0.0,
                    four_colour_decks: int = 0, more_font_decks: int = 0) -> dict[str, int] | None:
    """Scenes per deck: every installed training deck, then the designs named of sim.render.designs
    (fetched here, where not yet in the cache; per_design scenes each, else per_card_deck), then the
    synthetic font decks (validation ones last), `foreign_courts` of the training ones lettering their
    courts in another language (sim.render.fontdecks.with_court_languages), and `foreign_decks` more
    numbered after them that all do (where their rank font sets some foreign letters), and last
    `pixel_decks` whose index is set in a pixel font (numbered from fontdecks.PIXEL_START; last, so
    that every other deck's scenes keep their seeds). `four_colour` of the training font decks are
    printed in four colours (sim.render.fontdecks.with_four_colours), on the scenes they would have;
    `four_colour_decks` more are added after all the others, each printed in four colours, so that
    every two-coloured deck keeps its scenes. `more_font_decks` more, last of all, set their rank in
    fonts no other deck draws from (numbered from fontdecks.MORE_FONTS_START).
    None, with what to install or what could not be fetched said on stderr, when a deck is missing."""
    from sim.render.decks import HELD_OUT_DECKS, INSTALL_HINT, training_decks
    from sim.render.designs import PREFIX, DesignError, fetch
    from sim.render.fontdecks import FOUR_COLOUR_START, MORE_FONTS_START, PIXEL_START, font_deck_names, \
        is_four_colour, language_of, more_index_fonts, pixel_fonts, suit_fonts, with_court_languages, \
        with_four_colours

    decks = list(training_decks())
    if not decks:
        print(f"no training decks are installed: run `{INSTALL_HINT}`", file=sys.stderr)
        return None
    scenes = {deck: per_card_deck for deck in decks}
    for design in (PREFIX + name for name in designs):
        try:
            fetch(design)  # here, before the rendering processes would each fetch it
        except DesignError as exc:
            print(exc, file=sys.stderr)
            return None
        scenes[design] = per_card_deck if per_design is None else per_design
    assert not set(scenes) & set(HELD_OUT_DECKS)
    log(f"training decks: {', '.join(scenes)}; held out: {', '.join(HELD_OUT_DECKS)}")
    if font_decks or foreign_decks or validation_font_decks:
        suit_fonts()  # fails here, with the packages to install, when there are no fonts
        pictures = tuple(decks)  # font decks borrow their court pictures from the training decks
        training = with_court_languages(font_deck_names(font_decks), foreign_courts, pictures)
        training += with_court_languages(font_deck_names(foreign_decks, first=font_decks), 1.0, pictures)
        training = with_four_colours(training, four_colour)
        names = training + font_deck_names(validation_font_decks, validation=True)
        scenes.update({deck: per_font_deck for deck in names})
        foreign = [deck for deck in training if language_of(deck) != "en"]
        log(f"and {len(training)} synthetic font decks for training ({len(foreign)} lettering their courts in "
            f"another language: {', '.join(foreign) or 'none'}; {sum(map(is_four_colour, training))} printed in "
            f"four colours), {validation_font_decks} in other fonts for validation only; {per_font_deck} scenes each")
    if pixel_decks:
        try:
            pixel_fonts()
        except VisionError as exc:
            print(exc, file=sys.stderr)
            return None
        scenes.update({deck: per_font_deck for deck in font_deck_names(pixel_decks, first=PIXEL_START)})
        log(f"and {pixel_decks} synthetic decks indexed in pixel fonts, {per_font_deck} scenes each")
    if four_colour_decks:
        suit_fonts()
        added = with_four_colours(font_deck_names(four_colour_decks, first=FOUR_COLOUR_START), 1.0)
        scenes.update({deck: per_font_deck for deck in added})
        log(f"and {four_colour_decks} more synthetic font decks printed in four colours, {per_font_deck} scenes each")
    if more_font_decks:
        try:
            families = more_index_fonts()
        except VisionError as exc:
            print(exc, file=sys.stderr)
            return None
        scenes.update({deck: per_font_deck for deck in font_deck_names(more_font_decks, first=MORE_FONTS_START)})
        log(f"and {more_font_decks} more synthetic font decks whose rank is set in {len(families)} other font "
            f"families, {per_font_deck} scenes each")
    return scenes


def scene_jobs(scenes: dict[str, int], weights: dict[str, float], seed: int,
               offset: int = 0) -> list[tuple[str, str, int]]:
    """(deck, kind, seed) for every scene to render: each deck's count shared among the kinds by
    weight (at least one of each), seeds derived from the base seed, the deck's place and the count
    (offset keeps one model's scenes apart from the other's)."""
    jobs = []
    for d_i, (deck, count) in enumerate(scenes.items()):
        n = 0
        for kind, share in weights.items():
            for _ in range(max(1, round(count * share))):
                jobs.append((deck, kind, offset + seed * 1_000_003 + d_i * 100_000 + n))
                n += 1
    return jobs
