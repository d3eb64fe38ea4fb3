"""The index crop cuts the same patch whatever the card's position, rotation or perspective."""

import cv2
import numpy as np
import pytest

from cribbage.cards import Card
from sim.render.faces import load_face
from vision.crops import INDEX_HEIGHT, INDEX_REGION, INDEX_WIDTH, index_crop, region_quad, warp_card


def upright(deck="xskat-french-large", card=Card(10, "H")):
    face = load_face(deck, card)
    h, w = face.shape[:2]
    edges = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) - 0.5  # pixel centres at integers
    return np.ascontiguousarray(face[:, :, :3]), edges


def reference_crop(face):
    h, w = face.shape[:2]
    u0, v0, u1, v1 = INDEX_REGION
    region = face[int(v0 * h):int(round(v1 * h)), int(u0 * w):int(round(u1 * w))]
    return cv2.resize(region, (INDEX_WIDTH, INDEX_HEIGHT), interpolation=cv2.INTER_AREA)


def test_crop_has_the_agreed_size_and_colour():
    face, quad = upright()
    crop = index_crop(face, quad)
    assert crop.shape == (INDEX_HEIGHT, INDEX_WIDTH, 3) and crop.dtype == np.uint8


def test_crop_of_upright_face_is_its_top_left_corner():
    face, quad = upright()
    diff = np.abs(index_crop(face, quad).astype(int) - reference_crop(face).astype(int))
    assert diff.mean() < 6


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_crop_follows_the_quad_order_when_the_card_is_turned(turns):
    face, quad = upright()
    h, w = face.shape[:2]
    turned = np.rot90(face, turns).copy()
    # np.rot90 turns counter-clockwise: (x, y) -> (y, w - 1 - x) for one turn.
    pts = quad.copy()
    size = (w, h)
    for _ in range(turns):
        pts = np.stack([pts[:, 1], size[0] - 1 - pts[:, 0]], axis=1)
        size = (size[1], size[0])
    diff = np.abs(index_crop(turned, pts).astype(int) - index_crop(face, quad).astype(int))
    assert diff.mean() < 2


def test_crop_undoes_perspective_and_scale():
    face, quad = upright()
    target = np.float32([[400, 120], [520, 140], [505, 300], [370, 285]])
    matrix = cv2.getPerspectiveTransform(quad, target)
    scene = cv2.warpPerspective(face, matrix, (900, 500), borderValue=(40, 90, 40))
    small = index_crop(scene, target)
    diff = np.abs(small.astype(int) - reference_crop(face).astype(int))
    assert diff.mean() < 25  # the card is 160 px high here: detail is lost, the layout is not


def test_crop_tells_red_from_black():
    red, quad = upright(card=Card(10, "H"))
    black, _ = upright(card=Card(10, "S"))
    def redness(c):
        return float(c[:, :, 2].astype(int).mean() - c[:, :, 0].astype(int).mean())
    assert redness(index_crop(red, quad)) > redness(index_crop(black, quad)) + 10


def test_region_quad_of_whole_card_is_the_quad():
    _, quad = upright()
    assert np.allclose(region_quad(quad, (0, 0, 1, 1)), quad, atol=1e-3)


def test_warp_card_returns_the_requested_size():
    face, quad = upright()
    assert warp_card(face, quad, (100, 140)).shape == (140, 100, 3)
