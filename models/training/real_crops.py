"""Index crops for the classifier cut from real photographs of real cards.

The rendered scenes teach the classifier every design the project can draw; these teach it what a
camera does to real print, and what real tables offer the finder that is no index. The labels are
`models/training/real/corners.jsonl` (`python -m models.training.real_labels`, from photos whose
licence allows training; never the real set's report part); the photos are rebuilt into `.cache/real`
by `python -m bench.real.build`. Only photos whose every named card has an outline are used, so that
an outline the finder reports on none of them is known to be no card.

From each photo:
- every index corner the labels call shown, cut as labelled and a little jittered, labelled as its card;
- the same corner knocked off the index, and turned a quarter, as "not a card";
- outlines the finder reports there off every labelled card, at each ordering it offers, as "not a
  card": the real table's hard negatives (wood grain, cloth, printed matter, shadows), less any the
  committed classifier reads as a card (a card the labels left out) or takes for one of the photo's
  own cards (its index beyond a labelled outline that falls short); half of those kept a photo are
  the ones it finds most card-like, since those are the ones it needs taught.
Corners the labels could not confirm (covered, unreadable) are taught neither way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cribbage.cards import Card
from models.training.dataset import BACKGROUND_LABEL, card_height, index_crop_turned, shifted_quad, shows_an_index
from models.training.real_labels import CompletePhotos, LabelledPhoto, index_corners, load_corner_labels
from vision.crops import INDEX_HEIGHT, INDEX_REGION, INDEX_WIDTH, index_crop, region_quad
from vision.settle import quad_iou

NO_CARD_IOU = 0.1   # a finder outline overlapping every labelled card less than this is no card
NEAR_CARD = 1.1     # no mined crop touches a labelled outline grown this much about its centre
MINED_PER_PHOTO = 40  # at most this many mined crops a photo, so that a busy table does not outweigh the rest
HARDEST_PER_PHOTO = 20  # of those, this many the classifier finds most card-like; the rest at random
JITTER = 0.012      # corners moved at random by this share of the card's long side, as dataset.py does


@dataclass
class RealCrops:
    """N crops (N x INDEX_HEIGHT x INDEX_WIDTH x 3 uint8), their labels, and the labelled photo each
    was cut from."""

    crops: np.ndarray
    labels: np.ndarray
    photos: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)


def photo_crops(image: np.ndarray, photo: LabelledPhoto, rng: np.random.Generator, finder=None,
                classifier=None) -> tuple[list[np.ndarray], list[int]]:
    """(crops, labels) of one complete labelled photo; finder: the recognizer's (None: no mined
    negatives); classifier: the one that judges which mined crops may hold an unlabelled card's index."""
    crops: list[np.ndarray] = []
    labels: list[int] = []
    quads = [card.quad for card in photo.cards]
    index_regions = [region_quad(started, INDEX_REGION) for q in quads for started in index_corners(q)]

    def negative(quad: np.ndarray) -> None:
        if not shows_an_index(quad, index_regions):  # never teach a card's own index as "not a card"
            crops.append(index_crop(image, quad))
            labels.append(BACKGROUND_LABEL)

    for card in photo.cards:
        label = Card.parse(card.card).index
        h = card_height(card.quad)
        for started, verdict in zip(index_corners(card.quad), card.corners):
            if verdict != "shown":
                continue
            jittered = started + rng.normal(0, JITTER * h, (4, 2)).astype(np.float32)
            for quad in (started, jittered):
                crops.append(index_crop(image, quad))
                labels.append(label)
            angle = rng.uniform(0, 2 * np.pi)
            far = rng.uniform(0.9, 1.4)
            negative(shifted_quad(started, far * INDEX_REGION[2] * np.cos(angle),
                                  far * INDEX_REGION[3] * np.sin(angle)))
            crops.append(index_crop_turned(image, started, 1 if rng.random() < 0.5 else -1))
            labels.append(BACKGROUND_LABEL)
    # A labelled outline may be a little off its card: on the labelled cards nothing is mined.
    on_a_card = [grown(q, NEAR_CARD) for q in quads]
    mined = []
    for candidate in (finder(image) if finder is not None else []):
        orderings = [np.asarray(q, np.float32).reshape(4, 2) for q in getattr(candidate, "quads", (candidate.quad,))]
        if any(quad_iou(orderings[0], q) >= NO_CARD_IOU for q in quads):
            continue
        mined += [index_crop(image, quad) for ordering in orderings
                  for quad in (ordering, np.roll(ordering, -1, axis=0))
                  if not shows_an_index(quad, on_a_card, limit=0.0)]  # its crop touches no labelled card
    own = {Card.parse(name) for name in photo.named}
    for crop in hardest_first(mined, classifier, rng, own)[:MINED_PER_PHOTO]:
        crops.append(crop)
        labels.append(BACKGROUND_LABEL)
    return crops, labels


def hardest_first(mined: list[np.ndarray], classifier, rng: np.random.Generator,
                  own: set = frozenset()) -> list[np.ndarray]:
    """The mined crops worth teaching as "not a card", the HARDEST_PER_PHOTO the classifier finds most
    card-like first (the print, court art and logos it nearly reads), then the rest in random order.

    Left out rather than taught as "not a card", since either may be a true index:
      - a crop the classifier reads at its threshold (a card no label names);
      - a crop more likely a card than not whose best guess is one of the photo's own cards (`own`):
        that card's index where its labelled outline falls short of it (a card the frame cuts).
    Without a classifier, all in random order."""
    if not mined or classifier is None:
        return [mined[n] for n in rng.permutation(len(mined))]
    rows = classifier.probabilities(mined)
    cards_only = np.array(rows, np.float64, copy=True)
    cards_only[:, classifier.background_index] = -1.0
    guesses = [classifier.cards[i] for i in np.argmax(cards_only, axis=1)]
    likeness = {}
    for n, (row, guess) in enumerate(zip(rows, guesses)):
        card_like = classifier.card_probability(row)
        if classifier.decide(row)[0] is None and not (card_like > 0.5 and guess in own):
            likeness[n] = card_like
    hardest = sorted(likeness, key=lambda n: -likeness[n])[:HARDEST_PER_PHOTO]
    taken = set(hardest)
    rest = [n for n in likeness if n not in taken]
    return [mined[n] for n in hardest] + [mined[rest[k]] for k in rng.permutation(len(rest))]


def grown(region: np.ndarray, factor: float) -> np.ndarray:
    """The quad grown about its centre by `factor`."""
    centre = region.mean(axis=0)
    return (centre + (region - centre) * factor).astype(np.float32)


def build_real_crops(photos_root: Path, seed: int, labels: list[LabelledPhoto] | None = None,
                     finder=None, classifier=None, log=print) -> RealCrops:
    """The crops of every complete labelled photo found under photos_root."""
    labels = load_corner_labels() if labels is None else labels
    rng = np.random.default_rng(seed + 77_000_011)
    crops: list[np.ndarray] = []
    classes: list[int] = []
    photos: list[int] = []
    complete = CompletePhotos(labels, photos_root)
    for n, photo, image in complete:
        here, kinds = photo_crops(image, photo, rng, finder, classifier)
        crops += here
        classes += kinds
        photos += [n] * len(here)
    cards = sum(label != BACKGROUND_LABEL for label in classes)
    log(f"real crops: {len(classes)} from {complete.summary()}, {cards} cards, "
        f"{len(classes) - cards} not-a-card ({complete.incomplete} incomplete left out{complete.not_found()})")
    stacked = np.stack(crops) if crops else np.zeros((0, INDEX_HEIGHT, INDEX_WIDTH, 3), np.uint8)
    return RealCrops(stacked, np.asarray(classes, np.int64), np.asarray(photos, np.int32))
