"""How training batches are drawn: class-balanced over the rendered crops, and, with real crops,
those as a fixed share of every batch, half cards and half "not a card"."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from models.training.train import balanced_weights  # noqa: E402

BACKGROUND = 52


def share(weights, mask) -> float:
    w = weights.numpy()
    return float(w[mask].sum() / w.sum())


def test_rendered_crops_alone_are_drawn_class_balanced():
    labels = np.array([0] * 10 + [1] * 30 + [BACKGROUND] * 60)
    w = balanced_weights(labels, 53)
    for label in (0, 1, BACKGROUND):
        assert share(w, labels == label) == pytest.approx(1 / 3)


def test_real_crops_are_drawn_as_their_share_half_cards_half_not_a_card():
    labels = np.array([0] * 10 + [BACKGROUND] * 90 + [0] * 2 + [BACKGROUND] * 8)
    real = np.r_[np.zeros(100, bool), np.ones(10, bool)]
    w = balanced_weights(labels, 53, BACKGROUND, real, 0.2)
    assert share(w, real) == pytest.approx(0.2)
    assert share(w, real & (labels == BACKGROUND)) == pytest.approx(0.1)
    assert share(w, real & (labels == 0)) == pytest.approx(0.1)
    # Each real "not a card" is drawn alike, and (here) more often than a rendered one.
    assert np.allclose(w.numpy()[102:], w.numpy()[102])
    assert w.numpy()[102] > 2 * w.numpy()[50]
    # The rendered crops keep their class balance in the rest.
    assert share(w, ~real & (labels == 0)) == pytest.approx(share(w, ~real & (labels == BACKGROUND)))


def test_no_share_or_no_real_crops_is_the_plain_balance():
    labels = np.array([0] * 10 + [BACKGROUND] * 90)
    plain = balanced_weights(labels, 53).numpy()
    assert np.allclose(balanced_weights(labels, 53, BACKGROUND, np.zeros(100, bool), 0.2).numpy(), plain)
    assert np.allclose(balanced_weights(labels, 53, BACKGROUND, np.ones(100, bool) & False, 0.0).numpy(), plain)


def test_the_real_share_is_checked_on_the_command_line():
    import argparse

    from models.training.__main__ import parse_share

    assert parse_share("0.15") == 0.15 and parse_share("0") == 0.0
    for bad in ("3", "1", "-0.1", "half"):
        with pytest.raises(argparse.ArgumentTypeError, match="a share is a number from 0 up to 1"):
            parse_share(bad)
