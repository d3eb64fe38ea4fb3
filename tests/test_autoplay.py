"""The random legal game driver: seeded, complete, and honest about the rules it plays by."""

import random

import pytest

from cribbage import events as ev
from cribbage.autoplay import DEFAULT_NAMES, autoplay
from cribbage.game import Game
from cribbage.variants import VARIANTS, Options


def test_the_same_seed_plays_the_same_game():
    a, actions_a = autoplay(random.Random(7))
    b, actions_b = autoplay(random.Random(7))
    c, _ = autoplay(random.Random(8))
    assert actions_a == actions_b and a.events == b.events
    assert c.events != a.events


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_plays_to_the_end(variant):
    for seed in range(3):
        game, _ = autoplay(random.Random(seed), variant, go_buttons=seed == 1)
        won = game.events[-1]
        assert isinstance(won, ev.GameWon) and game.is_over
        assert max(game.scores) >= game.target and game.winner in won.side
        assert sum(1 for s in game.scores if s >= game.target) == 1


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_scores_are_the_sum_of_the_pegs(variant):
    game, _ = autoplay(random.Random(3), variant, Options(overclaim_penalty=True, muggins=False),
                       claim_errors=0.4)
    totals = [0] * len(game.sides)
    for e in game.events:
        if e.pegs:
            side = next(i for i, s in enumerate(game.sides) if e.pegs[0] in s)
            totals[side] += e.pegs[1]
    # every point pegged counts, except that the winning peg stops in the game hole
    assert tuple(min(t, game.target) for t in totals) == game.scores


@pytest.mark.parametrize("variant", ["six-card", "seven-card", "three-player", "four-player"])
def test_every_count_ends_in_exactly_one_go_thirty_one_or_last_card(variant):
    game, _ = autoplay(random.Random(11), variant)
    counts = ends = 0
    for e in game.events:
        if isinstance(e, ev.CardPlayed) and e.new_series:
            counts += 1
        if isinstance(e, (ev.GoPegged, ev.LastCard)) or (isinstance(e, ev.CardPlayed) and e.count == 31):
            ends += 1
    # the last round may stop part way when the game is won
    assert counts - ends in (0, 1) and counts > 10


def test_honest_play_never_reneges():
    for seed in range(10):
        for variant in VARIANTS:
            game, _ = autoplay(random.Random(seed), variant)
            assert not [e for e in game.events if isinstance(e, ev.RenegeFound)]


def test_the_actions_drive_a_fresh_game_to_the_same_events():
    game, actions = autoplay(random.Random(5), "three-player", claim_errors=0.3)
    fresh = Game(DEFAULT_NAMES[3], "three-player")
    for action in actions:
        action.apply(fresh)
    assert fresh.events == game.events
    assert all(isinstance(a.to_dict()["args"], list) for a in actions)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_go_inferred_from_the_plays_pegs_exactly_as_go_buttons_do(variant):
    for seed in range(6):
        inferred, _ = autoplay(random.Random(seed), variant, go_buttons=False)
        said, _ = autoplay(random.Random(seed), variant, go_buttons=True)
        assert [e.pegs for e in inferred.events if e.pegs] == [e.pegs for e in said.events if e.pegs]
        if variant == "five-card":     # there, the end of the one count is declared, not said
            continue
        goes = [sorted((e.player, e.count) for e in g.events if isinstance(e, ev.GoSaid))
                for g in (inferred, said)]
        assert goes[0] == goes[1]
        assert not [e for e in said.events if isinstance(e, ev.GoSaid) and e.inferred]
