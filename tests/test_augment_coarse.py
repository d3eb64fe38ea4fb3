"""Coarse print for the classifier's training crops: a share of them shrunk and enlarged again, as a
deck whose small bitmap indices are enlarged prints them. For it and the stretched crops
(test_augment_stretch.py): none at a share of 0, and then the random numbers the rest of the
augmentation draws are not disturbed; about the share asked otherwise."""

import pytest

torch = pytest.importorskip("torch")

from models.training.augment import coarsen, stretch  # noqa: E402


def sharp_crops(n: int = 16) -> torch.Tensor:
    x = torch.zeros(n, 3, 70, 40)
    x[:, :, 10:60:2, 8:32] = 1.0     # one-pixel stripes: fine print that a coarse copy cannot keep
    return x


def test_every_crop_coarsened_at_a_share_of_one_loses_its_fine_print():
    x = sharp_crops()
    y = coarsen(x, 1.0)
    assert y.shape == x.shape
    def alternations(crop: torch.Tensor) -> int:
        column = crop[0, 10:60, 20]
        return int(((column[1:] - column[:-1]).abs() > 0.25).sum())

    for before, after in zip(x, y):
        assert alternations(after) < alternations(before) / 2


@pytest.mark.parametrize("augmentation", [coarsen, stretch])
def test_a_share_of_zero_changes_nothing_and_draws_no_random_number(augmentation):
    x = sharp_crops()
    torch.manual_seed(5)
    assert torch.equal(augmentation(x, 0.0), x)
    after = torch.rand(3)
    torch.manual_seed(5)
    assert torch.equal(after, torch.rand(3))


@pytest.mark.parametrize("augmentation", [coarsen, stretch])
def test_about_the_share_asked_is_changed(augmentation):
    torch.manual_seed(0)
    x = sharp_crops(400)
    changed = sum(not torch.equal(a, b) for a, b in zip(x, augmentation(x, 0.25)))
    assert 60 < changed < 140
