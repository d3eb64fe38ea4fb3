"""Stretched crops for the classifier's training: a share of them magnified from the top-left corner,
as an outline narrower or shorter than its card cuts the index (the share itself:
test_augment_coarse.py)."""

import pytest

torch = pytest.importorskip("torch")

from models.training.augment import stretch  # noqa: E402


def marked_crops(n: int = 16) -> torch.Tensor:
    """Crops with one dark square near the top-left corner, where an index lies."""
    x = torch.ones(n, 3, 70, 40)
    x[:, :, 10:20, 5:15] = 0.0
    return x


def dark_box(crop: torch.Tensor) -> tuple[int, int, int, int]:
    """(top, left, bottom, right) of the dark pixels of a crop, bottom and right exclusive."""
    rows = torch.nonzero((crop[0] < 0.5).any(dim=1)).flatten()
    cols = torch.nonzero((crop[0] < 0.5).any(dim=0)).flatten()
    return int(rows[0]), int(cols[0]), int(rows[-1]) + 1, int(cols[-1]) + 1


def test_a_stretched_crop_keeps_its_top_left_corner_and_grows_away_from_it():
    torch.manual_seed(3)
    x = marked_crops(200)
    y = stretch(x, 1.0)
    assert y.shape == x.shape
    grown = 0
    for crop in y:
        top, left, bottom, right = dark_box(crop)
        assert 9 <= top <= 15 and 4 <= left <= 9          # the mark moves out from the corner, never in
        assert bottom - top >= 10 and right - left >= 10  # and never shrinks
        assert bottom - top <= 15 and right - left <= 17  # at most 1.4 down and 1.6 across
        grown += (bottom - top > 11) or (right - left > 11)
    # A picked crop is stretched across at 0.7 and down at 0.5: 0.85 of them one way or both, most visibly.
    assert 120 < grown < 185
