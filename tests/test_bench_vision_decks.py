"""Which decks `python -m bench vision` reads, and on which scenes."""

from __future__ import annotations

import pytest

from bench import bench_vision
from sim.render.decks import HELD_OUT_DECKS


def test_a_held_out_deck_named_alone_is_read_on_its_own_scenes_among_all_three(monkeypatch):
    monkeypatch.setenv("MUGGINS_BENCH_DECKS", "xskat-french-large")
    label, decks, share = bench_vision.bench_decks()
    assert (label, decks, share) == ("held-out", ("xskat-french-large",), 1.0)
    assert bench_vision.scene_place("xskat-french-large", decks) == \
        bench_vision.scene_place("xskat-french-large", HELD_OUT_DECKS) == 2
    assert bench_vision.scene_place("fonts-1003", ("fonts-1000", "fonts-1003")) == 1


def test_the_validation_decks_in_four_colours_are_read_on_their_own_scenes(monkeypatch):
    from sim.render.fontdecks import FOUR_COLOUR, is_four_colour

    monkeypatch.setenv("MUGGINS_BENCH_DECKS", "validation")
    _, plain, _ = bench_vision.bench_decks()
    monkeypatch.setenv("MUGGINS_BENCH_DECKS", "validation-4c")
    label, four, share = bench_vision.bench_decks()
    assert label == "validation" and share == bench_vision.VALIDATION_SCALE
    assert four == tuple(deck + FOUR_COLOUR for deck in plain) and all(map(is_four_colour, four))
    assert [bench_vision.scene_place(deck, four) for deck in four] == \
        [bench_vision.scene_place(deck, plain) for deck in plain]


def test_the_same_scenes_alone_as_among_all_three(monkeypatch):
    import numpy as np

    first_draws = []

    def make_scene(rng, kind, deck, card_share):
        first_draws.append(float(rng.random()))
        raise StopIteration  # the scene's seed is all this test wants

    monkeypatch.setattr("sim.render.scenes.make_scene", make_scene)
    with pytest.raises(StopIteration):
        bench_vision.evaluate(None, ("greywyvern",), {"separate": 1})
    among_all_three = np.random.default_rng([bench_vision.SEED, HELD_OUT_DECKS.index("greywyvern"), 0])
    assert first_draws == [float(among_all_three.random())]


@pytest.mark.parametrize("choice", ["queens", "penguins,fonts-3", ","])
def test_an_unknown_deck_is_refused_with_the_choices(monkeypatch, choice):
    monkeypatch.setenv("MUGGINS_BENCH_DECKS", choice)
    with pytest.raises(SystemExit, match="held-out, validation, validation-4c or held-out decks by name"):
        bench_vision.bench_decks()
