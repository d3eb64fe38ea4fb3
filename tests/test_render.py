"""Rendered faces and scenes: the ground truth matches what is drawn, and every kind renders."""

import cv2
import numpy as np
import pytest

from cribbage.cards import Card
from sim.render import faces
from sim.render.backgrounds import TEXTURES, make_background
from sim.render.decks import EXCLUDED_DECKS, HELD_OUT_DECKS, element_id
from sim.render.scenes import SCENE_KINDS, make_scene
from sim.render.table import Placement, compose
from vision.errors import VisionError

DECK = HELD_OUT_DECKS[0]


def test_three_varied_decks_are_held_out_and_none_is_excluded():
    assert len(set(HELD_OUT_DECKS)) >= 3
    assert not set(HELD_OUT_DECKS) & set(EXCLUDED_DECKS)


def test_element_ids_follow_the_kdegames_naming():
    assert element_id(Card.parse("AC")) == "1_club"
    assert element_id(Card.parse("QH")) == "queen_heart"
    assert element_id(Card.parse("TS")) == "10_spade"
    assert element_id(None) == "back"


@pytest.mark.parametrize("deck", HELD_OUT_DECKS)
def test_held_out_assets_are_committed_and_complete(deck):
    assert deck in faces.asset_decks()
    deck_faces = faces.load_deck(deck)
    assert len(deck_faces) == 53
    shapes = {f.shape for f in deck_faces.values()}
    assert len(shapes) == 1
    h, w, c = shapes.pop()
    assert h == faces.FACE_HEIGHT and c == 4 and 0.6 < w / h < 0.8


def test_faces_have_rounded_transparent_corners_and_an_opaque_middle():
    face = faces.load_face(DECK, Card.parse("7D"))
    assert face[0, 0, 3] < 64 and face[-1, -1, 3] < 64
    assert face[face.shape[0] // 2, face.shape[1] // 2, 3] > 250


def test_a_missing_deck_says_how_to_install_it():
    with pytest.raises(VisionError, match="apt install kdegames-card-data-kf5"):
        faces.load_face("no-such-deck", Card.parse("5H"))


def test_two_processes_rendering_one_face_do_not_trip_over_each_other(tmp_path, monkeypatch):
    """`make model` renders in two processes, and both may render the same face into the cache at
    once: here the other one writes the face from start to finish between this one's write and its
    rename (a shared temporary name made the second rename fail on a fresh clone)."""
    path = tmp_path / "deck" / "2S.png"
    face = np.random.default_rng(1).integers(0, 256, (14, 10, 4), dtype=np.uint8)
    real_replace = faces.os.replace
    others = []

    def another_writer_first(src, dst):
        if not others:
            others.append(dst)
            faces._write_atomically(path, face)
        real_replace(src, dst)

    monkeypatch.setattr(faces.os, "replace", another_writer_first)
    faces._write_atomically(path, face)
    assert others == [path]
    assert np.array_equal(cv2.imread(str(path), cv2.IMREAD_UNCHANGED), face)
    assert [p.name for p in path.parent.iterdir()] == ["2S.png"]  # no temporary file left behind


def test_a_face_cache_that_cannot_be_written_says_so_and_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(faces.cv2, "imwrite", lambda *args: False)
    with pytest.raises(VisionError, match="cannot write the face cache"):
        faces._write_atomically(tmp_path / "deck" / "2S.png", np.zeros((4, 3, 4), np.uint8))
    assert list((tmp_path / "deck").iterdir()) == []


@pytest.mark.parametrize("texture", TEXTURES)
def test_every_texture_renders_at_the_asked_size(texture):
    image = make_background(np.random.default_rng(0), texture, (320, 200))
    assert image.shape == (200, 320, 3) and image.dtype == np.uint8
    assert image.std() > 0.5


def test_compose_puts_the_card_where_asked_in_an_overhead_view():
    table = np.full((400, 600, 3), 40, np.uint8)
    card = Card.parse("KS")
    scene = compose(table, [Placement(card, (300, 200), 90.0, 200)], np.random.default_rng(1), DECK,
                    realism=0)
    (placed,) = scene.cards
    assert placed.card == card and placed.index_visible
    # Turned 90 degrees clockwise: the card's top-left corner is now at the top-right on screen.
    centre = placed.quad.mean(axis=0)
    assert np.allclose(centre, (300, 200), atol=1)
    assert placed.quad[0][0] > 300 and placed.quad[0][1] < 200
    sides = np.hypot(*(np.roll(placed.quad, -1, 0) - placed.quad).T)
    assert np.isclose(sides[1], 200, atol=1) and sides[0] < sides[1]
    # Inside the quad the image is the bright card, outside the dark table.
    assert scene.image[200, 300].mean() > 150 and scene.image[20, 20].mean() < 60


def test_a_covering_card_hides_the_index_below_it():
    table = np.full((400, 600, 3), 40, np.uint8)
    below, above = Card.parse("2C"), Card.parse("3C")
    scene = compose(table, [Placement(below, (300, 200), 0, 200), Placement(above, (300, 200), 0, 200)],
                    np.random.default_rng(2), DECK, realism=0)
    assert [c.index_visible for c in scene.cards] == [False, True]


def test_a_row_shows_every_index_but_covers_each_card():
    table = np.full((400, 800, 3), 40, np.uint8)
    cards = [Card.parse(c) for c in ("2C", "3D", "4H", "5S")]
    row = [Placement(c, (200 + 60 * i, 200), 0, 200) for i, c in enumerate(cards)]
    scene = compose(table, row, np.random.default_rng(3), DECK, realism=0)
    assert all(c.index_visible for c in scene.cards)
    assert [c.card for c in scene.cards] == cards


def test_a_row_laid_the_other_way_shows_the_bottom_right_index():
    table = np.full((400, 800, 3), 40, np.uint8)
    row = [Placement(Card.parse(c), (500 - 60 * i, 200), 0, 200) for i, c in enumerate(("2C", "3D"))]
    scene = compose(table, row, np.random.default_rng(4), DECK, realism=0)
    first = scene.cards[0]
    assert first.index_visible
    assert first.quad[0][1] > 250  # the quad now starts at the card's bottom-right corner


@pytest.mark.parametrize("kind", SCENE_KINDS)
def test_every_scene_kind_renders_with_consistent_ground_truth(kind):
    scene = make_scene(np.random.default_rng(5), kind, DECK, size=(640, 360))
    assert scene.image.shape == (360, 640, 3)
    if kind == "empty":
        assert scene.cards == ()
    if kind == "backs":
        assert scene.cards and all(c.card is None for c in scene.cards)
    if kind in ("separate", "row", "fan", "oblique"):
        assert len(scene.cards) >= 2 and all(c.card is not None for c in scene.cards)
    for placed in scene.cards:
        assert placed.quad.shape == (4, 2) and placed.quad.dtype == np.float32


def test_an_oblique_view_shortens_the_tables_depth_and_shrinks_its_far_side():
    from sim.render.camera import oblique_view

    size = (1280, 720)
    assert np.allclose(oblique_view(size, 0), np.eye(3))
    view = oblique_view(size, 45)
    seen = cv2.perspectiveTransform(np.float32([[[640, 350], [640, 370], [600, 100], [680, 100],
                                                 [600, 620], [680, 620]]]), view)[0]
    assert np.allclose(seen[1, 1] - seen[0, 1], 20 * np.cos(np.radians(45)), atol=0.5)  # at the centre
    far, near = seen[3, 0] - seen[2, 0], seen[5, 0] - seen[4, 0]
    assert far < 80 < near


def test_a_fan_turns_each_card_past_the_last_and_leaves_most_indices_showing():
    shown = total = 0
    for seed in range(12):
        scene = make_scene(np.random.default_rng(seed), "fan", DECK, size=(960, 540))
        # Each card's long side, from its index corner down the card, turns the same way as the fan goes.
        downs = [c.quad[3] - c.quad[0] for c in scene.cards]
        angles = [np.degrees(np.arctan2(d[1], d[0])) for d in downs]
        turns = [(b - a + 180) % 360 - 180 for a, b in zip(angles, angles[1:])]
        assert sum(8 < t < 30 for t in turns) >= len(turns) // 2, turns  # a second fan restarts the turn
        shown += sum(c.index_visible for c in scene.cards)
        total += len(scene.cards)
    assert 0.6 * total < shown < total  # most indices show, but a tight fan hides some


def test_scenes_are_reproducible_from_their_seed():
    a = make_scene(np.random.default_rng(9), "separate", DECK, size=(320, 180))
    b = make_scene(np.random.default_rng(9), "separate", DECK, size=(320, 180))
    assert np.array_equal(a.image, b.image)


def test_an_unknown_scene_kind_is_a_vision_error():
    with pytest.raises(VisionError, match="separate"):
        make_scene(np.random.default_rng(0), "pile", DECK)
