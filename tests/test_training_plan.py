"""The training scene plan: how many scenes of which kind per deck, each with its own seed."""

import shutil
from collections import Counter

import pytest

from models.training.dataset import KIND_WEIGHTS, plan_jobs

# Asset decks stand in for training decks here (no apt package needed); plan_jobs only looks at faces.
DECKS = ["greywyvern", "penguins"]


def test_a_count_per_deck_is_honoured_and_kinds_follow_their_weights():
    jobs = plan_jobs(DECKS, {"greywyvern": 100, "penguins": 20}, seed=3)
    per_deck = Counter(job[0] for job in jobs)
    assert per_deck == {"greywyvern": 100, "penguins": 20}
    kinds = Counter(kind for deck, kind, *_ in jobs if deck == "greywyvern")
    assert kinds == {kind: round(100 * share) for kind, share in KIND_WEIGHTS.items()}
    assert len({job[2] for job in jobs}) == len(jobs)


def test_one_count_for_every_deck_and_the_plan_is_repeatable():
    jobs = plan_jobs(DECKS, 20, seed=1)
    assert Counter(job[0] for job in jobs) == {"greywyvern": 20, "penguins": 20}
    assert jobs == plan_jobs(DECKS, 20, seed=1)
    assert jobs != plan_jobs(DECKS, 20, seed=2)


def test_every_kind_gets_a_scene_even_from_a_small_count():
    kinds = Counter(job[1] for job in plan_jobs(DECKS[:1], 3, seed=0))
    assert set(kinds) == set(KIND_WEIGHTS)


def test_a_share_of_scenes_draws_small_cards_and_leaves_the_others_as_they_were():
    plain = plan_jobs(DECKS, 200, seed=4)
    some = plan_jobs(DECKS, 200, seed=4, small_share=0.25)
    assert not any(job[4] for job in plain)
    small = [job for job in some if job[4]]
    assert 0.18 < len(small) / len(some) < 0.32
    assert [job[:4] for job in some] == [job[:4] for job in plain]   # the same scenes, some drawn small
    assert {job[1] for job in small} == set(KIND_WEIGHTS)


@pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="dpkg answers which packages are installed")
def test_make_model_names_the_packages_it_still_needs():
    from models.training import apt

    assert "fonts-dejavu-extra" in apt.MODEL_PACKAGES and "kdegames-card-data-kf5" in apt.MODEL_PACKAGES
    assert apt.missing(("no-such-package-muggins",)) == ["no-such-package-muggins"]
    assert apt.missing(("dpkg", "no-such-package-muggins")) == ["no-such-package-muggins"]
