"""The classifier's crops from real photos: shown corners taught as their card (exact and jittered),
unsure ones not at all, and the finder's outlines off every labelled card mined as "not a
card" unless the classifier reads a card there, the ones it finds most card-like first."""

from types import SimpleNamespace

import cv2
import numpy as np

from cribbage.cards import Card
from models.training.dataset import BACKGROUND_LABEL
from models.training.real_crops import HARDEST_PER_PHOTO, MINED_PER_PHOTO, build_real_crops, hardest_first, photo_crops
from models.training.real_labels import LabelledPhoto
from tests.labelled_photos import CARD, labelled_seven, table_photo
from vision.crops import index_crop

ELSEWHERE = np.float32([[400, 300], [480, 300], [480, 410], [400, 410]])


def photo(corners=("shown", "unsure")) -> LabelledPhoto:
    return labelled_seven(corners)


def finder_of(*quads):
    return lambda image: [SimpleNamespace(quad=q) for q in quads]


class ReadsEverything:
    """A classifier that reads a card in every crop it is shown."""

    background_index = BACKGROUND_LABEL
    cards = [Card.parse("KS")] * 52 + [None]

    def probabilities(self, crops):
        return np.ones((len(crops), 53))

    def card_probability(self, row):
        return 1.0

    def decide(self, row):
        return Card.parse("KS"), 1.0


def test_a_shown_corner_is_taught_as_its_card_twice_and_an_unsure_one_not_at_all():
    image = table_photo()
    crops, labels = photo_crops(image, photo(), np.random.default_rng(0))
    seven = Card.parse("7H").index
    assert labels.count(seven) == 2
    assert np.array_equal(crops[labels.index(seven)], index_crop(image, CARD))
    assert set(labels) == {seven, BACKGROUND_LABEL}   # beside it only "not a card": off the index, turned
    crops, labels = photo_crops(image, photo(("unsure", "cut")), np.random.default_rng(0))
    assert labels == []


def test_outlines_off_the_labelled_cards_are_mined_and_those_on_them_are_not():
    image = table_photo()
    _, plain = photo_crops(image, photo(), np.random.default_rng(0))
    _, mined = photo_crops(image, photo(), np.random.default_rng(0), finder_of(ELSEWHERE))
    assert mined.count(BACKGROUND_LABEL) - plain.count(BACKGROUND_LABEL) == 2  # the outline, and turned a quarter
    _, on_card = photo_crops(image, photo(), np.random.default_rng(0), finder_of(CARD + 3))
    assert on_card == plain


def test_a_mined_outline_the_classifier_reads_as_a_card_is_left_out():
    image = table_photo()
    _, plain = photo_crops(image, photo(), np.random.default_rng(0))
    _, mined = photo_crops(image, photo(), np.random.default_rng(0), finder_of(ELSEWHERE), ReadsEverything())
    assert mined == plain


def test_no_more_than_so_many_outlines_are_mined_from_one_photo():
    image = table_photo()
    many = [ELSEWHERE + [dx, 0] for dx in range(-60, 100, 4)][:MINED_PER_PHOTO]
    _, plain = photo_crops(image, photo(), np.random.default_rng(0))
    _, mined = photo_crops(image, photo(), np.random.default_rng(0), finder_of(*many))
    assert mined.count(BACKGROUND_LABEL) - plain.count(BACKGROUND_LABEL) == MINED_PER_PHOTO


class LikenessByBrightness:
    """A classifier whose card-likeness is a crop's grey level / 100, that reads only level 99; its
    best guess is the 2C for odd levels, the KS for even ones."""

    background_index = BACKGROUND_LABEL
    cards = [Card.parse(name) for name in ("2C", "KS")] + [None] * 51

    def probabilities(self, crops):
        rows = np.zeros((len(crops), 53))
        levels = np.array([float(crop.mean()) for crop in crops])
        rows[:, BACKGROUND_LABEL] = 1.0 - levels / 100
        rows[np.arange(len(crops)), (levels.astype(int) % 2 == 0).astype(int)] = levels / 100
        return rows

    def card_probability(self, row):
        return 1.0 - row[BACKGROUND_LABEL]

    def decide(self, row):
        return (Card.parse("KS"), 1.0) if self.card_probability(row) > 0.985 else (None, 0.0)


def test_the_mined_crops_the_classifier_finds_most_card_like_come_first_the_rest_at_random():
    levels = [int(v) for v in np.random.default_rng(1).permutation(100)]
    mined = [np.full((70, 40, 3), v, np.uint8) for v in levels]
    order = [int(crop[0, 0, 0]) for crop in hardest_first(mined, LikenessByBrightness(), np.random.default_rng(0))]
    assert 99 not in order and len(order) == 99                       # the one it reads is left out
    assert order[:HARDEST_PER_PHOTO] == list(range(98, 98 - HARDEST_PER_PHOTO, -1))
    rest = order[HARDEST_PER_PHOTO:]
    assert sorted(rest) == list(range(98 - HARDEST_PER_PHOTO + 1))
    assert rest != sorted(rest) and rest != sorted(rest, reverse=True)  # at random, not by likeness
    # One the classifier takes for one of the photo's own cards, more likely than not, is left out.
    own = hardest_first(mined, LikenessByBrightness(), np.random.default_rng(0), {Card.parse("2C")})
    levels = sorted(int(c[0, 0, 0]) for c in own)
    assert levels == [v for v in range(99) if v <= 50 or v % 2 == 0]
    # Without a classifier: all, at random.
    assert sorted(int(c[0, 0, 0]) for c in hardest_first(mined, None, np.random.default_rng(0))) == list(range(100))


def test_only_complete_photos_found_on_disk_are_cut(tmp_path):
    from bench.real.build import folder_name

    folder = tmp_path / folder_name("a/source")
    folder.mkdir()
    cv2.imwrite(str(folder / "p.jpg"), table_photo())
    incomplete = LabelledPhoto("a/source", "p.jpg", (640, 480), ["7H", "2C"], photo().cards)
    missing = LabelledPhoto("a/source", "gone.jpg", (640, 480), ["7H"], photo().cards)
    said = []
    crops = build_real_crops(tmp_path, 0, labels=[photo(), incomplete, missing], log=said.append)
    assert len(crops) > 0 and set(crops.photos) == {0}
    assert crops.crops.shape[1:] == (70, 40, 3)
    assert "1 incomplete left out" in said[0] and "1 not found" in said[0]
