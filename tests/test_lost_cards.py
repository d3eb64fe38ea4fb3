"""bench.lost_cards: each card not read right is put at the first stage that lost it."""

from types import SimpleNamespace

import numpy as np
import pytest

from bench.lost_cards import STAGES, lost_in_scene, main
from sim.render.decks import HELD_OUT_DECKS
from sim.render.scenes import make_scene
from vision.types import Recognition


def a_scene():
    scene = make_scene(np.random.default_rng(5), "separate", HELD_OUT_DECKS[0], size=(960, 540))
    shown = [t for t in scene.cards if t.card is not None and t.index_visible]
    assert len(shown) >= 3
    return scene, shown


def test_a_card_nothing_offered_was_never_offered():
    scene, shown = a_scene()
    assert lost_in_scene(scene, [], [], []) == {"never offered": len(shown)}


def test_each_card_is_put_at_the_first_stage_that_lost_it():
    scene, shown = a_scene()
    first, second = shown[0], shown[1]
    at_first = np.asarray(first.quad, np.float32)
    at_second = np.asarray(second.quad, np.float32)
    candidates = [SimpleNamespace(quad=at_first, quads=[at_first]), SimpleNamespace(quad=at_second, quads=[at_second])]
    # the first offered and left unread; the second read right before settling, then left out
    readings = [Recognition(second.card, 0.999, at_second)]
    stages = lost_in_scene(scene, [], candidates, readings)
    assert stages["offered, left unread"] == 1 and stages["read, then settled away"] == 1
    assert stages["never offered"] == len(shown) - 2
    # reported right, a card is not lost; reported as another card, it was read wrong
    reports = [Recognition(first.card, 0.999, at_first), Recognition(shown[2].card, 0.999, at_second)]
    stages = lost_in_scene(scene, reports, candidates, readings)
    assert stages == {"read wrong": 1, "never offered": len(shown) - 2}
    assert set(stages) <= set(STAGES)


def test_an_outline_running_another_way_does_not_offer_the_index():
    scene, shown = a_scene()
    quad = np.asarray(shown[0].quad, np.float32)
    turned = np.roll(quad, -1, axis=0)  # starts at the next corner: not the index corner
    stages = lost_in_scene(scene, [], [SimpleNamespace(quad=turned, quads=[turned])], [])
    assert stages == {"never offered": len(shown)}


def test_a_size_band_out_of_order_is_refused_with_a_message(capsys):
    with pytest.raises(SystemExit):
        main(["--band", "0.3", "0.1"])
    assert "give two shares of the frame height" in capsys.readouterr().err
