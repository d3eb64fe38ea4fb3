"""The index-corner detector: training targets and decoding agree, views keep the right corners, and
the committed model finds the corners of held-out decks' cards the finder leaves alone."""

import json

import numpy as np
import pytest

from models.training.corner_data import scene_view, targets
from sim.render.scenes import make_scene
from vision.corners import (DEFAULT_MODEL, STRIDE, ZOOM_MAX, CornerDetector, CornerFinder, CornerHit,
                            card_length, corner_candidates, decode, input_size,
                            row_down, row_outlines, row_window, row_windows, rows_of, runs_with, sure_and_beside)
from vision.errors import ModelError
from vision.finder import Patch, find_cards
from vision.outline_corners import square_corners


def perfect_output(corners: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """What a perfect network would say for these corners: the targets, the heat as logits."""
    heat, reg, _ = targets(corners, shape)
    logit = np.where(heat >= 1.0, 8.0, -8.0)[None]
    return np.concatenate([logit, reg]).astype(np.float32)


def truth_quads(corners: np.ndarray) -> list[np.ndarray]:
    return [np.stack([c[:2], c[:2] + c[2:4], c[:2] + c[2:4] + c[4:6], c[:2] + c[4:6]]) for c in corners]


def test_targets_decode_back_to_the_corners():
    corners = np.float32([[100.3, 60.7, 40, 2, -3, 58],      # upright, a little turned
                          [300.0, 200.0, -38, -5, 6, -55],   # upside down
                          [31.0, 150.2, 1, -42, 60, 2]])     # on its side
    hits = decode(perfect_output(corners, (288, 512)), 1.0, 0.5)
    assert len(hits) == 3
    for truth in truth_quads(corners):
        best = min(hits, key=lambda h: np.abs(h.quad - truth).max())
        assert np.abs(best.quad - truth).max() < 1e-3


def test_decode_scales_to_the_frame_and_refuses_anticlockwise_or_unlikely_shapes():
    corners = np.float32([[100, 60, 40, 0, 0, 58]])
    hit, = decode(perfect_output(corners, (288, 512)), 0.4, 0.5)
    assert np.allclose(hit.quad[0], [(100.5 / 0.4) - 0.5, (60.5 / 0.4) - 0.5], atol=1e-3)
    assert np.allclose(hit.quad[2] - hit.quad[0], [100, 145], atol=1e-3)
    hit, = decode(perfect_output(corners, (288, 512)), (0.4, 0.5), 0.5)  # height rounded to 16s
    assert np.allclose(hit.quad[0], [(100.5 / 0.4) - 0.5, (60.5 / 0.5) - 0.5], atol=1e-3)
    assert np.allclose(hit.quad[2] - hit.quad[0], [100, 116], atol=1e-3)
    mirrored = np.float32([[100, 60, -40, 0, 0, 58]])       # across runs the wrong way: a mirror image
    assert decode(perfect_output(mirrored, (288, 512)), 1.0, 0.5) == []
    square = np.float32([[100, 60, 58, 0, 0, 58]])
    assert decode(perfect_output(square, (288, 512)), 1.0, 0.5) == []


def test_neighbouring_corners_of_a_row_stay_apart():
    step = 14.0  # a row of small cards, laid a quarter card apart
    corners = np.float32([[100 + k * step, 100, 40, 0, 0, 57] for k in range(4)])
    hits = decode(perfect_output(corners, (288, 512)), 1.0, 0.5)
    assert sorted(round(float(h.quad[0, 0])) for h in hits) == [100, 114, 128, 142]


def test_views_keep_visible_index_corners_only():
    rng = np.random.default_rng(5)
    scene = make_scene(rng, "row", "greywyvern")
    image, corners = scene_view(scene, np.random.default_rng(1), zoom=1.0)
    h, w = scene.image.shape[:2]
    iw, ih = input_size(w, h)
    assert image.shape == (ih, iw, 3)
    scale = np.float32([iw / w, ih / h])
    faces = [t for t in scene.cards if t.card is not None]
    shown = [np.roll(t.quad, -turn, axis=0) for t in faces for turn, seen in zip((0, 2), t.corners_visible) if seen]
    assert len(shown) > len(faces)  # the top cards show both corners
    assert len(corners) == len(shown)
    for quad, found in zip(shown, corners):
        assert np.allclose((quad[0] + 0.5) * scale - 0.5, found[:2], atol=1e-3)
        assert np.allclose((quad[3] - quad[0]) * scale, found[4:], atol=1e-3)
    zoomed = scene_view(scene, np.random.default_rng(1), zoom=1.6)[1]
    assert len(zoomed) < len(shown)  # part of the scene is out of view
    backs = make_scene(np.random.default_rng(6), "backs", "greywyvern")
    assert len(scene_view(backs, np.random.default_rng(1))[1]) == 0


def card(x: float, y: float, turn: float = 0.0, size: float = 1.0, score: float = 0.9) -> CornerHit:
    """A hit for an upright 50 x 72 card (scaled, turned clockwise by `turn` degrees) cornered at x, y."""
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    sides = np.float32([[0, 0], [50, 0], [50, 72], [0, 72]]) * size @ np.float32([[c, s], [-s, c]])
    return CornerHit(sides + np.float32([x, y]), score)


def test_a_faint_corner_counts_only_beside_a_sure_corner_of_its_shape():
    row = [card(100 + 15 * k, 100) for k in range(3)]
    faint = card(145, 100, score=0.15)
    assert sure_and_beside(row + [faint], 0.3)[-1] is faint
    assert sure_and_beside([faint], 0.3) == []                                  # alone: a back's pattern
    assert sure_and_beside([card(100, 100, size=1.4), faint], 0.3)[1:] == []    # another card's size
    assert sure_and_beside([card(100, 100, turn=25), faint], 0.3)[1:] == []     # turned another way
    assert sure_and_beside([card(300, 100), faint], 0.3)[1:] == []              # far off
    assert sure_and_beside([card(100, 100, score=0.2), faint], 0.3) == []       # faint beside faint


def test_a_corner_whose_far_end_disagrees_with_its_row_is_offered_again_with_the_rows_sides():
    row = [card(100 + 15 * k, 100, turn=2 * k) for k in range(4)]
    askew = card(160, 100, turn=12, size=1.2, score=0.4)   # its own guess: longer and turned
    again, = row_outlines(row + [askew], 0.3)
    assert np.allclose(again.quad[0], askew.quad[0]) and again.score == askew.score
    median = card(0, 0, turn=4).quad  # the median of the sides turned 0, 2, 4, 6 and its own 12 degrees
    assert np.allclose(again.quad - again.quad[0], median - median[0], atol=0.5)
    assert row_outlines(row, 0.3) == []                                   # they agree with their row
    assert row_outlines(row[:1] + [askew], 0.3) == []                     # two are no row
    faint_row = [card(100 + 15 * k, 100, score=0.2) for k in range(4)]
    assert row_outlines(faint_row + [askew], 0.3) == []                   # only sure corners make a row


def test_a_row_is_three_or_more_sure_corners_that_run_alike_close_together():
    row = [card(100 + 15 * k, 100, turn=3 * k) for k in range(4)]
    others = [card(700, 100),                       # far off
              card(175, 100, turn=90),              # turned across the row
              card(190, 100, score=0.2)]            # faint
    found, = rows_of(row + others, 0.3)
    assert [id(hit) for hit in found] == [id(hit) for hit in row]
    assert rows_of(row[:2] + others, 0.3) == []     # two are no row
    chain = [card(100 + 90 * k, 100) for k in range(3)]   # each within reach of the next only
    assert len(rows_of(chain, 0.3)) == 1


def test_a_rows_window_has_the_frames_shape_holds_its_cards_and_enlarges_them():
    row = [card(600 + 15 * k, 300) for k in range(4)]
    x0, y0, x1, y1 = row_window(row, 1280, 720)
    assert (x1 - x0) == pytest.approx(1280 / ZOOM_MAX, abs=1) and (y1 - y0) == pytest.approx(720 / ZOOM_MAX, abs=1)
    points = np.concatenate([hit.quad for hit in row])
    assert (points.min(axis=0) > [x0 + 7, y0 + 7]).all() and (points.max(axis=0) < [x1 - 7, y1 - 7]).all()
    x0, y0, x1, y1 = row_window([card(5 + 15 * k, 640) for k in range(4)], 1280, 720)   # at the frame's corner
    assert (x0, y1) == (0, 720) and x1 - x0 == 640
    wide = [card(40 + 60 * k, 300, size=2.0) for k in range(16)]     # across the whole frame
    assert row_window(wide, 1280, 720) is None


def test_rows_whose_windows_overlap_are_read_in_one_window():
    down = [card(600 + 15 * k, 300) for k in range(3)]
    up = [card(700 - 15 * k, 400, turn=180) for k in range(3)]       # the same cards' other ends
    (window, rows), = row_windows(down + up, 0.3, 1280, 720)
    assert len(rows) == 2
    apart = [card(100 + 15 * k, 100) for k in range(3)] + [card(1100 + 15 * k, 600) for k in range(3)]
    assert len(row_windows(apart, 0.3, 1280, 720)) == 2


def test_a_corner_found_enlarged_is_kept_only_when_it_runs_the_rows_way():
    row = [card(100 + 15 * k, 100, turn=10 * k) for k in range(3)]  # fanned: median turn 10
    assert np.allclose(row_down(row), card(0, 0, turn=10).down)
    assert runs_with(card(160, 100, turn=50), [row_down(row)])
    assert not runs_with(card(160, 100, turn=60), [row_down(row)])
    assert not runs_with(card(160, 100, turn=90), [row_down(row)])            # a sideways index
    assert runs_with(card(160, 100, turn=90), [row_down(row), row_down([card(0, 0, turn=90)] * 3)])


class RecordingDetector:
    """A stand-in detector: a fixed row of corners in the whole frame, and what it is asked to enlarge."""

    threshold = 0.3

    def __init__(self, whole, enlarged):
        self.whole, self.enlarged, self.windows = whole, enlarged, []

    def detect(self, image):
        return list(self.whole)

    def sure_in(self, image, window):
        self.windows.append(window)
        return list(self.enlarged)


def test_each_row_is_read_again_enlarged_and_its_corners_that_run_its_way_added():
    row = [card(600 + 15 * k, 300) for k in range(3)]
    along, sideways = card(645, 300), card(660, 300, turn=90)
    detector = RecordingDetector(row, [along, sideways])
    finder = CornerFinder(detector, lambda image: [])
    frame = np.zeros((720, 1280, 3), np.uint8)
    assert finder.corners(frame) == row + [along]
    assert detector.windows == [row_window(row, 1280, 720)]
    offered = [c.quads[0] for c in finder(frame)]
    assert any(np.allclose(q, along.quad) for q in offered) and not any(np.allclose(q, sideways.quad) for q in offered)
    detector.windows.clear()
    assert CornerFinder(detector, lambda image: [], zoom_rows=False).corners(frame) == row
    assert detector.windows == []
    assert CornerFinder(RecordingDetector(row[:2], [along]), lambda image: []).corners(frame) == row[:2]  # no row


class PatchFinder(CornerFinder):
    """The finder's part stood in for: no outlines, these bright patches."""

    def __init__(self, detector, patches, **kwargs):
        super().__init__(detector, **kwargs)
        self.patches = patches

    def outlines(self, image, card_length=None):
        self.card_length = card_length
        return [], list(self.patches)


def test_corner_candidates_pair_a_lone_cards_corners_and_leave_a_covered_one_alone():
    quad = np.float32([[0, 0], [70, 0], [70, 100], [0, 100]])
    a = CornerHit(quad, 0.9)
    b = CornerHit(np.roll(quad, -2, axis=0), 0.8)
    lone, = corner_candidates([a, b])
    assert len(lone.quads) == 2 and not lone.covered and lone.by_corner
    covered = CornerHit(quad + [30, 0], 0.7)
    first, second = corner_candidates([a, covered])
    assert first.covered and second.covered and np.allclose(second.quad, covered.quad)


def test_missing_or_broken_model_files_say_what_to_do(tmp_path):
    with pytest.raises(ModelError, match="make model"):
        CornerDetector(tmp_path / "corners.onnx")
    (tmp_path / "corners.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="make model"):
        CornerDetector(tmp_path / "corners.onnx")
    (tmp_path / "corners.json").write_text(json.dumps({"threshold": 0.3}))
    with pytest.raises(ModelError, match="cannot be loaded"):
        CornerDetector(tmp_path / "corners.onnx")


@pytest.mark.parametrize("width", ["wide", 500, 0])
def test_a_bad_input_width_in_the_settings_is_refused(tmp_path, width):
    (tmp_path / "corners.onnx").write_bytes(DEFAULT_MODEL.read_bytes())
    (tmp_path / "corners.json").write_text(json.dumps({"threshold": 0.3, "input_width": width}))
    with pytest.raises(ModelError, match="input_width"):
        CornerDetector(tmp_path / "corners.onnx")


def test_the_detector_shrinks_frames_to_its_models_own_width(tmp_path):
    # A model keeps the width it was trained at, whatever INPUT_WIDTH training uses now.
    meta = json.loads(DEFAULT_MODEL.with_suffix(".json").read_text())
    for width in (meta["input_width"], 256):
        (tmp_path / "corners.onnx").write_bytes(DEFAULT_MODEL.read_bytes())
        (tmp_path / "corners.json").write_text(json.dumps({**meta, "input_width": width}))
        out, scale = CornerDetector(tmp_path / "corners.onnx").outputs(np.zeros((720, 1280, 3), np.uint8))
        assert out.shape[2] * STRIDE == width and scale[0] == width / 1280


# Ten scenes a deck and kind: three, as this test once used, made the row figure swing by several
# points between models (the detector before this one found 49 of 64 row corners in three scenes and
# 297 of 428 in twenty). On the held-out decks of the time the model before today's found 156 of 216
# row corners and 268 of 285 separate-card corners, with 2.7 and 0.8 false peaks a scene (most of
# them a true corner with the card's far end misjudged, or a deck's indices printed in all four
# corners); today's finds 144 of 207 and 262 of 289 on today's held-out decks (the xfail below).
SCENES_PER_DECK = 10
MIN_FOUND = {"row": 0.72, "separate": 0.92}
MAX_FALSE_PER_SCENE = 3.5
def test_the_frames_card_length_is_the_median_of_three_or_more_sure_corners():
    assert card_length([card(100, 100), card(300, 100, size=1.5), card(500, 100, size=1.1)], 0.3) == \
        pytest.approx(72 * 1.1)
    faint = card(700, 100, size=3.0, score=0.2)  # not counted, and two sure corners are too few
    assert card_length([card(100, 100), card(300, 100), faint], 0.3) is None
    assert card_length([], 0.3) is None


def test_the_finder_is_told_the_card_length_the_corners_measured():
    sure = [card(100 + 200 * k, 100) for k in range(3)]
    finder = PatchFinder(RecordingDetector(sure, []), [])
    finder(np.zeros((720, 1280, 3), np.uint8))
    assert finder.card_length == pytest.approx(72)
    finder = PatchFinder(RecordingDetector(sure[:2], []), [])
    finder(np.zeros((720, 1280, 3), np.uint8))
    assert finder.card_length is None


# All the corners the recognizer is offered (CornerFinder.corners: faint ones beside sure ones, and
# each row read again enlarged) find 172 of the 216 row corners (160 without the enlarged reads)
# and the same 268 separate-card corners; the gain is asked of them over the model's own peaks.
MIN_ZOOM_GAIN = {"row": 8, "separate": 0}


@pytest.fixture(scope="module")
def detector():
    return CornerDetector()


@pytest.mark.xfail(strict=True, reason="the detector trained without the reserved designs finds 144 of 207 row "
                   "and 262 of 289 separate corners of the held-out decks, under the bounds; the one "
                   "before it, trained on two of them, met them (models/HISTORY.md, section 14)")
@pytest.mark.parametrize("kind", ["row", "separate"])
def test_the_committed_detector_finds_held_out_decks_index_corners(detector, kind):
    """Held-out decks (never trained on), seeded scenes: the share of visible index corners found
    with the card's far corner in place, and few peaks elsewhere. Bounds sit under what the
    committed model does (MODEL_CARD.md); the classifier, not the detector, refuses what is no card.
    Rows read again enlarged find more of them."""
    from models.training.corners import matches
    from sim.render.decks import HELD_OUT_DECKS

    finder = CornerFinder(detector, lambda image: [])
    found = total = false = zoomed = 0
    for i, deck in enumerate(HELD_OUT_DECKS):
        rng = np.random.default_rng([11, i])
        for _ in range(SCENES_PER_DECK):
            scene = make_scene(rng, kind, deck)
            corners = scene_view(scene, rng, zoom=1.0)[1]  # in the training input's pixels
            h, w = scene.image.shape[:2]
            iw, ih = input_size(w, h)
            scale = np.float32([iw / w, ih / h])
            truths = np.concatenate([(corners[:, :2] + 0.5) / scale - 0.5, corners[:, 2:] / np.tile(scale, 2)], axis=1)
            out, frame_to_input = detector.outputs(scene.image)  # the model's own peaks, not the faint ones
            f, x = matches(decode(out, frame_to_input, detector.threshold), truths, 1.0)
            found, false, total = found + f, false + x, total + len(corners)
            zoomed += matches(finder.corners(scene.image), truths, 1.0)[0]
    assert found >= MIN_FOUND[kind] * total, f"{found} of {total} corners found"
    assert zoomed >= found + MIN_ZOOM_GAIN[kind], f"{zoomed} of {total} corners found with rows enlarged"
    scenes = SCENES_PER_DECK * len(HELD_OUT_DECKS)
    assert false <= MAX_FALSE_PER_SCENE * scenes, f"{false} false peaks in {scenes} scenes"


def test_every_detected_corner_is_offered_after_the_finders_outlines():
    # In a row the finder's outline often starts a few pixels off a card's index, where the
    # detector's corner lies on it: both are read, and the recognizer keeps one reading per place.
    scene = make_scene(np.random.default_rng(3), "row", "penguins")
    finder = CornerFinder()
    outlined = list(find_cards(scene.image))
    found = finder(scene.image)
    assert len(found) > len(outlined)
    assert all(not c.by_corner for c in found[:len(outlined)])
    assert all(c.by_corner for c in found[len(outlined):])
    offered = [q for c in found[len(outlined):] for q in c.quads]
    hits = finder.corners(scene.image)
    outlines, patches = finder.outlines(scene.image)
    again = row_outlines(hits, finder.detector.threshold)
    sure = [h.quad for h in hits if h.score >= finder.detector.threshold]
    guessed = finder.guessed_corners(patches, [c.quad for c in outlines] + sure)
    assert len(offered) == len(hits) + len(again) + len(guessed)
    assert all(any(np.allclose(h.quad, q) for q in offered) for h in hits + again + guessed)
    # ... including corners the finder's outlines already start at (these were once skipped)
    assert any(np.linalg.norm(h.quad[0] - q[0]) < 0.15 * h.length for h in hits for c in outlined for q in c.quads)


def test_the_square_corners_of_a_patch_nothing_explains_are_offered_as_index_corners():
    # Two cards overlapping (70 x 100 each, the second 40 right and 30 down): one bright blob, no
    # card's shape, and no corner found by the detector.
    first = np.float32([[100, 100], [170, 100], [170, 200], [100, 200]])
    blob = np.float32([[100, 100], [170, 100], [170, 130], [210, 130], [210, 230], [140, 230], [140, 200],
                       [100, 200]])
    frame = np.zeros((720, 1280, 3), np.uint8)
    detector = RecordingDetector([], [])
    found = PatchFinder(detector, [Patch((100.0, 100.0, 210.0, 230.0), blob)])(frame)
    assert found and all(c.covered and c.by_corner and len(c.quads) == 1 for c in found)
    corners = {tuple(c.quad[0].round().astype(int)) for c in found}
    # the hull's square corners: the first card's top left and the second's bottom right (the hull
    # cuts the others off)
    assert corners == {(100, 100), (210, 230)}
    at_first = next(c.quad for c in found if tuple(c.quad[0].round()) == (100, 100))
    # its short side runs clockwise from the corner, its long side down the blob's edge, as long as
    # that edge (no other card tells the length): the first card's outline
    assert np.allclose(at_first, first, atol=1)
    # explained by an outline there, or a sure corner: nothing guessed but a corner outside it (the
    # second card's, where the outline holds the first card and the blob's centre)
    finder = PatchFinder(detector, [])
    patch = Patch((100.0, 100.0, 210.0, 230.0), blob)
    assert finder.guessed_corners([patch], [first * 1.2 - 20, first + np.float32([40, 30])]) == []
    (outside,) = finder.guessed_corners([patch], [first * 1.2 - 20])
    assert tuple(outside.quad[0].round()) == (210, 230)
    assert square_corners(np.float32([[0, 0], [100, 50], [0, 100]]), None) == []   # no square corner


def test_the_detectors_cached_views_are_named_by_the_scene_kinds_they_draw(tmp_path, monkeypatch):
    from models.training import corner_data

    scenes = {"standard": 3}
    before = corner_data.views_path(tmp_path, scenes, 0)
    assert corner_data.views_path(tmp_path, scenes, 0) == before
    monkeypatch.setattr(corner_data, "KIND_WEIGHTS", {**corner_data.KIND_WEIGHTS, "fan": 0.1})
    assert corner_data.views_path(tmp_path, scenes, 0) != before
