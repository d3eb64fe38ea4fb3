"""The training set's crops: sideways index crops (the card's own index corner, turned a quarter each
way) and whole cards for the whole-card network."""

import cv2
import numpy as np

from models.training.dataset import index_crop_turned, turned_about_corner
from vision.crops import index_crop


def card_with_marks() -> tuple[np.ndarray, np.ndarray]:
    """A grey table with an upright white card, a black mark at its corner and a grey one below it."""
    image = np.full((400, 400, 3), 90, np.uint8)
    quad = np.float32([[99.5, 49.5], [239.5, 49.5], [239.5, 249.5], [99.5, 249.5]])  # 140 x 200
    image[50:250, 100:240] = 255
    image[55:62, 105:112] = 0       # at the corner
    image[80:87, 105:112] = 160     # further down the card's long side
    return image, quad


def place(crop: np.ndarray, value: int) -> tuple[float, float]:
    """(x, y) of the mark's centre in a crop, as shares of its width and height."""
    ys, xs = np.nonzero(np.abs(crop[:, :, 0].astype(int) - value) < 30)
    return xs.mean() / crop.shape[1], ys.mean() / crop.shape[0]


def test_the_upright_crop_shows_the_corner_mark_top_left_and_the_other_below_it():
    image, quad = card_with_marks()
    crop = index_crop(image, quad)
    (x0, y0), (x1, y1) = place(crop, 0), place(crop, 160)
    assert x0 < 0.4 and y0 < 0.3
    assert abs(x1 - x0) < 0.1 and y1 > y0 + 0.2


def test_a_quarter_turn_each_way_turns_the_marks_and_does_not_mirror_them():
    image, quad = card_with_marks()
    # Turned +1, the card's long side runs across the crop, the card's edge along its bottom.
    (x0, y0), (x1, y1) = place(index_crop_turned(image, quad, 1), 0), place(index_crop_turned(image, quad, 1), 160)
    assert x0 < 0.3 and y0 > 0.6
    assert x1 > x0 + 0.2 and abs(y1 - y0) < 0.1
    # Turned -1, the other way: the corner at the top right, the long side running leftwards.
    turned = index_crop_turned(image, quad, -1)
    (x0, y0), (x1, y1) = place(turned, 0), place(turned, 160)
    assert x0 > 0.7 and y0 < 0.4
    assert x1 < x0 - 0.2 and abs(y1 - y0) < 0.1


def test_an_outline_turned_about_its_corner_keeps_the_corner_and_tilts_the_index():
    image, quad = card_with_marks()
    turned = turned_about_corner(quad, np.deg2rad(10))
    assert np.allclose(turned[0], quad[0])
    # Same side lengths: turned, not stretched.
    assert np.allclose(np.linalg.norm(np.diff(turned, axis=0), axis=1), np.linalg.norm(np.diff(quad, axis=0), axis=1),
                       atol=1e-3)
    # Turned +10° (y down), the outline's long side runs down and to the left, so the mark straight
    # below the corner in the image lies to the right of the corner in the crop: the index tilted.
    x_square = place(index_crop(image, quad), 160)[0]
    crop = index_crop(image, turned)
    x_corner, x_below = place(crop, 0)[0], place(crop, 160)[0]
    assert x_below > x_corner + 0.03
    assert abs(x_below - x_square) > 0.03


def gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float64)


def likeness(crop: np.ndarray, face: np.ndarray) -> float:
    """Correlation of a crop's grey levels with a face's (grey already), pixel by pixel."""
    return float(np.corrcoef(gray(crop).ravel(), face.ravel())[0, 1])


def test_each_lone_card_of_a_separate_scene_is_cut_whole_twice_and_a_row_gives_none():
    from models.training.dataset import WHOLE_COPIES, whole_card_crops
    from sim.render.scenes import make_scene
    from sim.render.faces import load_face
    from vision.whole_card import HEIGHT, WIDTH, class_of

    rng = np.random.default_rng(5)
    scene = make_scene(rng, "separate", "greywyvern")
    lone = [t for t in scene.cards if t.card is not None and all(t.corners_visible)]
    crops, labels = whole_card_crops(scene, rng)
    assert lone and len(crops) == WHOLE_COPIES * len(lone)
    assert labels == [class_of(t.card) for t in lone for _ in range(WHOLE_COPIES)]
    assert all(crop.shape == (HEIGHT, WIDTH, 3) for crop in crops)
    # Cut at the card, upright, not beside it: each crop looks like its own card's face, and like it no
    # more once moved by half a card (seen: 0.56-0.88 at the card, at most 0.18 moved).
    faces = [gray(cv2.resize(load_face("greywyvern", t.card)[:, :, :3], (WIDTH, HEIGHT), interpolation=cv2.INTER_AREA))
             for t in lone for _ in range(WHOLE_COPIES)]
    assert all(likeness(crop, face) > 0.4 for crop, face in zip(crops, faces))
    assert all(likeness(np.roll(crop, HEIGHT // 2, axis=0), face) < 0.4 for crop, face in zip(crops, faces))
    assert whole_card_crops(make_scene(rng, "row", "greywyvern"), rng) == ([], [])


def test_the_index_of_a_rank_not_to_read_is_labelled_not_a_card_and_nothing_else_changes():
    from cribbage.cards import Card
    from models.training.dataset import BACKGROUND_LABEL, scene_crops
    from sim.render.scenes import make_scene

    scenes = (make_scene(np.random.default_rng(seed), "separate", "greywyvern") for seed in range(20))
    scene = next(s for s in scenes if any(t.card is not None and t.card.rank > 10 for t in s.cards))
    courts = {t.card.index for t in scene.cards if t.card is not None and t.card.rank > 10}
    plain_crops, plain = scene_crops(scene, None, np.random.default_rng(0), True)
    foreign_crops, foreign = scene_crops(scene, None, np.random.default_rng(0), True, frozenset({11, 12, 13}))
    assert courts and courts & set(plain)
    assert len(foreign) == len(plain)
    assert all(np.array_equal(a, b) for a, b in zip(plain_crops, foreign_crops))
    assert foreign == [BACKGROUND_LABEL if label in courts else label for label in plain]
    assert all(Card.from_index(label).rank <= 10 for label in foreign if label != BACKGROUND_LABEL)
