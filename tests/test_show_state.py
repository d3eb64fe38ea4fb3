"""The show: strict order, the cards seen, claims right, over and under, Muggins, Hoyle's penalties.

One round, Ann dealing, starter KH. Bob holds 5C 5D TC 4S (with KH: four fifteens and a pair, 10);
Ann holds 6H 9H 8D 7C (two fifteens and a run of four, 8). The play leaves Bob 6 and Ann 1.
"""

import pytest

from cribbage import Card, DuplicateCardError, HandDiffersError, IllegalActionError
from cribbage import events as ev
from cribbage.show_score import score_show
from test_game_flow import at_play, kinds, play_all

BOB = ["5C", "5D", "TC", "4S"]
ANN = ["6H", "9H", "8D", "7C"]
CRIB = ["AS", "2S", "3D", "QD"]


def at_show(**options):
    g = at_play(**options)
    play_all(g, [("Bob", "5C"), ("Ann", "6H"), ("Bob", "4S"), ("Ann", "9H"), ("Bob", "5D"),
                 ("Ann", "8D"), ("Bob", "TC"), ("Ann", "7C")])
    assert g.phase == "show" and g.scores == (1, 6)
    return g


def test_the_show_goes_non_dealer_then_dealer_then_crib():
    g = at_show()
    assert g.show_turn == ("Bob", False)
    with pytest.raises(IllegalActionError, match="the show goes Bob's hand, Ann's hand, then the crib"):
        g.verify_show("Ann", ANN)
    g.show("Bob", BOB)
    g.claim(10)
    assert g.show_turn == ("Ann", False)
    g.show("Ann", ANN)
    g.claim(8)
    assert g.show_turn == ("Ann", True)
    g.show("Ann", CRIB)
    g.claim(g.correct_count().total)
    assert g.phase == "deal" and g.show_turn is None


def test_a_right_claim_is_pegged_with_its_breakdown():
    g = at_show()
    g.show("Bob", BOB)
    (claim,) = g.claim(10)
    assert (claim.verdict, claim.points, claim.actual) == ("right", 10, 10)
    assert sum(item.points for item in claim.breakdown) == 10
    assert claim.announcement.endswith("is ten")
    assert g.pegs("Bob").front == 16 and g.pegs("Bob").back == 6


def test_auto_mode_gets_the_correct_count_for_the_item_due():
    g = at_show()
    g.show("Bob", BOB)
    assert g.correct_count().total == score_show(g.played("Bob"), g.starter).total == 10
    g.claim(10)
    g.show("Ann", ANN)
    assert g.correct_count().total == 8


def test_a_count_must_be_shown_before_it_is_claimed():
    g = at_show()
    with pytest.raises(IllegalActionError, match="Bob's hand must be shown"):
        g.verify_claim(10)


def test_a_shown_hand_that_differs_from_the_cards_played_is_named():
    g = at_show()
    with pytest.raises(IllegalActionError, match="4S played but not shown; 3S shown but never played"):
        g.verify_show("Bob", ["5C", "5D", "TC", "3S"])


def test_a_hand_that_differs_carries_the_cards_as_fields():
    g = at_show()
    with pytest.raises(HandDiffersError) as info:
        g.verify_show("Bob", ["5C", "5D", "TC", "3S"])
    assert info.value.player == "Bob"
    assert info.value.missing == (Card.parse("4S"),) and info.value.extra == (Card.parse("3S"),)


def test_a_misread_hand_can_be_shown_again_before_the_claim():
    g = at_show()
    g.show("Bob", BOB)
    g.show("Bob", list(reversed(BOB)))
    assert g.claim(10)[0].verdict == "right"


def test_a_crib_card_that_was_played_is_refused():
    g = at_show()
    g.show("Bob", BOB)
    g.claim(10)
    g.show("Ann", ANN)
    g.claim(8)
    with pytest.raises(DuplicateCardError, match="5C was played"):
        g.verify_show("Ann", ["5C", "2S", "3D", "QD"])
    with pytest.raises(DuplicateCardError, match="KH is the starter"):
        g.verify_show("Ann", ["KH", "2S", "3D", "QD"])


def test_an_over_claim_is_corrected_and_the_actual_count_pegged():
    g = at_show()
    g.show("Bob", BOB)
    events = g.claim(12)
    assert kinds(events) == ["ClaimPegged"]
    assert (events[0].verdict, events[0].claimed, events[0].actual, events[0].points) == \
        ("over", 12, 10, 10)
    assert g.score("Bob") == 16


def test_an_over_claim_with_the_penalty_gives_the_excess_to_the_opponent():
    g = at_show(overclaim_penalty=True)
    g.show("Bob", BOB)
    events = g.claim(13)
    assert kinds(events) == ["ClaimPegged", "PenaltyPegged"]
    assert events[1].pegs == ("Ann", 3) and events[1].kind == "over-claim"
    assert g.scores == (4, 16)


def test_an_under_claim_with_muggins_is_pegged_silently_and_the_opponent_may_take_the_rest():
    g = at_show(muggins=True)
    g.show("Bob", BOB)
    events = g.claim(8)
    assert kinds(events) == ["ClaimPegged"] and events[0].points == 8
    assert g.score("Bob") == 14
    assert not g.can_muggins("Bob")
    taken = g.muggins("Ann")
    assert taken == (ev.MugginsTaken("Ann", 2, "Bob", step=taken[0].step),)
    assert g.scores == (3, 14) and not g.can_muggins("Ann")


def test_muggins_must_be_called_before_the_next_count_is_claimed():
    g = at_show(muggins=True)
    g.show("Bob", BOB)
    g.claim(8)
    g.show("Ann", ANN)
    assert g.can_muggins("Ann")          # showing is not claiming
    g.claim(8)
    with pytest.raises(IllegalActionError, match="no overlooked points"):
        g.verify_muggins("Ann")


def test_an_under_claim_without_muggins_is_told_and_pegged_to_the_counter():
    g = at_show(muggins=False)
    g.show("Bob", BOB)
    events = g.claim(6)
    assert kinds(events) == ["ClaimPegged", "MissedPointsTold"]
    assert events[1].pegs == ("Bob", 4) and g.score("Bob") == 16
    with pytest.raises(IllegalActionError, match="muggins is not being played"):
        g.verify_muggins("Ann")


def test_game_ends_mid_show_before_the_dealer_counts():
    g = at_show(target=15)
    g.show("Bob", BOB)
    events = g.claim(10)
    assert isinstance(events[-1], ev.GameWon) and g.winner == "Bob"
    with pytest.raises(IllegalActionError, match="the game is over"):
        g.verify_show("Ann", ANN)
    assert g.score("Ann") == 1          # Ann's 8 and her crib never counted


def test_a_crib_with_the_wrong_number_of_cards_gives_the_non_dealer_two():
    g = at_show()
    g.show("Bob", BOB)
    g.claim(10)
    g.show("Ann", ANN)
    g.claim(8)
    g.show("Ann", ["AS", "2S", "3D"])
    events = g.claim(g.correct_count().total)
    assert kinds(events) == ["PenaltyPegged", "ClaimPegged"]
    assert events[0].pegs == ("Bob", 2) and events[0].kind == "wrong-cards"


def test_a_misread_crib_shown_again_before_the_claim_is_not_penalised():
    g = at_show()
    for hand in ("Bob", BOB), ("Ann", ANN):
        g.show(*hand)
        g.claim(g.correct_count().total)
    g.show("Ann", ["AS", "2S", "3D"])          # a card not read
    g.show("Ann", CRIB)
    assert kinds(g.claim(g.correct_count().total)) == ["ClaimPegged"]


def test_a_hand_with_the_wrong_number_of_cards_gives_the_opponent_two():
    g = at_play(variant="five-card")           # hands of three; Bob starts with three for last
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])
    g.end_play()
    g.show("Bob", ["TC", "9C", "KS", "QS"])      # four cards in a hand of three
    events = g.claim(0)
    assert kinds(events)[0] == "PenaltyPegged"
    assert events[0].pegs == ("Ann", 2) and "4 cards, not 3" in events[0].reason


def test_a_go_said_while_holding_a_card_that_fitted_is_found_at_the_show():
    g = at_play()
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "5C"), ("Bob", "2C")])   # Ann went at 25
    play_all(g, [("Ann", "4D"), ("Bob", "KC"), ("Ann", "KD"), ("Ann", "3D")])
    g.show("Bob", ["TC", "5C", "2C", "KC"])
    g.claim(g.correct_count().total)
    g.show("Ann", ["TD", "4D", "KD", "3D"])
    events = g.claim(g.correct_count().total)
    renege = [e for e in events if isinstance(e, ev.RenegeFound)]
    assert len(renege) == 1 and renege[0].count == 25 and set(map(str, renege[0].cards)) == {"4D", "3D"}
    assert "PenaltyPegged" not in kinds(events)      # announce only, by default


def test_the_acc_renege_rule_pegs_two_a_card_to_the_opponent():
    g = at_play(renege="two-per-card")
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "5C"), ("Bob", "2C")])
    play_all(g, [("Ann", "4D"), ("Bob", "KC"), ("Ann", "KD"), ("Ann", "3D")])
    g.show("Bob", ["TC", "5C", "2C", "KC"])
    g.claim(g.correct_count().total)
    before = g.score("Bob")
    g.show("Ann", ["TD", "4D", "KD", "3D"])
    events = g.claim(g.correct_count().total)
    assert kinds(events) == ["RenegeFound", "PenaltyPegged", "ClaimPegged"]
    assert events[1].pegs == ("Bob", 4) and g.score("Bob") == before + 4


def test_three_player_crib_takes_one_card_from_the_pack():
    g = at_play(("Ann", "Bob", "Cy"), "three-player", dealer="Cy")
    hands = {"Ann": ["AC", "2C", "3C", "4C"], "Bob": ["AD", "2D", "3D", "4D"],
             "Cy": ["AH", "2H", "3H", "4H"]}
    for i in range(4):
        for p in ("Ann", "Bob", "Cy"):
            g.play(p, hands[p][i])
    for p in ("Ann", "Bob", "Cy"):
        g.show(p, hands[p])
        g.claim(g.correct_count().total)
    assert g.show_turn == ("Cy", True)
    g.show("Cy", ["5S", "6S", "7S", "8S"])   # one from each player and one from the pack
    assert kinds(g.claim(0)) == ["ClaimPegged"]      # four cards: no penalty


def test_the_show_order_with_three_players_starts_at_the_dealers_left():
    g = at_play(("Ann", "Bob", "Cy"), "three-player", dealer="Bob")
    hands = {"Cy": ["AC", "2C", "3C", "4C"], "Ann": ["AD", "2D", "3D", "4D"],
             "Bob": ["AH", "2H", "3H", "4H"]}
    for i in range(4):
        for p in ("Cy", "Ann", "Bob"):
            g.play(p, hands[p][i])
    order = []
    while g.show_turn:
        player, crib = g.show_turn
        order.append((player, crib))
        g.show(player, hands[player] if not crib else ["5S", "6S", "7S", "8S"])
        g.claim(g.correct_count().total)
    assert order == [("Cy", False), ("Ann", False), ("Bob", False), ("Bob", True)]


def test_five_card_an_unplayed_card_that_fitted_is_a_renege_but_the_last_player_may_stop():
    g = at_play(variant="five-card")
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])   # 29
    g.end_play()
    g.show("Bob", ["TC", "9C", "2C"])      # Bob played last: at liberty to keep his 2C
    assert not [e for e in g.claim(0) if isinstance(e, ev.RenegeFound)]
    g.show("Ann", ["TD", "2H", "KS"])      # Ann went at 29 holding the 2H, which made 31
    events = g.claim(0)
    renege = [e for e in events if isinstance(e, ev.RenegeFound)]
    assert renege == [ev.RenegeFound("Ann", 29, (renege[0].cards[0],), step=events[0].step)]
    assert str(renege[0].cards[0]) == "2H"


def test_a_partner_cannot_call_muggins_on_their_own_side():
    g = at_play(("North", "East", "South", "West"), "four-player", dealer="West")
    hands = {"North": ["AC", "2C", "3C", "4C"], "East": ["AD", "2D", "3D", "4D"],
             "South": ["AH", "2H", "3H", "4H"], "West": ["AS", "2S", "3S", "4S"]}
    order = ["North", "East", "South", "West"]
    for i in range(4):
        for p in order:
            g.play(p, hands[p][i])
    assert g.show_turn == ("North", False)
    g.show("North", hands["North"])
    g.claim(g.correct_count().total - 2)
    assert not g.can_muggins("South") and g.can_muggins("East") and g.can_muggins("West")
    g.muggins("West")
    assert g.pegs("East") == g.pegs("West")
