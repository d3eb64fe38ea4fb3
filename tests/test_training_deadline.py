"""`make model` keeps to its hour: the renders run first, and the networks' budgets are cut by the same
share where the time left before the deadline no longer holds them (models/training/deadline.py)."""

import numpy as np
import pytest

from models.training.deadline import FLOOR, budget_line, fitted_minutes

NOW = 1_800_000_000.0


def test_without_a_deadline_or_with_time_to_spare_the_budget_stands():
    assert fitted_minutes(16, 28, None, now=NOW) == 16
    assert fitted_minutes(16, 28, NOW + 60 * 50, now=NOW) == 16
    assert fitted_minutes(16, 28, NOW + 60 * 44, now=NOW) == 16
    assert budget_line("corner detector", 16, 16, NOW + 60 * 50) is None


def test_short_of_time_this_budget_and_the_later_ones_are_cut_alike():
    # 33 minutes left for 16 now and 28 after: three quarters of each
    assert fitted_minutes(16, 28, NOW + 60 * 33, now=NOW) == pytest.approx(12.0)
    assert fitted_minutes(22, 6, NOW + 60 * 21, now=NOW) == pytest.approx(16.5)
    line = budget_line("corner detector", 16, 12.0, NOW + 60 * 33)
    assert "12.0 of its 16 minutes" in line and "make model" in line


def test_a_budget_is_never_cut_below_its_floor_nor_a_deadline_past_made_negative():
    assert fitted_minutes(16, 28, NOW + 60 * 5, now=NOW) == pytest.approx(16 * FLOOR)
    assert fitted_minutes(4, 0, NOW - 600, now=NOW) == pytest.approx(4 * FLOOR)
    assert fitted_minutes(0, 10, NOW, now=NOW) == 0


def test_the_classifier_trains_for_the_budget_the_deadline_leaves(tmp_path, classifier_training):
    import time
    from types import SimpleNamespace

    from models.training import __main__ as training_main

    later = 4.0 + training_main.FINISHING
    deadline = time.time() + 60 * (22 + later) / 2  # half the time the plan asks for
    args = training_main.parse_args(["--out", str(tmp_path), "--deadline", str(deadline)])
    crops = np.zeros((6, 70, 40, 3), np.uint8)
    training_main.train_cards(args, SimpleNamespace(crops=crops, labels=np.zeros(6, np.int64)),
                              np.zeros(6, bool), ["standard"])
    assert classifier_training["minutes"] == pytest.approx(11.0, abs=0.05)


@pytest.mark.parametrize("name", ["__main__", "corners"])
def test_render_only_renders_the_scenes_and_trains_nothing(name, monkeypatch):
    pytest.importorskip("torch", reason="training needs torch: pip install -e '.[train]'")
    from models.training import __main__ as training_main
    from models.training import corner_data, dataset, decks
    from models.training import corners as corner_training

    module = {"__main__": training_main, "corners": corner_training}[name]
    rendered = []
    monkeypatch.setattr(decks, "scenes_per_deck", lambda *a, **k: {"standard": 1})
    for source in (dataset, corner_data):
        monkeypatch.setattr(source, "cached_build", lambda *a, **k: rendered.append(a) or object())
    monkeypatch.setattr(training_main, "train_cards", lambda *a, **k: pytest.fail("trained"))
    monkeypatch.setattr(training_main, "train_whole_cards", lambda *a, **k: pytest.fail("trained"))
    monkeypatch.setattr(corner_training, "train", lambda *a, **k: pytest.fail("trained"))
    assert module.main(["--render-only"]) == 0
    assert len(rendered) == 1
