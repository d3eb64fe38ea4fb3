"""Training views for the index-corner detector (vision.corners): rendered scenes shrunk to the
detector's input, each with the visible index corners of its face-up cards.

A view is the scene's whole frame, or (half the time) a part of it zoomed up to 1.6 times, so the
detector meets bigger cards than the scenes lay out; a corner counts only where its whole index lies
inside the view and is uncovered.  Backs, props, covered corners and the blank corners of a card
are what it must learn to pass over.  Only sim.render.decks.training_decks() and the training
font decks are ever rendered here.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.training.dataset import _quiet_worker
from models.training.decks import scene_jobs
from vision.corners import INPUT_WIDTH, STRIDE, VECTOR_SCALE, input_size
from vision.crops import INDEX_REGION, region_quad

KIND_WEIGHTS = {"separate": 0.30, "row": 0.45, "backs": 0.08, "empty": 0.05, "distractors": 0.12}
FRAME = (1280, 720)
MAX_ZOOM = 1.6
UNSURE_HEAT = 0.99    # the heat round a real photo's unconfirmed index corner: not taught either way
DATA_VERSION = 1  # bump when the way views are cut or labelled changes


@dataclass
class ViewSet:
    """N views (N x H x W x 3 uint8), their corners (a K x 6 float32 array each: corner x y, across x y,
    down x y, input pixels) and each view's deck id and scene number; where real photos are among
    them (deck id -1, the scene number the photo's), the corners no label could confirm, per view."""

    images: np.ndarray
    corners: list[np.ndarray]
    decks: np.ndarray
    scenes: np.ndarray
    unsure: list[np.ndarray] | None = None


def with_real(views: ViewSet, real) -> ViewSet:
    """The rendered views followed by real photos' views (models.training.real_views.RealViews)."""
    none = [np.zeros((0, 6), np.float32)] * len(views.images)
    return ViewSet(np.concatenate([views.images, real.images]), list(views.corners) + list(real.corners),
                   np.concatenate([views.decks, np.full(len(real.images), -1, views.decks.dtype)]),
                   np.concatenate([views.scenes, real.photos.astype(views.scenes.dtype)]),
                   (views.unsure or none) + list(real.unsure))


def scene_view(scene, rng: np.random.Generator, zoom: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(view image, its corners) from one rendered scene; zoom None: the whole frame or a random zoom."""
    h, w = scene.image.shape[:2]
    if zoom is None:
        zoom = 1.0 if rng.random() < 0.5 else float(rng.uniform(1.0, MAX_ZOOM))
    vw, vh = int(round(w / zoom)), int(round(h / zoom))
    x0, y0 = int(rng.integers(0, w - vw + 1)), int(rng.integers(0, h - vh + 1))
    iw, ih = input_size(w, h)  # every view of a frame size the same input size, zoomed or not
    image = cv2.resize(scene.image[y0:y0 + vh, x0:x0 + vw], (iw, ih), interpolation=cv2.INTER_AREA)
    sx, sy = iw / vw, ih / vh
    corners = []
    for truth in scene.cards:
        if truth.card is None:
            continue
        for shown, turn in zip(truth.corners_visible, (0, 2)):
            quad = np.roll(np.asarray(truth.quad, np.float64), -turn, axis=0)
            index = region_quad(quad, INDEX_REGION)
            inside = (index[:, 0] >= x0).all() and (index[:, 0] <= x0 + vw - 1).all() and \
                (index[:, 1] >= y0).all() and (index[:, 1] <= y0 + vh - 1).all()
            if not (shown and inside):
                continue
            q = (quad - [x0, y0] + 0.5) * [sx, sy] - 0.5
            corners.append([*q[0], *(q[1] - q[0]), *(q[3] - q[0])])
    return image, np.asarray(corners, np.float32).reshape(-1, 6)


def targets(corners: np.ndarray, shape: tuple[int, int],
            unsure: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Heat map (h x w), regression targets (6 x h x w) and their mask (h x w) for one view's corners.

    The heat is a Gaussian round each corner (wider for bigger cards); offsets and the card's sides
    are taught in the 3 x 3 cells round it, the nearest corner winning where two meet. A corner whose
    sides are NaN (a real photo's outline that no label verified) keeps them NaN in `reg`, and the
    loss leaves them untaught (models.training.corners.loss_of); its heat is the narrowest. Round each
    `unsure` corner (same layout: a real photo's index no label could confirm) the heat is raised to
    just under 1, where the focal loss's (1 - heat)^4 weighs a peak at nothing: neither taught as a
    corner nor as background.
    """
    h, w = shape[0] // STRIDE, shape[1] // STRIDE
    heat = np.zeros((h, w), np.float32)
    reg = np.zeros((6, h, w), np.float32)
    mask = np.zeros((h, w), np.float32)
    best = np.full((h, w), np.inf, np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    for x, y, ax, ay, dx, dy in corners:
        cx, cy = (x + 0.5) / STRIDE, (y + 0.5) / STRIDE  # in cells, 0 at the image's outer edge
        length = float(np.hypot(dx, dy))
        sigma = max(0.6, 0.05 * length / STRIDE) if np.isfinite(length) else 0.6
        np.maximum(heat, np.exp(-((xs + 0.5 - cx) ** 2 + (ys + 0.5 - cy) ** 2) / (2 * sigma ** 2)), out=heat)
        ix, iy = int(np.floor(cx)), int(np.floor(cy))
        if 0 <= ix < w and 0 <= iy < h:
            heat[iy, ix] = 1.0
        for gy in range(iy - 1, iy + 2):
            for gx in range(ix - 1, ix + 2):
                if not (0 <= gx < w and 0 <= gy < h):
                    continue
                d = (gx + 0.5 - cx) ** 2 + (gy + 0.5 - cy) ** 2
                if d < best[gy, gx]:
                    best[gy, gx] = d
                    reg[:, gy, gx] = [cx - gx, cy - gy, ax / VECTOR_SCALE, ay / VECTOR_SCALE,
                                      dx / VECTOR_SCALE, dy / VECTOR_SCALE]
                    mask[gy, gx] = 1.0
    for x, y, ax, ay, dx, dy in (() if unsure is None else unsure):
        cx, cy = (x + 0.5) / STRIDE, (y + 0.5) / STRIDE
        sigma = max(1.0, 0.15 * float(np.hypot(dx, dy)) / STRIDE)
        beyond = np.maximum(0.0, np.hypot(xs + 0.5 - cx, ys + 0.5 - cy) - 1.0)  # flat over the nearest cells
        near = UNSURE_HEAT * np.exp(-beyond ** 2 / (2 * sigma ** 2))
        np.maximum(heat, np.where(heat >= 1.0, heat, near), out=heat)
    return heat, reg, mask


def _render_job(job: tuple[str, str, int]) -> tuple[np.ndarray, np.ndarray]:
    from sim.render.scenes import make_scene

    deck, kind, seed = job
    rng = np.random.default_rng(seed)
    scene = make_scene(rng, kind, deck, FRAME)
    return scene_view(scene, rng)


def plan_jobs(scenes: dict[str, int], seed: int) -> list[tuple[str, str, int]]:
    """(deck, kind, seed) per scene, seeds apart from the classifier's scenes."""
    return scene_jobs(scenes, KIND_WEIGHTS, seed, offset=7_000_003)


def build(scenes: dict[str, int], seed: int, workers: int, log=print) -> ViewSet:
    """Render every planned scene (in `workers` processes) and cut its view."""
    jobs = plan_jobs(scenes, seed)
    decks = list(scenes)
    log(f"rendering {len(jobs)} scenes of {len(decks)} decks for the corner detector in {workers} processes")
    images, corners, deck_ids, start = [], [], [], time.time()
    context = multiprocessing.get_context("spawn")  # a fork after torch has started threads can hang
    with ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker, mp_context=context) as pool:
        for i, (image, found) in enumerate(pool.map(_render_job, jobs, chunksize=8)):
            images.append(image)
            corners.append(found)
            deck_ids.append(decks.index(jobs[i][0]))
            if (i + 1) % max(1, len(jobs) // 10) == 0:
                log(f"  {i + 1}/{len(jobs)} scenes, {time.time() - start:.0f} s")
    return ViewSet(np.stack(images), corners, np.asarray(deck_ids, np.int16), np.arange(len(jobs), dtype=np.int32))


def views_path(cache_dir: Path, scenes: dict[str, int], seed: int) -> Path:
    """Where cached_build keeps these views: named by a key of everything that shapes them."""
    from sim.render.fontdecks import cache_key

    key = json.dumps({"scenes": scenes, "seed": seed, "v": DATA_VERSION, "input": [INPUT_WIDTH, STRIDE],
                      "font_decks": cache_key(list(scenes)), "index": list(INDEX_REGION),
                      "kinds": KIND_WEIGHTS}, sort_keys=True)
    return cache_dir / f"views-{hashlib.sha1(key.encode()).hexdigest()[:12]}.npz"


def cached_build(cache_dir: Path, scenes: dict[str, int], seed: int, workers: int, log=print) -> ViewSet:
    """build(), kept in cache_dir (views_path)."""
    path = views_path(cache_dir, scenes, seed)
    if path.is_file():
        log(f"using cached views {path}")
        with np.load(path) as z:
            counts = z["counts"]
            flat = z["corners"]
            corners = np.split(flat, np.cumsum(counts)[:-1]) if len(counts) else []
            return ViewSet(z["images"], list(corners), z["decks"], z["scenes"])
    data = build(scenes, seed, workers, log)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, images=data.images, corners=np.concatenate(data.corners).reshape(-1, 6),
             counts=np.asarray([len(c) for c in data.corners], np.int64), decks=data.decks, scenes=data.scenes)
    os.replace(tmp, path)
    return data
