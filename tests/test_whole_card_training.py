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


def test_a_face_beside_another_card_shows_a_strip_of_that_card_at_one_or_two_sides():
    """Black faces, every one beside another card: what is no longer face lies along one side or two as a
    strip of the other card at most a tenth of the card across, and the rest is still face."""
    torch.manual_seed(0)
    x = torch.zeros(32, 3, HEIGHT, WIDTH)
    out = whole_card.beside_another(x.clone(), 1.0)
    for face in out:
        shown = face.mean(0) > 0.005         # the other card: its border, or the edge line (or two) on it
        rows, cols = shown.all(dim=1), shown.all(dim=0)
        assert int(rows.sum()) + int(cols.sum()) >= 1
        assert int(rows.sum()) <= round(0.10 * HEIGHT) and int(cols.sum()) <= round(0.10 * WIDTH)
        for strip, side in ((rows, HEIGHT), (cols, WIDTH)):  # each strip runs along one side only
            at = torch.nonzero(strip).flatten().tolist()
            assert at == list(range(len(at))) or at == list(range(side - len(at), side))
        assert int(shown.sum()) == int(rows.sum()) * WIDTH + int(cols.sum()) * HEIGHT - int(rows.sum()) * int(cols.sum())


def test_without_a_share_no_face_is_shown_beside_another():
    x = torch.rand(8, 3, HEIGHT, WIDTH)
    assert torch.equal(whole_card.beside_another(x.clone(), 0.0), x)
