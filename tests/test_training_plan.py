"""The training scene plan: how many scenes of which kind per deck, each with its own seed."""

import shutil
from collections import Counter

import pytest

from models.training.dataset import KIND_WEIGHTS, plan_jobs

# Asset decks stand in for training decks here (no apt package needed); plan_jobs only looks at faces.
DECKS = ["greywyvern", "penguins"]


def test_a_count_per_deck_is_honoured_and_kinds_follow_their_weights():
    jobs = plan_jobs(DECKS, {"greywyvern": 100, "penguins": 20}, seed=3)
    per_deck = Counter(deck for deck, _, _, _ in jobs)
    assert per_deck == {"greywyvern": 100, "penguins": 20}
    kinds = Counter(kind for deck, kind, _, _ in jobs if deck == "greywyvern")
    assert kinds == {kind: round(100 * share) for kind, share in KIND_WEIGHTS.items()}
    assert len({seed for _, _, seed, _ in jobs}) == len(jobs)


def test_one_count_for_every_deck_and_the_plan_is_repeatable():
    jobs = plan_jobs(DECKS, 20, seed=1)
    assert Counter(deck for deck, _, _, _ in jobs) == {"greywyvern": 20, "penguins": 20}
    assert jobs == plan_jobs(DECKS, 20, seed=1)
    assert jobs != plan_jobs(DECKS, 20, seed=2)


def test_every_kind_gets_a_scene_even_from_a_small_count():
    kinds = Counter(kind for _, kind, _, _ in plan_jobs(DECKS[:1], 3, seed=0))
    assert set(kinds) == set(KIND_WEIGHTS)


@pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="dpkg answers which packages are installed")
def test_make_model_names_the_packages_it_still_needs():
    from models.training import apt

    assert "fonts-dejavu-extra" in apt.MODEL_PACKAGES and "kdegames-card-data-kf5" in apt.MODEL_PACKAGES
    assert apt.missing(("no-such-package-muggins",)) == ["no-such-package-muggins"]
    assert apt.missing(("dpkg", "no-such-package-muggins")) == ["no-such-package-muggins"]
