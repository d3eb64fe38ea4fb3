"""The smaller network's shrink of the crop: OpenCV's area averaging, as a matrix it can carry."""

import cv2
import numpy as np
import pytest

from models.training.shrink import area_matrix


@pytest.mark.parametrize("source, target", [(70, 56), (40, 32), (7, 3), (10, 5), (9, 9)])
def test_each_row_is_a_weighted_average_over_a_span_of_the_line(source, target):
    m = area_matrix(source, target)
    assert m.shape == (target, source)
    assert np.allclose(m.sum(axis=1), 1.0) and (m >= 0).all()
    # every source pixel counts as much as any other in all: source / target outputs' worth of it
    assert np.allclose(m.sum(axis=0), target / source)


def test_shrinking_a_crop_matches_opencv_area_resize():
    rng = np.random.default_rng(5)
    crop = rng.integers(0, 256, (70, 40, 3)).astype(np.float32)
    crop[20:30, 10:18] = 255  # an edge or two, not only noise
    expected = cv2.resize(crop, (32, 56), interpolation=cv2.INTER_AREA)
    rows, cols = area_matrix(70, 56), area_matrix(40, 32)
    shrunk = np.stack([rows @ crop[:, :, c] @ cols.T for c in range(3)], axis=2)
    assert np.abs(shrunk - expected).max() < 1e-3


def test_growing_is_refused():
    with pytest.raises(ValueError):
        area_matrix(32, 40)


def test_network_sizes_are_read_as_width_by_height_and_bad_ones_refused():
    import argparse

    from models.training.__main__ import parse_sizes

    assert parse_sizes("32x56,40x70") == [(56, 32), (70, 40)]
    assert parse_sizes("40X70") == [(70, 40)]
    for bad in ("32x", "32x56x3", "ax56", "0x56", "32x56,"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_sizes(bad)


def test_a_network_larger_than_the_crops_is_refused_before_anything_is_rendered(capsys):
    from models.training.__main__ import parse_args

    assert parse_args(["--sizes", "32x56,40x70"]).sizes == [(56, 32), (70, 40)]
    with pytest.raises(SystemExit):
        parse_args(["--sizes", "48x80"])
    assert "no network can read more than the crops" in capsys.readouterr().err


def test_the_render_seed_is_the_seed_unless_a_data_seed_is_given():
    from models.training.__main__ import parse_args

    assert parse_args([]).data_seed == 0
    assert parse_args(["--seed", "3"]).data_seed == 3
    assert parse_args(["--seed", "3", "--data-seed", "0"]).data_seed == 0
