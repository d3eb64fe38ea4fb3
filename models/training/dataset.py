"""The crop set: index crops cut from rendered scenes of the training decks, labelled from ground truth.

Crops are cut the way inference cuts them: the project's card finder runs on every scene, each
outline it reports is matched to the ground-truth card beneath it, and the crop is taken with the
finder's corners (vision.crops.index_crop). Exact ground-truth crops, jittered ones and crops whose
corners are badly off are added. Labels: 0..51 the cards (Card.index), 52 "not a card" — card backs,
bare table, props (hands, phones, paper), jokers' corners (sim/render/jokers.py), the blank corners of
a card, crops knocked off the index, the courts of a font deck lettered in another language
(sim.render.fontdecks.foreign_ranks), and every outline the finder reports on something that is not
a face-up card.

Each separate scene's face-up cards are also cut whole (vision.whole_card), for the whole-card
network that `python -m models.training` trains after the classifier (models/training/whole_card.py).

Only decks listed by sim.render.decks.training_decks() are ever rendered here.
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

from cribbage.cards import FULL_DECK
from vision.crops import INDEX_HEIGHT, INDEX_REGION, INDEX_WIDTH, index_crop, region_quad, warp_region
from vision.settle import quad_iou
from vision.whole_card import HEIGHT as WHOLE_HEIGHT
from vision.whole_card import WIDTH as WHOLE_WIDTH
from vision.whole_card import class_of

BACKGROUND_LABEL = 52
CLASSES = 53
KIND_WEIGHTS = {"separate": 0.40, "row": 0.30, "backs": 0.10, "empty": 0.05, "distractors": 0.15}
MATCH_IOU = 0.5
DATA_VERSION = 9  # bump when the way crops are cut or labelled changes
WHOLE_COPIES = 2       # each lone card is cut whole this many times ...
WHOLE_JITTER = 0.012   # ... its corners moved at random by this share of its length (a finder's slack)
# Cards far off: their long side this share of the frame height (the scenes' own is 0.17-0.30), where
# an index is 12-20 pixels tall in a 1280x720 frame (--small-cards).
SMALL_CARD_SHARE = (0.10, 0.17)
SKEW_DEGREES = (4.0, 12.0)  # an index cut through an outline turned this far about its corner


@dataclass
class WholeCards:
    """N whole cards (N x WHOLE_HEIGHT x WHOLE_WIDTH x 3 uint8) with their class (vision.whole_card),
    deck and scene ids."""

    crops: np.ndarray
    labels: np.ndarray
    decks: np.ndarray
    scenes: np.ndarray


@dataclass
class CropSet:
    """N crops (N x INDEX_HEIGHT x INDEX_WIDTH x 3 uint8) with labels, deck and scene-kind ids; and the
    same scenes' whole cards."""

    crops: np.ndarray
    labels: np.ndarray
    decks: np.ndarray
    kinds: np.ndarray
    scenes: np.ndarray
    whole: WholeCards


def best_rotation(quad: np.ndarray, target: np.ndarray) -> tuple[int, float]:
    """The roll of `quad`'s corners that best lines up with `target`, and the mean corner distance."""
    errors = [float(np.linalg.norm(np.roll(quad, -r, axis=0) - target, axis=1).mean()) for r in range(4)]
    r = int(np.argmin(errors))
    return r, errors[r]


def card_height(quad: np.ndarray) -> float:
    q = np.asarray(quad, np.float32)
    return float((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2)


def shifted_quad(quad: np.ndarray, du: float, dv: float) -> np.ndarray:
    """The quad moved by (du, dv) card widths/heights along its own axes."""
    q = np.asarray(quad, np.float32)
    across, down = q[1] - q[0], q[3] - q[0]
    return q + du * across + dv * down


def turned_about_corner(quad: np.ndarray, radians: float) -> np.ndarray:
    """The quad turned by `radians` about its first corner (the index corner)."""
    q = np.asarray(quad, np.float32)
    c, s = np.cos(radians), np.sin(radians)
    turn = np.float32([[c, -s], [s, c]])
    return (q - q[0]) @ turn.T + q[0]


def bottom_index_is_turned(deck: str) -> bool:
    """True when the deck prints its bottom-right index turned 180°, as most decks do.

    Then the card read from its bottom-right corner looks like the top-left one; if not (the
    ancient-egyptians deck prints it upright) that corner shows an upside-down index, where a 6 looks
    like a 9, so training must not label it as the card.
    """
    from sim.render.faces import load_face

    scores = []
    for card in FULL_DECK[::3]:
        face = load_face(deck, card)[:, :, :3]
        h, w = face.shape[:2]
        quad = np.float32([[-0.5, -0.5], [w - 0.5, -0.5], [w - 0.5, h - 0.5], [-0.5, h - 0.5]])
        top = cv2.cvtColor(index_crop(face, quad), cv2.COLOR_BGR2GRAY).astype(np.float32)
        bottom = cv2.cvtColor(index_crop(face, np.roll(quad, -2, axis=0)), cv2.COLOR_BGR2GRAY).astype(np.float32)
        scores.append(float(cv2.matchTemplate(top, bottom[6:-6, 4:-4], cv2.TM_CCOEFF_NORMED).max()))
    return float(np.mean(scores)) > 0.8


def unread_ranks(deck: str) -> frozenset[int]:
    """The ranks of `deck` whose index is no card to read: the courts a font deck letters in another
    language. Their index crops are labelled "not a card"."""
    from sim.render.fontdecks import foreign_ranks, is_font_deck, language_of

    return foreign_ranks(language_of(deck)) if is_font_deck(deck) else frozenset()


def scene_crops(scene, finder, rng: np.random.Generator, turned_ok: bool,
                unread: frozenset[int] = frozenset()) -> tuple[list, list]:
    """(crops, labels) from one scene: finder outlines matched to ground truth, plus ground-truth crops.
    A card of a rank in `unread` shows an index that is no card: its index crops are "not a card"."""
    crops, labels = [], []
    image = scene.image
    truths = list(scene.cards)
    faces = [t for t in truths if t.card is not None]
    # Where some card's index may show (both index corners of every face-up card, to be safe).
    index_regions = [region_quad(np.roll(t.quad, -r, axis=0), INDEX_REGION) for t in faces for r in (0, 2)]

    def add(quad, label):
        if label == BACKGROUND_LABEL and shows_an_index(quad, index_regions):
            return  # "not a card" must not hold another card's index: that would teach it to refuse one
        crops.append(index_crop(image, quad))
        labels.append(label)

    def add_index(quad, truth):
        """The crop of truth's index: its card, or "not a card" where that index is no card to read."""
        crops.append(index_crop(image, quad))
        labels.append(BACKGROUND_LABEL if truth.card.rank in unread else truth.card.index)
    separate = scene.kind in ("separate", "distractors")
    # In rows a card may show only its bottom-right index; on a deck that prints it upright, that
    # corner's crop is upside down, so such scenes give that deck no card labels.
    positives = turned_ok or separate
    # 1. What the finder reports, as inference will see it: every ordering it offers.
    for cand in (finder(image) if finder is not None else []):
        orderings = [np.asarray(q, np.float32).reshape(4, 2) for q in getattr(cand, "quads", (cand.quad,))]
        ious = [quad_iou(orderings[0], t.quad) for t in truths]
        best = int(np.argmax(ious)) if ious else -1
        if best < 0 or ious[best] < MATCH_IOU or truths[best].card is None:
            # not a face-up card: a back, a prop, table pattern. Every corner is "not a card".
            for quad in orderings:
                add(quad, BACKGROUND_LABEL)
                add(np.roll(quad, -1, axis=0), BACKGROUND_LABEL)
            continue
        truth = truths[best]
        for quad in orderings:
            r, err = best_rotation(quad, truth.quad)
            if err > 0.08 * card_height(truth.quad):
                continue  # too far off to say what the crop should show
            if r == 0 and truth.index_visible and positives:
                add_index(quad, truth)
            elif r == 2 and separate and truth.index_visible and turned_ok:
                add_index(quad, truth)
            elif r in (1, 3) or (r == 2 and not separate):
                add(quad, BACKGROUND_LABEL)  # a blank corner, or the covered corner of a row card
            add(np.roll(quad, -1, axis=0), BACKGROUND_LABEL)
    # 2. Ground truth, exact and jittered; crops knocked off the index as "not a card".
    for t in faces:
        if not (t.index_visible and positives):
            continue
        h = card_height(t.quad)
        add_index(t.quad, t)
        jitter = rng.normal(0, 0.012 * h, (4, 2)).astype(np.float32)
        add_index(t.quad + jitter, t)
        if separate and turned_ok:
            add_index(np.roll(t.quad, -2, axis=0) + jitter, t)
        # The outline turned a few degrees about the index corner: what the finder guesses for a
        # card it finds by one index corner alone, its sides misjudged. The index shows tilted.
        skew = np.deg2rad(rng.uniform(*SKEW_DEGREES)) * (1 if rng.random() < 0.5 else -1)
        add_index(turned_about_corner(t.quad, skew), t)
        angle = rng.uniform(0, 2 * np.pi)
        far = rng.uniform(0.9, 1.4)
        add(shifted_quad(t.quad, far * INDEX_REGION[2] * np.cos(angle), far * INDEX_REGION[3] * np.sin(angle)),
            BACKGROUND_LABEL)
        if separate:
            add(np.roll(t.quad, -1, axis=0), BACKGROUND_LABEL)
        # The index turned a quarter: what an outline read the wrong way round shows at a corner
        # that prints an index too (penguins). Never a read, though it holds an index.
        crops.append(index_crop_turned(image, t.quad, 1 if rng.random() < 0.5 else -1))
        labels.append(BACKGROUND_LABEL)
    # 3. Backs, props, bare table by ground truth, in case the finder missed them.
    for t in truths:
        if t.card is None:
            add(t.quad, BACKGROUND_LABEL)
            add(np.roll(t.quad, -2, axis=0), BACKGROUND_LABEL)
    for kind, quad in scene.props:
        q = np.asarray(quad, np.float32).reshape(4, 2)
        add(q, BACKGROUND_LABEL)
        add(np.roll(q, -1, axis=0), BACKGROUND_LABEL)
        if kind == "joker":  # both printed corners, exact and jittered, as the finder outlines them
            far = np.roll(q, -2, axis=0)
            add(far, BACKGROUND_LABEL)
            for corner in (q, far):
                add(corner + rng.normal(0, 0.012 * card_height(q), (4, 2)).astype(np.float32), BACKGROUND_LABEL)
    if scene.kind in ("empty", "backs") or rng.random() < 0.3:
        add(random_table_quad(rng, image.shape), BACKGROUND_LABEL)
    return crops, labels


def whole_card_crops(scene, rng: np.random.Generator) -> tuple[list, list]:
    """(crops, classes) of a separate scene's face-up cards whose corners all show, each cut whole
    WHOLE_COPIES times at its outline moved a little. Rows and distractor scenes give none: a card
    covered by its neighbour or by a hand does not show its whole face."""
    crops, labels = [], []
    if scene.kind != "separate":
        return crops, labels
    for t in scene.cards:
        if t.card is None or not all(t.corners_visible):
            continue
        for _ in range(WHOLE_COPIES):
            moved = t.quad + rng.normal(0, WHOLE_JITTER * card_height(t.quad), (4, 2)).astype(np.float32)
            crops.append(warp_region(scene.image, moved, WHOLE_WIDTH, WHOLE_HEIGHT))
            labels.append(class_of(t.card))
    return crops, labels


def index_crop_turned(image: np.ndarray, quad: np.ndarray, turn: int) -> np.ndarray:
    """The card's index corner cut a quarter turn off (turn +1 or -1): the index sideways, as an
    outline read the wrong way round shows the index a deck prints at its other corners."""
    window = region_quad(quad, INDEX_REGION)
    w, h = np.linalg.norm(window[1] - window[0]), np.linalg.norm(window[3] - window[0])
    across = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
    down = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    corner = quad[0]
    if turn > 0:   # the crop's across runs down the card; its down runs back to the card's edge
        corners = [corner + across * h, corner + across * h + down * w, corner + down * w, corner]
    else:
        corners = [corner + down * w, corner, corner + across * h, corner + down * w + across * h]
    return warp_region(image, np.float32(corners), INDEX_WIDTH, INDEX_HEIGHT)


def shows_an_index(quad: np.ndarray, index_regions: list[np.ndarray], limit: float = 0.12) -> bool:
    """True when the crop of `quad` covers more than `limit` of any card's index region."""
    crop = region_quad(quad, INDEX_REGION).astype(np.float32)
    for region in index_regions:
        area = abs(cv2.contourArea(region))
        if area > 0:
            inter = float(cv2.intersectConvexConvex(crop, region.astype(np.float32))[0])
            if inter > limit * area:
                return True
    return False


def random_table_quad(rng: np.random.Generator, shape) -> np.ndarray:
    """A card-sized quad somewhere in the frame (on an empty table: only table)."""
    h, w = shape[:2]
    ch = rng.uniform(0.17, 0.3) * h
    cw = 0.7 * ch
    cx, cy = rng.uniform(cw, w - cw), rng.uniform(ch, h - ch)
    a = rng.uniform(0, 2 * np.pi)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    base = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]]) / 2
    return (base @ rot.T + [cx, cy]).astype(np.float32)


def load_finder():
    """V1's card finder, or None (ground-truth crops only) when it is not in this checkout yet."""
    try:
        from vision.finder import find_cards
    except ImportError:
        return None
    return find_cards


def _render_job(job: tuple[str, str, int, bool, bool, bool]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                     np.ndarray]:
    """One scene's (index crops, labels, whole cards, their classes)."""
    from sim.render.scenes import CARD_HEIGHT_SHARE, make_scene

    deck, kind, seed, turned_ok, small, joker = job
    rng = np.random.default_rng(seed)
    scene = make_scene(rng, kind, deck, card_share=SMALL_CARD_SHARE if small else CARD_HEIGHT_SHARE, joker=joker)
    crops, labels = scene_crops(scene, load_finder(), rng, turned_ok, unread_ranks(deck))
    # Their own random numbers, so the index crops are what they were before whole cards were cut.
    wholes, classes = whole_card_crops(scene, np.random.default_rng([seed, 1]))
    return (_stacked(crops, (INDEX_HEIGHT, INDEX_WIDTH, 3)), np.asarray(labels, np.int64),
            _stacked(wholes, (WHOLE_HEIGHT, WHOLE_WIDTH, 3)), np.asarray(classes, np.int64))


def _stacked(images: list, shape: tuple[int, int, int]) -> np.ndarray:
    return np.stack(images) if images else np.zeros((0, *shape), np.uint8)


def plan_jobs(decks: list[str], scenes_per_deck: int | dict[str, int], seed: int,
              small_share: float = 0.0, joker_share: float = 0.0) -> list[tuple[str, str, int, bool, bool, bool]]:
    """(deck, kind, seed, bottom-index-turned, small cards, a joker laid) per scene; seeds derive from
    the base seed, deck and count.

    scenes_per_deck: one count for every deck, or a count per deck. small_share: the share of scenes
    whose cards are drawn small (SMALL_CARD_SHARE of the frame height); joker_share: the share of
    scenes that lay the deck's joker among their cards. Both are picked by each scene's seed, so the
    other scenes are exactly those rendered without them.
    """
    from models.training.decks import scene_jobs

    def picked(s: int, stream: int, share: float) -> bool:
        return share > 0 and np.random.default_rng([s, stream]).random() < share

    counts = {d: scenes_per_deck[d] if isinstance(scenes_per_deck, dict) else scenes_per_deck for d in decks}
    turned = {d: bottom_index_is_turned(d) for d in decks}
    return [(deck, kind, s, turned[deck], picked(s, 2, small_share), picked(s, 3, joker_share))
            for deck, kind, s in scene_jobs(counts, KIND_WEIGHTS, seed)]


def build(decks: list[str], scenes_per_deck: int | dict[str, int], seed: int, workers: int, log=print,
          small_share: float = 0.0, joker_share: float = 0.0) -> CropSet:
    """Render every planned scene (in `workers` processes) and collect its crops."""
    jobs = plan_jobs(decks, scenes_per_deck, seed, small_share, joker_share)
    log(f"rendering {len(jobs)} scenes of {len(decks)} decks in {workers} processes; "
        f"finder: {'vision.finder' if load_finder() else 'none yet, ground truth only'}")
    kinds = list(KIND_WEIGHTS)
    parts, start = [], time.time()
    # Spawned, not forked: a fork after torch has started its threads can hang.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker, mp_context=context) as pool:
        for i, (crops, labels, wholes, classes) in enumerate(pool.map(_render_job, jobs, chunksize=8)):
            deck, kind = jobs[i][:2]
            parts.append((crops, labels, decks.index(deck), kinds.index(kind), i, wholes, classes))
            if (i + 1) % max(1, len(jobs) // 20) == 0:
                log(f"  {i + 1}/{len(jobs)} scenes, {time.time() - start:.0f} s")
    crops = np.concatenate([p[0] for p in parts])
    labels = np.concatenate([p[1] for p in parts])
    meta = [np.full(len(p[1]), p[k], np.int16) for p in parts for k in (2, 3, 4)]
    deck_ids = np.concatenate(meta[0::3]).astype(np.int16)
    kind_ids = np.concatenate(meta[1::3]).astype(np.int16)
    scene_ids = np.concatenate(meta[2::3]).astype(np.int32)
    whole = WholeCards(np.concatenate([p[5] for p in parts]), np.concatenate([p[6] for p in parts]),
                       np.concatenate([np.full(len(p[6]), p[2], np.int16) for p in parts]),
                       np.concatenate([np.full(len(p[6]), p[4], np.int32) for p in parts]))
    return CropSet(crops, labels, deck_ids, kind_ids, scene_ids, whole)


def _quiet_worker() -> None:
    cv2.setNumThreads(1)


def cached_build(cache_dir: Path, decks: list[str], scenes_per_deck: int | dict[str, int], seed: int, workers: int,
                 log=print, small_share: float = 0.0, joker_share: float = 0.0) -> CropSet:
    """build(), kept in cache_dir under a key of everything that shapes the data."""
    from sim.render.fontdecks import cache_key

    shape = {"finder": load_finder() is not None, "decks": decks, "n": scenes_per_deck, "seed": seed,
             "v": DATA_VERSION, "font_decks": cache_key(decks), "kinds": KIND_WEIGHTS,
             "crop": [INDEX_WIDTH, INDEX_HEIGHT, *INDEX_REGION],
             "whole": [WHOLE_WIDTH, WHOLE_HEIGHT, WHOLE_COPIES, WHOLE_JITTER]}
    if small_share > 0:  # absent otherwise, so that renders made before it keep their key
        shape["small"] = [small_share, *SMALL_CARD_SHARE]
    if joker_share > 0:
        shape["jokers"] = joker_share
    key = json.dumps(shape, sort_keys=True)
    path = cache_dir / f"crops-{hashlib.sha1(key.encode()).hexdigest()[:12]}.npz"
    if path.is_file():
        log(f"using cached crops {path}")
        with np.load(path) as z:
            whole = WholeCards(z["whole_crops"], z["whole_labels"], z["whole_decks"], z["whole_scenes"])
            return CropSet(z["crops"], z["labels"], z["decks"], z["kinds"], z["scenes"], whole)
    data = build(decks, scenes_per_deck, seed, workers, log, small_share, joker_share)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, crops=data.crops, labels=data.labels, decks=data.decks, kinds=data.kinds, scenes=data.scenes,
             whole_crops=data.whole.crops, whole_labels=data.whole.labels, whole_decks=data.whole.decks,
             whole_scenes=data.whole.scenes)
    os.replace(tmp, path)
    return data
