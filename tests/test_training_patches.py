"""The index-corner detector's training patches: each is cut from its view with its targets in register."""

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs torch: pip install -e '.[train]'")

from models.training.corner_data import ViewSet, targets  # noqa: E402
from models.training.corners import PatchSource  # noqa: E402
from vision.corners import STRIDE  # noqa: E402


def views_with_one_corner_each(n: int = 3, shape=(96, 160)) -> ViewSet:
    rng = np.random.default_rng(5)
    images = rng.integers(0, 256, (n, *shape, 3), dtype=np.uint8)
    corners = [np.float32([[40 + 16 * k, 30 + 8 * k, 20, 4, -3, 28]]) for k in range(n)]
    return ViewSet(images, corners, np.zeros(n, np.int16), np.arange(n, dtype=np.int32))


def test_a_patch_holds_its_views_pixels_and_the_views_targets_at_the_same_cells():
    views = views_with_one_corner_each()
    source = PatchSource(views, np.array([0, 1, 2]), "cpu")
    patch = 64
    x, heat, reg, mask = source.batch(np.random.default_rng(1), 8, patch)
    assert x.shape == (8, 3, patch, patch) and heat.shape == (8, patch // STRIDE, patch // STRIDE)
    assert reg.shape == (8, 6, patch // STRIDE, patch // STRIDE) and mask.shape == heat.shape
    full = [targets(views.corners[i], views.images[i].shape[:2]) for i in range(3)]
    for b in range(8):
        pixels = (x[b].permute(1, 2, 0).numpy() * 255).round().astype(np.uint8)
        # find where this patch came from: its pixels are one view's, cut on the detector's grid
        spots = [(i, y, xx) for i in range(3)
                 for y in range(0, 96 - patch + 1, STRIDE) for xx in range(0, 160 - patch + 1, STRIDE)
                 if np.array_equal(views.images[i][y:y + patch, xx:xx + patch], pixels)]
        assert len(spots) == 1
        i, y, xx = spots[0]
        r, c, cells = y // STRIDE, xx // STRIDE, patch // STRIDE
        np.testing.assert_array_equal(heat[b].numpy(), full[i][0][r:r + cells, c:c + cells])
        np.testing.assert_array_equal(reg[b].numpy(), full[i][1][:, r:r + cells, c:c + cells])
        np.testing.assert_array_equal(mask[b].numpy(), full[i][2][r:r + cells, c:c + cells])


def test_a_corner_inside_a_patch_is_taught_as_targets_drawn_on_the_patch_alone_would_teach_it():
    views = views_with_one_corner_each(1, (64, 64))
    source = PatchSource(views, np.array([0]), "cpu")
    _, heat, reg, mask = source.batch(np.random.default_rng(0), 1, 64)  # the patch is the whole view
    alone = targets(views.corners[0], (64, 64))
    assert heat[0].max() == 1.0 and mask[0].sum() == 9
    np.testing.assert_array_equal(heat[0].numpy(), alone[0])
    np.testing.assert_array_equal(reg[0].numpy(), alone[1])
