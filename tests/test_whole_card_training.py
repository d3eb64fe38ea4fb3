"""The whole-card network's training draws real faces as a share of every batch, never one held
apart, and reports on those held apart."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from models.training import whole_card  # noqa: E402
from models.training.real_faces import RealFaces  # noqa: E402
from vision.whole_card import HEIGHT, WIDTH  # noqa: E402


def faces(n: int, level: int) -> np.ndarray:
    return np.full((n, HEIGHT, WIDTH, 3), level, np.uint8)


def real_faces() -> RealFaces:
    """40 real faces, each its own grey level and class 7; every tenth held apart."""
    return RealFaces(np.stack([faces(1, 100 + n)[0] for n in range(40)]), np.full(40, 7, np.int64),
                     np.arange(40) % 10 == 0)


def test_every_batch_holds_its_share_of_real_faces_and_none_held_apart():
    xs, ys = torch.from_numpy(faces(512, 20)), torch.zeros(512, dtype=torch.int64)
    real_xs, real_ys, n_real = whole_card.real_part(real_faces(), 0.25)
    assert n_real == round(0.25 * whole_card.BATCH) and len(real_ys) == 36
    x, y = whole_card.batch(xs, ys, torch.arange(whole_card.BATCH - n_real), real_xs, real_ys, n_real)
    assert len(y) == whole_card.BATCH and int((y == 7).sum()) == n_real
    levels = {int(v) for v in x[y == 7][:, 0, 0, 0]}
    assert levels and not levels & {100 + n for n in range(0, 40, 10)}


def test_without_a_share_no_real_face_is_drawn():
    assert whole_card.real_part(real_faces(), 0.0)[2] == 0
    assert whole_card.real_part(None, 0.25)[2] == 0


def test_the_faces_held_apart_are_reported_on():
    x, y = faces(256, 20), np.zeros(256, np.int64)
    _, report = whole_card.train(x, y, x[:8], y[:8], minutes=0.01, seed=0, real=real_faces(), real_share=0.25)
    assert report["real_held_apart"]["val_cards"] == 4
