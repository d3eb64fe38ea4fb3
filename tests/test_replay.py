"""The state is a function of the events: replayed from its journal (through JSON), a game is the
same game; undo is an event too, and replay honours it."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage import CribbageError
from cribbage import events as ev
from cribbage.autoplay import DEFAULT_NAMES, autoplay
from cribbage.game import Game
from cribbage.variants import VARIANTS, Options

options = st.builds(Options, muggins=st.booleans(), overclaim_penalty=st.booleans(),
                    ending=st.sampled_from(["lurch", "skunk"]),
                    renege=st.sampled_from(["announce", "two-per-card"]))


def through_json(events):
    return [json.loads(json.dumps(e.to_dict())) for e in events]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(sorted(VARIANTS)), opts=options,
       go_buttons=st.booleans())
def test_state_rebuilds_exactly_from_its_events(seed, variant, opts, go_buttons):
    game, _ = autoplay(random.Random(seed), variant, opts, go_buttons=go_buttons, claim_errors=0.3)
    rebuilt = Game.from_events(through_json(game.events))
    assert rebuilt.state() == game.state()
    assert rebuilt.events == game.events


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(sorted(VARIANTS)), data=st.data())
def test_undo_returns_to_the_state_before_the_last_action(seed, variant, data):
    _, actions = autoplay(random.Random(seed), variant, claim_errors=0.3)
    k = data.draw(st.integers(1, len(actions)))
    players = DEFAULT_NAMES[VARIANTS[variant].players]
    before, after = Game(players, variant), Game(players, variant)
    for action in actions[:k - 1]:
        action.apply(before)
    for action in actions[:k]:
        action.apply(after)
    undone = after.undo()
    assert isinstance(undone[0], ev.Undone)
    assert after.state() == before.state()
    assert Game.from_events(through_json(after.events)).state() == before.state()


def test_every_kind_of_event_round_trips_through_json():
    seen = {}
    for seed in range(12):
        for variant in VARIANTS:
            game, _ = autoplay(random.Random(seed), variant,
                               Options(muggins=seed % 2 == 0, overclaim_penalty=True),
                               go_buttons=seed % 3 == 0, claim_errors=0.5)
            for e in game.events:
                seen.setdefault(type(e), e)
    for e in seen.values():
        assert ev.event_from_dict(json.loads(json.dumps(e.to_dict()))) == e
    assert {"GameStarted", "CardPlayed", "GoSaid", "GoPegged", "LastCard", "ClaimPegged",
            "MugginsTaken", "MissedPointsTold", "PenaltyPegged", "GameWon",
            "ThreeForLast"} <= {t.__name__ for t in seen}


def test_undo_twice_withdraws_two_actions_and_replay_agrees():
    g = Game(["Ann", "Bob"])
    g.set_dealer("Ann")
    g.start_round()
    g.turn_starter("JS")
    assert g.score("Ann") == 2
    g.play("Bob", "5C")
    g.undo()
    g.undo()                        # the starter and his heels go too
    assert g.phase == "starter" and g.score("Ann") == 0 and g.starter is None
    g.turn_starter("4S")
    assert Game.from_events(g.events).state() == g.state()
    assert sum(isinstance(e, ev.Undone) for e in g.events) == 2


def test_there_is_nothing_to_undo_in_a_new_game():
    g = Game(["Ann", "Bob"])
    assert not g.can_undo()


def test_a_journal_begins_with_the_game():
    with pytest.raises(CribbageError, match="begin with GameStarted"):
        Game.from_events([ev.RoundStarted("Ann", 1)])


def test_an_unknown_event_is_refused():
    with pytest.raises(CribbageError, match="not a game event"):
        ev.event_from_dict({"type": "Shuffled"})


def test_events_say_who_pegs_what():
    g = Game(["Ann", "Bob"])
    g.set_dealer("Ann")
    g.start_round()
    (_, heels) = g.turn_starter("JS")
    assert heels.pegs == ("Ann", 2)
    assert g.events[0].pegs is None
