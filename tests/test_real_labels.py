"""Index-corner labels from real photos: outlines fitted to a source's boxes, reads matched to the
cards a person named, corners judged by the classifier, views cut with their corners, and the
unsure corners taught neither way."""

import json

import cv2
import numpy as np
import pytest

from models.training.corner_data import UNSURE_HEAT, targets
from models.training.real_labels import (CORNER_LABELS, LabelledCard, LabelledPhoto, judge_corners,
                                         label_photo, labelled_card, load_corner_labels, load_hand_outlines,
                                         match_reads, outline_in_box, region_outline, trainable_labels, voc_boxes)
from models.training.real_views import cut_view, photo_corners, sides_verified, turned
from vision.crops import INDEX_REGION, region_quad


def card_quad(centre, long_side, degrees, aspect=2.5 / 3.5) -> np.ndarray:
    """An upright card's outline turned by `degrees`, clockwise from its top-left corner."""
    t = np.radians(degrees)
    across = np.array([np.cos(t), np.sin(t)]) * aspect * long_side
    down = np.array([-np.sin(t), np.cos(t)]) * long_side
    c = np.asarray(centre, np.float64)
    return np.stack([c - across / 2 - down / 2, c + across / 2 - down / 2, c + across / 2 + down / 2,
                     c - across / 2 + down / 2]).astype(np.float32)


@pytest.mark.parametrize("degrees", [0.0, 12.0, -25.0, 70.0, 160.0])
def test_the_outline_filling_a_box_is_the_card_whose_index_corner_was_read(degrees):
    quad = card_quad((300, 240), 200, degrees)
    box = (*quad.min(axis=0), *quad.max(axis=0))
    read_corner = quad[0] + [3, -2]                 # a read's corner is a few pixels off
    fitted = outline_in_box(box, read_corner)
    assert fitted is not None
    assert np.abs(fitted - quad).max() < 4.0        # the same card, started at the same index corner


def test_no_outline_fits_a_box_far_from_the_read_corner():
    quad = card_quad((300, 240), 200, 20.0)
    box = (*quad.min(axis=0), *quad.max(axis=0))
    assert outline_in_box(box, quad[0] + [60, 60]) is None
    assert outline_in_box((0, 0, 400, 40), quad[0]) is None   # no card is that shape


def test_voc_boxes_keep_the_ranks_they_name():
    xml = """<annotation><object><name>queen</name><bndbox><xmin>78</xmin><ymin>101</ymin><xmax>235</xmax>
    <ymax>239</ymax></bndbox></object><object><name>ten</name><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>3</xmax>
    <ymax>4</ymax></bndbox></object><object><name>joker</name><bndbox><xmin>1</xmin><ymin>2</ymin>
    <xmax>3</xmax><ymax>4</ymax></bndbox></object></annotation>"""
    assert voc_boxes(xml) == [("Q", (78.0, 101.0, 235.0, 239.0)), ("T", (1.0, 2.0, 3.0, 4.0))]


def test_only_sources_licensed_for_training_and_outside_the_report_part_are_labelled():
    sources = {"a/ok": {"use": "train+eval", "part": "steer"}, "a/eval": {"use": "eval", "part": "steer"},
               "a/kept": {"use": "train+eval", "part": "report"}}
    labels = [{"source": s, "path": "p.jpg", "cards": ["9H"]} for s in (*sources, "a/unknown")]
    assert [lab["source"] for lab in trainable_labels(labels, sources)] == ["a/ok"]


def test_reads_are_matched_to_the_named_cards_each_once():
    q = np.zeros((4, 2), np.float32)
    reads = [("9H", q), ("9H", q + 1), ("KS", q), ("2C", q)]
    assert [c for c, _ in match_reads(["9H", "KS", "AD"], reads)] == ["9H", "KS"]
    assert [c for c, _ in match_reads(["9H", "9H"], reads)] == ["9H", "9H"]


class NamedCardClassifier:
    """Reads every crop as one card, surely: judge_corners asks only for the named card's probability."""

    labels = ["9H", "KS", "not a card"]

    def __init__(self, reads_as: str):
        self.reads_as = reads_as

    def probabilities(self, crops):
        row = np.array([1.0 if name == self.reads_as else 0.0 for name in self.labels])
        return np.tile(row, (len(crops), 1))


class OnTheCardClassifier(NamedCardClassifier):
    """Reads the 9H at a crop cut from a white card, and "not a card" at one cut off it."""

    def __init__(self):
        super().__init__("9H")

    def probabilities(self, crops):
        return np.array([[1.0, 0.0, 0.0] if crop.mean() > 150 else [0.0, 0.0, 1.0] for crop in crops])


def card_on_felt(quads) -> np.ndarray:
    image = np.full((480, 640, 3), (40, 70, 30), np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(image, np.round(quad).astype(np.int32), (235, 235, 235))
    return image


def guessed_from(quad: np.ndarray) -> np.ndarray:
    """The recognizer's outline of a card read at one corner: that corner right, the sides too long
    and turned, as on small sheared cards."""
    across, down = quad[1] - quad[0], quad[3] - quad[0]
    t = np.radians(20.0)
    turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    a, d = 1.4 * across @ turn.T, 1.8 * down @ turn.T
    return np.stack([quad[0], quad[0] + a, quad[0] + a + d, quad[0] + d]).astype(np.float32)


@pytest.mark.parametrize("degrees", [0.0, 9.0, -14.0, 100.0])
def test_a_lone_card_on_a_plain_table_gets_the_outline_of_its_bright_region(degrees):
    quad = card_quad((320, 240), 160, degrees)
    image = card_on_felt([quad])
    region = region_outline(image, guessed_from(quad))
    assert region is not None and np.abs(region - quad).max() < 4.0   # from the same corner, the card's sides


def test_a_region_of_two_cards_crossed_is_no_outline():
    quad = card_quad((320, 240), 160, 0.0)
    image = card_on_felt([quad, card_quad((330, 250), 160, 55.0)])
    assert region_outline(image, quad) is None


def test_a_guessed_outline_is_replaced_by_its_region_only_where_both_index_corners_then_read():
    quad = card_quad((320, 240), 160, 6.0)
    image = card_on_felt([quad])
    guessed = guessed_from(quad)
    region = labelled_card(image, "9H", guessed, "recognizer", OnTheCardClassifier())
    assert region.by == "region" and np.abs(region.quad - quad).max() < 4.0
    assert region.corners == ["shown", "shown"]
    assert judge_corners(image, "9H", guessed, OnTheCardClassifier())[1] != "shown"   # why it was replaced
    boxed = labelled_card(image, "9H", guessed, "box", OnTheCardClassifier())
    assert boxed.by == "box" and np.array_equal(boxed.quad, guessed)   # a source's box is kept as it is
    crossed = card_on_felt([quad, card_quad((330, 250), 160, 55.0)])
    assert labelled_card(crossed, "9H", guessed, "recognizer", OnTheCardClassifier()).by == "recognizer"


def test_corners_are_shown_where_read_as_named_cut_at_the_frame_and_unsure_otherwise():
    image = np.full((400, 600, 3), 90, np.uint8)
    whole = card_quad((300, 200), 240, 5.0)
    assert judge_corners(image, "9H", whole, NamedCardClassifier("9H")) == ["shown", "shown"]
    assert judge_corners(image, "9H", whole, NamedCardClassifier("KS")) == ["unsure", "unsure"]
    cut = card_quad((300, 330), 240, 0.0)           # its far end runs out of the frame's bottom
    assert judge_corners(image, "9H", cut, NamedCardClassifier("9H")) == ["shown", "cut"]


def test_a_photo_is_complete_only_when_every_named_card_has_an_outline(tmp_path):
    image = np.full((400, 600, 3), 90, np.uint8)
    label = {"source": "a/b", "path": "p.jpg", "cards": ["9H", "KS"]}
    one = [("9H", card_quad((200, 200), 200, 0.0), "box")]
    photo = label_photo(image, label, one, [], NamedCardClassifier("9H"))
    assert not photo.complete and [c.by for c in photo.cards] == ["box"]
    by_hand = [("KS", card_quad((420, 200), 200, 10.0))]
    photo = label_photo(image, label, one, by_hand, NamedCardClassifier("9H"))
    assert photo.complete and sorted(c.by for c in photo.cards) == ["box", "hand"]
    again = LabelledPhoto.from_dict(json.loads(json.dumps(photo.to_dict())))
    assert again.complete and np.allclose(again.cards[0].quad, photo.cards[0].quad, atol=0.05)


def test_hand_outlines_are_read_and_a_bad_quad_named(tmp_path):
    path = tmp_path / "hand.jsonl"
    path.write_text(json.dumps({"source": "a/b", "path": "p.jpg", "card": "ks", "quad": [[0, 0], [5, 0], [5, 7], [0, 7]]})
                    + "\n", encoding="utf-8")
    assert [c for c, _ in load_hand_outlines(path)[("a/b", "p.jpg")]] == ["KS"]
    path.write_text(json.dumps({"source": "a/b", "path": "p.jpg", "card": "KS", "quad": [[0, 0], [5, 0]]}) + "\n")
    with pytest.raises(ValueError, match="hand.jsonl:1"):
        load_hand_outlines(path)


@pytest.mark.parametrize("quarters", [0, 1, 2, 3])
def test_points_turn_with_the_image(quarters):
    image = np.zeros((30, 50, 3), np.uint8)
    image[7, 11] = 255
    rotated = image if quarters == 0 else cv2.rotate(image, {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180,
                                                             3: cv2.ROTATE_90_COUNTERCLOCKWISE}[quarters])
    x, y = turned(np.array([11.0, 7.0]), (50, 30), quarters)
    assert rotated[int(y), int(x)].max() == 255


def test_views_keep_the_shown_corners_whose_index_lies_inside():
    image = np.full((480, 640, 3), 60, np.uint8)
    quad = card_quad((320, 240), 300, 8.0)
    cv2.fillConvexPoly(image, np.round(quad).astype(np.int32), (230, 230, 230))
    photo = LabelledPhoto("a/b", "p.jpg", (640, 480), ["9H"], [LabelledCard("9H", quad, "box", ["shown", "unsure"])])
    shown, loose, unsure = photo_corners(photo)
    assert loose == []                                # a box-fitted outline's sides are the card's
    rng = np.random.default_rng(3)
    kept = 0
    for _ in range(20):
        view, corners, maybe = cut_view(image, shown, loose, unsure, rng, (512, 288))
        assert view.shape == (288, 512, 3)
        for row in corners:                           # each target sits on the card's bright corner
            index = region_quad(np.stack([row[:2], row[:2] + row[2:4], row[:2] + row[2:4] + row[4:6],
                                          row[:2] + row[4:6]]), INDEX_REGION)
            x, y = index.mean(axis=0)
            assert view[int(round(y)), int(round(x))].mean() > 150
            kept += 1
        assert len(maybe) <= 1
    assert kept > 0


@pytest.mark.parametrize("by, corners, verified", [
    ("box", ["shown", "unsure"], True), ("hand", ["shown", "cut"], True),
    ("recognizer", ["shown", "shown"], True), ("recognizer", ["shown", "unsure"], False),
    ("recognizer", ["shown", "cut"], False), ("recognizer", ["cut", "shown"], False)])
def test_a_recognizer_outline_has_verified_sides_only_when_read_at_both_index_corners(by, corners, verified):
    card = LabelledCard("9H", card_quad((320, 240), 300, 8.0), by, corners)
    assert sides_verified(card) is verified


def test_a_corner_whose_outline_is_a_guess_is_a_target_with_its_sides_unknown():
    image = np.full((480, 640, 3), 60, np.uint8)
    quad = card_quad((320, 240), 300, 8.0)
    cv2.fillConvexPoly(image, np.round(quad).astype(np.int32), (230, 230, 230))
    guessed = quad.copy()
    guessed[1:3] += [120, -40]                        # the recognizer's sides, far off the card's
    photo = LabelledPhoto("a/b", "p.jpg", (640, 480), ["9H"],
                          [LabelledCard("9H", guessed, "recognizer", ["shown", "unsure"])])
    shown, loose, unsure = photo_corners(photo)
    assert shown == [] and len(loose) == 1 and len(unsure) == 1
    rng = np.random.default_rng(5)
    rows = np.concatenate([cut_view(image, shown, loose, unsure, rng, (512, 288))[1] for _ in range(20)])
    assert len(rows) > 0
    assert np.isfinite(rows[:, :2]).all() and np.isnan(rows[:, 2:]).all()


def test_unknown_sides_teach_the_corner_and_its_offset_but_not_its_sides():
    torch = pytest.importorskip("torch")
    from models.training.corners import loss_of

    known = np.float32([[100, 60, 40, 2, -3, 58]])
    guessed = np.float32([[100, 60, np.nan, np.nan, np.nan, np.nan]])
    heat, reg, mask = targets(guessed, (288, 512))
    plain_heat, plain_reg, plain_mask = targets(known, (288, 512))
    assert (heat >= 1.0).sum() == 1 and np.array_equal(heat >= 1.0, plain_heat >= 1.0)
    assert np.array_equal(mask, plain_mask) and np.array_equal(reg[:2], plain_reg[:2])
    assert np.isnan(reg[2:][:, mask > 0]).all()

    def loss(r, out_sides):
        out = torch.zeros(1, 7, *heat.shape)
        out[0, 3:] = out_sides
        batch = [torch.from_numpy(a)[None] for a in (heat, r, mask)]
        return loss_of(out, *batch)[1]

    unknown_a, unknown_b = loss(reg, 0.0), loss(reg, 5.0)
    assert torch.isfinite(unknown_a).all() and unknown_a[2] == unknown_b[2] == 0.0   # any sides: no loss
    assert unknown_a[1] == loss(plain_reg, 0.0)[1]                                  # the offset as taught
    assert loss(plain_reg, 5.0)[2] > loss(plain_reg, 0.0)[2]                        # known sides are taught


def test_a_corner_with_unknown_sides_is_found_by_its_place_alone():
    from models.training.corners import matches
    from vision.corners import CornerHit

    quad = card_quad((200, 150), 120, 0.0)
    hit = CornerHit(quad, 0.9)
    guessed = np.float32([[*quad[0], np.nan, np.nan, np.nan, np.nan]])
    far = np.float32([[*(quad[0] + 40), np.nan, np.nan, np.nan, np.nan]])
    assert matches([hit], guessed, 1.0) == (1, 0)
    assert matches([hit], far, 1.0) == (0, 1)


def test_unsure_corners_are_taught_neither_as_corner_nor_as_background():
    corners = np.float32([[100, 60, 40, 2, -3, 58]])
    unsure = np.float32([[300, 200, -38, -5, 6, -55]])
    heat, reg, mask = targets(corners, (288, 512), unsure)
    plain, plain_reg, plain_mask = targets(corners, (288, 512))
    cell = (int(200.5 / 4), int(300.5 / 4))
    assert heat[cell] == pytest.approx(UNSURE_HEAT, abs=1e-3) and plain[cell] == 0.0
    assert (heat >= 1.0).sum() == (plain >= 1.0).sum() == 1     # still one corner taught
    assert np.array_equal(mask, plain_mask) and np.array_equal(reg, plain_reg)   # nor its sides


@pytest.mark.skipif(not CORNER_LABELS.is_file(), reason="no committed real corner labels")
def test_the_committed_labels_are_consistent():
    photos = load_corner_labels()
    assert photos
    for photo in photos:
        assert len(photo.cards) <= len(photo.named)
        for card in photo.cards:
            assert card.card in photo.named and card.quad.shape == (4, 2)
            assert len(card.corners) == 2 and set(card.corners) <= {"shown", "unsure", "cut"}


def test_a_labelled_photo_not_on_this_machine_is_named_before_any_training(tmp_path):
    from models.training.corners import main
    from models.training.real_views import missing_photos

    quad = card_quad((100, 100), 140, 0)
    photos = [LabelledPhoto("a/b", f"{name}.jpg", (200, 200), ["AS"],
                            [LabelledCard("AS", quad, "hand", ["shown", "shown"])]) for name in ("here", "gone")]
    (tmp_path / "a+b").mkdir()
    cv2.imwrite(str(tmp_path / "a+b" / "here.jpg"), np.zeros((200, 200, 3), np.uint8))
    assert missing_photos(tmp_path, photos) == ["a/b:gone.jpg"]
    assert missing_photos(tmp_path, photos[:1]) == []
    # the committed labels against an empty folder: refused, before a scene is rendered
    assert main(["--real-views-per-photo", "2", "--real-photos", str(tmp_path / "none"),
                 "--cache", str(tmp_path / "cache")]) == 2
    assert not (tmp_path / "cache").exists()
