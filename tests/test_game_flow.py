"""A game from the cut to the end: dealing turns, his heels, the end at the target, the next game.

Rules: Hoyle (BSD games manual) — lowest cut deals, ties cut again, the deal alternates, a jack
turned is two for his heels, the game ends the moment a peg reaches the target, lurch under half way.
"""

import pytest

from cribbage import DuplicateCardError, IllegalActionError
from cribbage import events as ev
from cribbage.game import Game, Pegs
from cribbage.variants import Options


def at_play(players=("Ann", "Bob"), variant="six-card", dealer=None, starter="KH", **options):
    """A game in the play of its first round; the dealer defaults to the first player."""
    game = Game(players, variant, Options(**options))
    game.set_dealer(dealer or players[0])
    game.start_round()
    game.turn_starter(starter)
    return game


def play_all(game, plays):
    out = []
    for player, card in plays:
        out += game.play(player, card)
    return out


def kinds(events):
    return [type(e).__name__ for e in events]


def test_lowest_cut_deals():
    g = Game(["Ann", "Bob"])
    g.cut_for_deal("Ann", "9H")
    events = g.cut_for_deal("Bob", "AS")
    assert events[-1] == ev.DealerChosen("Bob", "lowest cut", step=3)
    assert g.dealer == "Bob" and g.phase == "deal"


def test_tied_cut_is_cut_again_by_the_tied_players_only():
    g = Game(["Ann", "Bob", "Cy"], "three-player")
    g.cut_for_deal("Ann", "4H")
    g.cut_for_deal("Bob", "4S")
    events = g.cut_for_deal("Cy", "KD")
    assert kinds(events) == ["CardCutForDeal", "CutTied"] and events[-1].players == ("Ann", "Bob")
    assert not g.can_cut_for_deal("Cy", "2C")
    g.cut_for_deal("Bob", "3C")
    g.cut_for_deal("Ann", "8C")
    assert g.dealer == "Bob"


def test_a_card_cut_twice_is_named():
    g = Game(["Ann", "Bob"])
    g.cut_for_deal("Ann", "9H")
    with pytest.raises(DuplicateCardError, match="9H"):
        g.verify_cut_for_deal("Bob", "9h")


def test_the_deal_alternates_and_rotates_to_the_left():
    g = Game(["Ann", "Bob", "Cy"], "three-player", Options(target=1000))
    g.set_dealer("Bob")
    dealers = []
    for _ in range(4):
        coming = g.next_dealer
        dealers.append(g.start_round()[0].dealer)
        assert coming == dealers[-1] and g.next_dealer is None
        # finish the round quickly: starter, every card, every count
        g.turn_starter("KS")
        seats = ["Ann", "Bob", "Cy"]
        first = seats[(seats.index(g.dealer) + 1) % 3]
        order = [seats[(seats.index(first) + i) % 3] for i in range(3)]
        cards = iter(["AC", "AD", "AH", "2C", "2D", "2H", "3C", "3D", "3H", "4C", "4D", "4H"])
        for _ in range(4):
            for p in order:
                g.play(p, next(cards))
        for p in order:
            g.show(p, g.played(p))
            g.claim(g.correct_count().total)
        g.show(g.dealer, ["5S", "6S", "7S", "8S"])
        g.claim(g.correct_count().total)
        if g.is_over:
            break
    assert dealers == ["Bob", "Cy", "Ann", "Bob"]


def test_start_round_needs_a_dealer():
    g = Game(["Ann", "Bob"])
    with pytest.raises(IllegalActionError, match="cut for the deal first"):
        g.verify_start_round()


def test_a_jack_turned_is_two_for_his_heels_to_the_dealer():
    g = Game(["Ann", "Bob"])
    g.set_dealer("Bob")
    g.start_round()
    events = g.turn_starter("JD")
    assert kinds(events) == ["StarterTurned", "HisHeels"]
    assert events[1].pegs == ("Bob", 2)
    assert g.pegs("Bob") == Pegs(2, 0) and g.score("Ann") == 0


def test_the_game_can_end_on_his_heels():
    g = Game(["Ann", "Bob"], options=Options(target=2))
    g.set_dealer("Bob")
    g.start_round()
    events = g.turn_starter("JD")
    assert kinds(events) == ["StarterTurned", "HisHeels", "GameWon"]
    assert g.winner == "Bob" and g.phase == "over" and g.turn is None


def test_after_the_game_every_action_is_refused():
    g = at_play(target=5)
    play_all(g, [("Bob", "7C"), ("Ann", "8C"), ("Bob", "8D"), ("Ann", "8H")])
    assert g.is_over
    for attempt in (lambda: g.verify_play("Bob", "2S"), g.verify_start_round,
                    lambda: g.verify_claim(2), lambda: g.verify_say_go("Bob")):
        with pytest.raises(IllegalActionError, match="the game is over"):
            attempt()


def test_game_ends_mid_play_and_the_rest_of_the_play_is_not_pegged():
    g = at_play(target=6)
    events = play_all(g, [("Bob", "7C"), ("Ann", "8C")])   # fifteen two: Ann 2
    events += g.play("Bob", "8D")                           # a pair: Bob 2
    events += g.play("Ann", "8H")                           # 31 for two and a pair royal: Ann 10
    assert isinstance(events[-1], ev.GameWon)
    assert events[-1].winner == "Ann" and events[-1].scores == (6, 2)   # her peg stops in the game hole
    assert g.phase == "over" and not g.can_play("Bob", "2S")


def test_the_loser_short_of_half_way_is_lurched_and_it_counts_double():
    g = at_play(target=10)
    play_all(g, [("Bob", "7C"), ("Ann", "8C"), ("Bob", "8D")])
    won = g.play("Ann", "8H")[-1]
    assert (won.margin, won.game_points) == ("lurch", 2)      # Bob 2, under 5


def test_a_loser_past_half_way_loses_a_single_game():
    g = at_play(target=10)
    play_all(g, [("Bob", "5C"), ("Ann", "5D"), ("Bob", "5H")])   # Ann 2; Bob 15 and pair royal, 8
    won = g.play("Ann", "5S")[-1]                                 # double pair royal: Ann 14
    assert g.scores == (10, 8) and (won.margin, won.game_points) == ("single", 1)


def test_modern_skunk_lines_when_chosen():
    g = at_play(target=10, ending="skunk")
    play_all(g, [("Bob", "7C"), ("Ann", "8C"), ("Bob", "8D")])
    won = g.play("Ann", "8H")[-1]
    assert (won.margin, won.game_points) == ("double skunk", 3)   # Bob 2: under half of 10


def test_the_loser_of_the_last_game_deals_the_next():
    g = at_play(target=6)
    play_all(g, [("Bob", "7C"), ("Ann", "8C"), ("Bob", "8D"), ("Ann", "8H")])
    assert g.winner == "Ann" and g.dealer == "Ann"
    events = g.new_game()
    assert kinds(events) == ["GameStarted", "DealerChosen"]
    assert events[1] == ev.DealerChosen("Bob", "loser of the last game", step=events[1].step)
    assert g.scores == (0, 0) and g.game_no == 2 and g.phase == "deal"
    assert g.start_round()[0].dealer == "Bob"


def test_a_new_game_waits_for_the_end_of_this_one():
    g = at_play()
    with pytest.raises(IllegalActionError, match="not over"):
        g.verify_new_game()


def test_a_variant_must_be_the_registered_one_so_journals_replay():
    from dataclasses import replace
    from cribbage.errors import CribbageError
    from cribbage.variants import SIX_CARD
    with pytest.raises(CribbageError, match="registered"):
        Game(["Ann", "Bob"], replace(SIX_CARD, target=91))
    with pytest.raises(CribbageError, match="2 players, not 3"):
        Game(["Ann", "Bob", "Cy"], SIX_CARD)


def test_the_winning_peg_stops_in_the_game_hole():
    """However many points the last count holds, the winner's score is the target, not past it."""
    from cribbage.autoplay import autoplay
    import random as _random
    for seed in range(6):
        game, _ = autoplay(_random.Random(seed))
        assert game.is_over
        assert max(game.scores) == game.target
        assert game.result.scores == game.scores
