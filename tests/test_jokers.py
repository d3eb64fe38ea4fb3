"""Jokers drawn for training: shaped like their deck's cards, printed at the index corners, laid in a
scene in a card's place, and cut only as "not a card"."""

import numpy as np
import pytest

pytest.importorskip("PIL")

from cribbage.cards import Card  # noqa: E402
from models.training.dataset import BACKGROUND_LABEL, plan_jobs, scene_crops  # noqa: E402
from sim.render.faces import load_face  # noqa: E402
from sim.render.fontdecks import index_fonts  # noqa: E402
from sim.render.jokers import joker_face  # noqa: E402
from sim.render.scenes import make_scene  # noqa: E402
from vision.crops import INDEX_REGION, index_crop  # noqa: E402

DECK = "penguins"  # committed faces: no package needed

pytestmark = pytest.mark.skipif(not index_fonts(), reason="jokers are lettered in an installed font")


def ink_share(face: np.ndarray, region: tuple[float, float, float, float]) -> float:
    """Share of the region's pixels darker or more coloured than the face's paper."""
    h, w = face.shape[:2]
    x, y, rw, rh = region
    part = face[round(y * h):round((y + rh) * h), round(x * w):round((x + rw) * w), :3].astype(int)
    paper = np.median(face[:, :, :3].reshape(-1, 3), axis=0)
    return float((np.abs(part - paper).max(axis=2) > 60).mean())


def test_a_joker_has_its_decks_shape_and_prints_both_index_corners():
    face = load_face(DECK, Card(2, "S"))
    for seed in range(6):
        joker = joker_face(DECK, np.random.default_rng(seed))
        assert joker.shape == face.shape and joker.dtype == np.uint8
        assert np.array_equal(joker[:, :, 3], face[:, :, 3])
        assert ink_share(joker, INDEX_REGION) > 0.02
        assert ink_share(joker[::-1, ::-1], INDEX_REGION) > 0.02
    assert np.array_equal(joker_face(DECK, np.random.default_rng(1)), joker_face(DECK, np.random.default_rng(1)))


@pytest.mark.parametrize("kind", ["separate", "row", "distractors"])
def test_a_scene_with_a_joker_lays_it_in_a_cards_place(kind):
    plain = make_scene(np.random.default_rng(7), kind, DECK)
    joker = make_scene(np.random.default_rng(7), kind, DECK, joker=True)
    assert [p for p, _ in joker.props].count("joker") == 1
    assert len(joker.cards) == len(plain.cards) - 1
    assert "joker" not in [p for p, _ in plain.props]


def test_a_jokers_corners_are_cut_as_not_a_card():
    scene = make_scene(np.random.default_rng(3), "separate", DECK, joker=True)
    (_, quad), = [(p, q) for p, q in scene.props if p == "joker"]
    crops, labels = scene_crops(scene, None, np.random.default_rng(0), True)
    for corner in (quad, np.roll(quad, -2, axis=0)):
        wanted = index_crop(scene.image, corner)
        assert [label for crop, label in zip(crops, labels) if np.array_equal(crop, wanted)] == [BACKGROUND_LABEL]


def test_a_share_of_scenes_lays_a_joker_and_leaves_the_others_as_they_were():
    plain = plan_jobs([DECK], 300, seed=4)
    some = plan_jobs([DECK], 300, seed=4, joker_share=0.2)
    assert not any(job[5] for job in plain)
    assert 0.13 < sum(job[5] for job in some) / len(some) < 0.27
    assert [job[:5] for job in some] == [job[:5] for job in plain]
