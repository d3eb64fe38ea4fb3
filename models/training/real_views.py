"""Training views for the index-corner detector cut from real photographs of real cards.

The rendered scenes teach the detector every deck the project can draw; these teach it what a camera
does to real print: gloss, blur, grain, warm and dim light, worn cards on real tables. The labels are
`models/training/real/corners.jsonl` (made by `python -m models.training.real_labels` from photos
whose licence allows training); the photos are rebuilt into `.cache/real` by `python -m
bench.real.build`. Only photos whose every named card has an outline are used, so that the rest of
the photo may be taught as "no corner".

A view is the photo turned a random quarter (a card on a table has no up), cut to the detector's
view shape at a random place and zoom, and shrunk to its input size. An index corner confirmed by the
classifier is a target where its whole index lies inside the view; one the labels could not confirm
(covered, or unreadable) is taught neither way (`corner_data.targets`' `unsure`). A target's sides
(the card's across and down) are taught only where its outline is verified: fitted to the source's
box, drawn by hand, or read as the named card at both index corners. The recognizer's outline of a
card read at one corner only puts that corner right but guesses the sides, often far off on small
or skewed cards; such a corner is taught with its sides unknown (NaN), its place and offset only.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.training.corner_data import MAX_ZOOM
from models.training.real_labels import (BOTH_SHOWN, CompletePhotos, LabelledPhoto, index_corners, inside,
                                         load_corner_labels)
from vision.crops import INDEX_REGION, index_centre, region_quad


@dataclass
class RealViews:
    """N views (N x H x W x 3 uint8), each view's target corners and unsure corners (K x 6 float32:
    corner x y, across x y, down x y, input pixels; a target's sides NaN where its outline is not
    verified), and the labelled photo each was cut from."""

    images: np.ndarray
    corners: list[np.ndarray]
    unsure: list[np.ndarray]
    photos: np.ndarray


def turned(points: np.ndarray, size: tuple[int, int], quarters: int) -> np.ndarray:
    """Points of a w x h image after it is turned `quarters` quarter turns clockwise (cv2.rotate)."""
    w, h = size
    x, y = points[..., 0], points[..., 1]
    if quarters % 4 == 1:
        return np.stack([h - 1 - y, x], axis=-1)
    if quarters % 4 == 2:
        return np.stack([w - 1 - x, h - 1 - y], axis=-1)
    if quarters % 4 == 3:
        return np.stack([y, w - 1 - x], axis=-1)
    return points.copy()


ROTATIONS = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}


VERIFIED_BY = ("box", "hand")   # outlines whose sides a source's box or a person gave


def sides_verified(card) -> bool:
    """Whether a labelled card's outline has the card's sides right, not only its first corner."""
    return card.by in VERIFIED_BY or card.corners == BOTH_SHOWN


def photo_corners(photo: LabelledPhoto) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """(outlines started at each shown index corner whose sides are verified, at each shown one whose
    sides are not, at each unsure one)."""
    shown, loose, unsure = [], [], []
    for card in photo.cards:
        sure = shown if sides_verified(card) else loose
        for started, verdict in zip(index_corners(card.quad), card.corners):
            (sure if verdict == "shown" else unsure if verdict == "unsure" else []).append(started)
    return shown, loose, unsure


def as_row(quad: np.ndarray, sides_known: bool = True) -> list[float]:
    if not sides_known:
        return [*quad[0], *[float("nan")] * 4]
    return [*quad[0], *(quad[1] - quad[0]), *(quad[3] - quad[0])]


def cut_view(image: np.ndarray, shown: list[np.ndarray], loose: list[np.ndarray], unsure: list[np.ndarray],
             rng: np.random.Generator, out_size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One view (out_size = (width, height)) of a photo, with its target corners (the loose ones'
    sides NaN) and unsure corners."""
    h, w = image.shape[:2]
    quarters = int(rng.integers(0, 4))
    if quarters:
        image = cv2.rotate(image, ROTATIONS[quarters])
        shown = [turned(q, (w, h), quarters) for q in shown]
        loose = [turned(q, (w, h), quarters) for q in loose]
        unsure = [turned(q, (w, h), quarters) for q in unsure]
        h, w = image.shape[:2]
    out_w, out_h = out_size
    aspect = out_w / out_h
    vw, vh = (h * aspect, float(h)) if w / h > aspect else (float(w), w / aspect)
    if rng.random() < 0.5:
        zoom = float(rng.uniform(1.0, MAX_ZOOM))
        vw, vh = vw / zoom, vh / zoom
    vw, vh = max(8, int(round(vw))), max(8, int(round(vh)))
    x0, y0 = int(rng.integers(0, w - vw + 1)), int(rng.integers(0, h - vh + 1))
    view = cv2.resize(image[y0:y0 + vh, x0:x0 + vw], (out_w, out_h), interpolation=cv2.INTER_AREA)
    scale = np.array([out_w / vw, out_h / vh])

    def moved(q: np.ndarray) -> np.ndarray:
        return (q - [x0, y0] + 0.5) * scale - 0.5

    corners = [as_row(moved(q), known) for quads, known in ((shown, True), (loose, False)) for q in quads
               if inside(moved(region_quad(q, INDEX_REGION)), (out_w, out_h))]
    maybe = [as_row(moved(q)) for q in unsure if inside(moved(index_centre(q))[None], (out_w, out_h))]
    return (view, np.asarray(corners, np.float32).reshape(-1, 6), np.asarray(maybe, np.float32).reshape(-1, 6))


def missing_photos(photos_root: Path, labels: list[LabelledPhoto] | None = None) -> list[str]:
    """The complete labelled photos ('owner/name:path') not under photos_root: a detector asked to learn
    from real photos refuses to train without them rather than train on fewer than asked."""
    labels = load_corner_labels() if labels is None else labels
    return [f"{p.source}:{p.path}" for p in labels if p.complete and not p.file_under(photos_root).is_file()]


def build_real_views(photos_root: Path, views_per_photo: int, seed: int, out_size: tuple[int, int],
                     labels: list[LabelledPhoto] | None = None, log=print) -> RealViews:
    """views_per_photo views of every complete labelled photo found under photos_root."""
    labels = load_corner_labels() if labels is None else labels
    rng = np.random.default_rng(seed + 91_000_003)
    images, corners, unsure, photos = [], [], [], []
    complete = CompletePhotos(labels, photos_root)
    for n, photo, image in complete:
        shown, loose, maybe = photo_corners(photo)
        for _ in range(views_per_photo):
            view, found, unsure_here = cut_view(image, shown, loose, maybe, rng, out_size)
            images.append(view)
            corners.append(found)
            unsure.append(unsure_here)
            photos.append(n)
    log(f"real views: {len(images)} from {complete.summary()} "
        f"({complete.incomplete} incomplete left out{complete.not_found()})")
    empty = np.zeros((0, out_size[1], out_size[0], 3), np.uint8)
    return RealViews(np.stack(images) if images else empty, corners, unsure, np.asarray(photos, np.int32))
