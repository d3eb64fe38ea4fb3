"""The index crop: the one function that cuts what the classifier reads, in training and at inference.

A card's quad (4x2, clockwise from the upright card's top-left corner) defines card coordinates
u, v in [0, 1] (u across, v down).  The index corner — rank above suit pip — lies in
u < INDEX_REGION[2], v < INDEX_REGION[3] on every English-indexed deck we render; it is warped to a
small upright BGR patch of INDEX_WIDTH x INDEX_HEIGHT pixels.

Image coordinates follow OpenCV: pixel centres sit at integers, so an image's outer edge runs from
-0.5 to width - 0.5, and an upright face filling an image has the quad (-0.5, -0.5) .. (w - 0.5, h - 0.5).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# The patch the classifier reads: BGR uint8, INDEX_HEIGHT rows x INDEX_WIDTH columns. Its two networks
# read it at this size and shrunk to 32 x 56 (inside the ONNX graph); they misread different indices.
INDEX_WIDTH = 40
INDEX_HEIGHT = 70
# The region of the card it covers, in card coordinates: (u0, v0, u1, v1).
# 0.28 x 0.36 of a 0.7-aspect card is 0.2 x 0.36 card heights, about the 4:7 shape of the patch;
# tall enough for the big two-line indices of the nicu and jolly-royal decks.
INDEX_REGION = (0.0, 0.0, 0.28, 0.36)
# At most this many source pixels per patch pixel are sampled before area-averaging (anti-aliasing).
_MAX_OVERSAMPLE = 4


def parallelogram(corner: np.ndarray, across: np.ndarray, down: np.ndarray) -> np.ndarray:
    """The card outline (4x2 float32, clockwise) from one corner and its two sides from there."""
    return np.stack([corner, corner + across, corner + across + down, corner + down]).astype(np.float32)


def card_to_image(quad: np.ndarray) -> np.ndarray:
    """3x3 homography from card coordinates (u, v in [0, 1]) to image pixels."""
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    return cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32).reshape(4, 2))


def region_quad(quad: np.ndarray, region: tuple[float, float, float, float]) -> np.ndarray:
    """Image corners (4x2, clockwise from top-left) of a region (u0, v0, u1, v1) of the card."""
    u0, v0, u1, v1 = region
    pts = np.float32([[[u0, v0], [u1, v0], [u1, v1], [u0, v1]]])
    return cv2.perspectiveTransform(pts, card_to_image(quad))[0]


def index_centre(quad: np.ndarray) -> np.ndarray:
    """The centre of the index crop cut at the outline's first corner, in image pixels."""
    return region_quad(quad, INDEX_REGION).mean(axis=0)


def warp_region(image: np.ndarray, corners: np.ndarray, width: int, height: int) -> np.ndarray:
    """Warp the quadrilateral `corners` of image to an upright width x height patch, anti-aliased."""
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    side = max(np.linalg.norm(corners[1] - corners[0]) / width,
               np.linalg.norm(corners[3] - corners[0]) / height,
               np.linalg.norm(corners[2] - corners[3]) / width,
               np.linalg.norm(corners[2] - corners[1]) / height)
    k = int(min(_MAX_OVERSAMPLE, max(1, math.ceil(side - 0.25))))
    wk, hk = width * k - 0.5, height * k - 0.5
    dst = np.float32([[-0.5, -0.5], [wk, -0.5], [wk, hk], [-0.5, hk]])
    matrix = cv2.getPerspectiveTransform(corners, dst)
    patch = cv2.warpPerspective(image, matrix, (width * k, height * k), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    if k > 1:
        patch = cv2.resize(patch, (width, height), interpolation=cv2.INTER_AREA)
    return patch


def index_crop(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card's index corner as an INDEX_HEIGHT x INDEX_WIDTH BGR patch (the classifier's input)."""
    return warp_region(image, region_quad(quad, INDEX_REGION), INDEX_WIDTH, INDEX_HEIGHT)


def warp_card(image: np.ndarray, quad: np.ndarray, size: tuple[int, int] = (175, 250)) -> np.ndarray:
    """The whole card, upright, at size (width, height): for overlays and debugging."""
    return warp_region(image, quad, size[0], size[1])
