"""Every action is a triplet: can_x agrees with verify_x, x refuses exactly what verify_x refuses,
a refused action changes nothing, and an accepted one is rebuilt by replay. Checked with random
actions, mostly illegal ones, at random moments of real games."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage import FULL_DECK, CribbageError
from cribbage.autoplay import DEFAULT_NAMES, autoplay
from cribbage.game import Game
from cribbage.variants import VARIANTS

ACTIONS = ("cut_for_deal", "set_dealer", "start_round", "turn_starter", "play", "say_go",
           "end_play", "show", "correct_play", "claim", "muggins", "new_game", "undo")


def random_args(name, rng, players, game):
    player = rng.choice(players)
    card = str(rng.choice(FULL_DECK))
    played = [str(c) for c in game.played(player)] or [card]   # a card misread must have been played
    return {
        "cut_for_deal": (player, card), "set_dealer": (player,), "start_round": (),
        "turn_starter": (card,), "play": (player, card), "say_go": (player,), "end_play": (),
        "show": (player, [str(c) for c in rng.sample(FULL_DECK, rng.choice((3, 4, 5)))]),
        "correct_play": (player, [rng.choice(played)], [card]),
        "claim": (rng.randrange(0, 30),), "muggins": (player,), "new_game": (), "undo": (),
    }[name]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(sorted(VARIANTS)), data=st.data())
def test_can_agrees_with_verify_and_a_refused_action_changes_nothing(seed, variant, data):
    _, actions = autoplay(random.Random(seed), variant, claim_errors=0.3)
    players = DEFAULT_NAMES[VARIANTS[variant].players]
    game = Game(players, variant)
    for action in actions[:data.draw(st.integers(0, len(actions)))]:
        action.apply(game)
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    for _ in range(5):
        name = rng.choice(ACTIONS)
        args = random_args(name, rng, players, game)
        before, journal = game.state(), game.events
        can = getattr(game, "can_" + name)(*args)
        try:
            getattr(game, "verify_" + name)(*args)
            verified = True
        except CribbageError:
            verified = False
        assert can == verified, (name, args)
        if not verified:
            with pytest.raises(CribbageError):
                getattr(game, name)(*args)
            assert game.state() == before and game.events == journal
        else:
            events = getattr(game, name)(*args)
            assert events and game.events == journal + events
            assert Game.from_events(game.events).state() == game.state()
