"""The whole-card network's faces from real photos: a card whose two index corners both show is cut
whole from each corner, at its outline and a little moved; a card covered or cut at a corner is not;
every tenth photo is held apart to report on."""

import cv2
import numpy as np

from cribbage.cards import Card
from models.training.real_faces import HELD_APART, build_real_faces, photo_faces
from tests.labelled_photos import CARD, labelled_seven, table_photo
from vision.whole_card import HEIGHT, WIDTH, class_of, face_of


def test_a_card_showing_both_index_corners_is_cut_whole_from_each_exact_and_moved():
    image = table_photo()
    faces, labels = photo_faces(image, labelled_seven(), np.random.default_rng(0))
    assert labels == [class_of(Card.parse("7H"))] * 4
    assert all(face.shape == (HEIGHT, WIDTH, 3) for face in faces)
    assert np.array_equal(faces[0], face_of(image, CARD))
    assert np.array_equal(faces[2], face_of(image, np.roll(CARD, -2, axis=0)))   # from the other index corner
    assert not np.array_equal(faces[0], faces[1])                                  # moved a little


def test_a_card_covered_or_cut_at_a_corner_gives_no_face():
    image = table_photo()
    for corners in (("shown", "unsure"), ("cut", "shown")):
        assert photo_faces(image, labelled_seven(corners), np.random.default_rng(0)) == ([], [])


def test_every_tenth_photo_is_held_apart_and_missing_ones_are_named(tmp_path):
    from bench.real.build import folder_name

    folder = tmp_path / folder_name("a/source")
    folder.mkdir()
    names = [f"p{n}.jpg" for n in range(HELD_APART + 1)]
    for name in names:
        cv2.imwrite(str(folder / name), table_photo())
    said = []
    labels = [labelled_seven(path=name) for name in names + ["gone.jpg"]]
    faces = build_real_faces(tmp_path, 0, labels=labels, log=said.append)
    assert len(faces) == 4 * len(names)
    assert faces.held_apart.sum() == 4 * 2                 # photos 0 and 10
    assert faces.faces.shape[1:] == (HEIGHT, WIDTH, 3)
    assert "1 not found" in said[0]
