"""The play, with go read from the order of the plays (docs/DESIGN.md step 4; Hoyle on the play).

Ann deals in the two-player tests, so Bob leads. In the three-player tests Cy deals and Ann leads.
"""

import pytest

from cribbage import DuplicateCardError, IllegalActionError, IllegalPlayError, NotYourLeadError, OverCountError
from cribbage import events as ev
from test_game_flow import at_play, kinds, play_all


def test_go_is_inferred_when_a_player_plays_twice_in_a_row():
    g = at_play()
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])
    events = g.play("Bob", "AC")
    assert kinds(events) == ["GoSaid", "CardPlayed"]
    assert events[0] == ev.GoSaid("Ann", 29, True, step=events[0].step)
    assert g.count == 30 and g.turn == "Bob"


def test_the_goes_a_play_would_imply_are_told_before_it_is_made():
    g = at_play(("Ann", "Bob", "Cy"), "three-player", dealer="Cy")
    g.play("Ann", "TC")
    assert g.goes_implied("Bob", "KC") == () and g.goes_implied("Cy", "KC") == ("Bob",)
    play_all(g, [("Bob", "TD"), ("Cy", "9C")])      # 29, Ann to play
    assert g.goes_implied("Cy", "AC") == ("Ann", "Bob")
    assert g.goes_implied("Ann", "5H") == ("Ann", "Bob", "Cy")   # 34 leads a new count: all still in went
    assert g.count == 29 and g.turn == "Ann"            # asking changes nothing


def test_a_player_who_said_go_cannot_add_so_their_next_card_leads_a_new_count():
    g = at_play()
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C"), ("Bob", "AC")])   # Ann went at 29
    events = g.play("Ann", "AS")        # 31 would fit, but Ann has said go on this count
    assert kinds(events) == ["GoSaid", "GoPegged", "CardPlayed"]
    assert events[1].pegs == ("Bob", 1)
    assert events[2].new_series and events[2].count == 1 and g.series == (events[2].card,)


def test_a_card_over_31_from_the_player_entitled_to_lead_starts_a_new_count():
    g = at_play()
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])   # 29
    events = g.play("Ann", "5H")                                 # 34: both must have gone
    assert kinds(events) == ["GoSaid", "GoSaid", "GoPegged", "CardPlayed"]
    assert [e.player for e in events[:2]] == ["Ann", "Bob"]
    assert events[2] == ev.GoPegged("Bob", 1, 29, step=events[2].step)
    assert g.count == 5 and g.score("Bob") == 1


def test_a_card_over_31_from_a_player_not_entitled_to_lead_is_an_illegal_play():
    g = at_play()
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])   # 29: Ann would lead the next
    with pytest.raises(IllegalPlayError, match="34 is over 31"):
        g.verify_play("Bob", "5C")
    assert not g.can_play("Bob", "5C") and g.can_play("Bob", "2C")


def test_the_wrong_player_leading_after_a_go_is_told_who_should_lead():
    g = at_play()
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])
    g.say_go("Ann")
    events = g.say_go("Bob")
    assert kinds(events) == ["GoSaid", "GoPegged"]           # nobody can add: Bob pegs at once
    assert g.turn == "Ann" and g.count == 0
    with pytest.raises(IllegalActionError, match="it is Ann's lead"):
        g.verify_play("Bob", "2C")


def test_a_player_who_went_leading_out_of_turn_in_three_hand_is_told_who_leads():
    g = at_play(("Ann", "Bob", "Cy"), "three-player", dealer="Cy")
    play_all(g, [("Ann", "TC"), ("Bob", "TD"), ("Cy", "9C")])
    events = g.play("Cy", "AC")                     # Ann and Bob both passed at 29
    assert [e.player for e in events if isinstance(e, ev.GoSaid)] == ["Ann", "Bob"]
    with pytest.raises(IllegalActionError, match="it is Ann's lead after the go"):
        g.verify_play("Bob", "5S")
    events = g.play("Ann", "5S")
    assert kinds(events) == ["GoSaid", "GoPegged", "CardPlayed"] and events[1].pegs == ("Cy", 1)


def test_three_hand_a_skipped_player_said_go_and_the_go_goes_to_the_last_card():
    g = at_play(("Ann", "Bob", "Cy"), "three-player", dealer="Cy")
    g.play("Ann", "TC")
    events = g.play("Cy", "KC")                      # Bob was skipped at 10
    assert kinds(events) == ["GoSaid", "CardPlayed"] and events[0].player == "Bob"
    assert g.turn == "Ann"
    g.play("Ann", "8C")                               # 28; Bob has gone, so Cy is next
    assert g.turn == "Cy"
    events = g.play("Cy", "3S")                       # 31 for two
    assert events[-1].points == 2 and g.count == 0 and g.turn == "Ann"


def test_thirty_one_pegs_two_and_the_next_player_leads():
    g = at_play()
    events = play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "AC")])
    events = g.play("Ann", "KD")
    assert events[-1].count == 31 and "thirty-one" in events[-1].reasons
    assert g.score("Ann") == 2 + 2 and g.count == 0 and g.turn == "Bob"


def test_last_card_pegs_one_but_not_on_thirty_one():
    on_31 = at_play()
    events = play_all(on_31, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "AC"), ("Ann", "KD"),
                              ("Bob", "9C"), ("Ann", "9D"), ("Bob", "6C"), ("Ann", "7D")])
    assert "LastCard" not in kinds(events) and events[-1] == ev.PlayEnded("all cards played",
                                                                          step=events[-1].step)
    short = at_play()
    events = play_all(short, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "AC"), ("Ann", "KD"),
                              ("Bob", "9C"), ("Ann", "9D"), ("Bob", "6C"), ("Ann", "6D")])
    assert kinds(events)[-2:] == ["LastCard", "PlayEnded"] and events[-2].pegs == ("Ann", 1)
    assert short.phase == "show"


def test_a_player_left_alone_plays_on_and_leads_again():
    g = at_play()
    play_all(g, [("Bob", "KC"), ("Ann", "5D"), ("Bob", "QC"), ("Ann", "6D"),   # 31
                 ("Bob", "JC"), ("Ann", "TD"), ("Bob", "9C")])                  # Bob is out at 29
    assert g.turn == "Ann"
    events = g.play("Ann", "7H")          # 36: a new count, which Ann (the only one left) leads
    assert kinds(events) == ["GoSaid", "GoPegged", "CardPlayed", "LastCard", "PlayEnded"]
    assert events[1].pegs == ("Bob", 1) and events[3].pegs == ("Ann", 1)


def test_when_nobody_can_add_the_go_is_pegged_at_once():
    g = at_play()
    play_all(g, [("Bob", "KC"), ("Ann", "5D"), ("Bob", "QC"), ("Ann", "6D"),
                 ("Bob", "JC"), ("Ann", "TD"), ("Bob", "9C")])
    events = g.say_go("Ann")
    assert kinds(events) == ["GoSaid", "GoPegged"] and events[1].pegs == ("Bob", 1)


def test_say_go_only_on_your_turn_and_never_on_a_fresh_count():
    g = at_play()
    with pytest.raises(IllegalActionError, match="fresh count"):
        g.verify_say_go("Bob")
    g.play("Bob", "TC")
    with pytest.raises(IllegalActionError, match="Ann's turn"):
        g.verify_say_go("Bob")


def test_a_card_seen_twice_in_a_round_is_named():
    g = at_play(starter="KH")
    g.play("Bob", "TC")
    with pytest.raises(DuplicateCardError, match="TC was already played by Bob"):
        g.verify_play("Ann", "tc")
    with pytest.raises(DuplicateCardError, match="KH is the starter"):
        g.verify_play("Ann", "KH")


def test_a_player_cannot_play_more_cards_than_a_hand_holds():
    g = at_play()
    play_all(g, [("Bob", "AC"), ("Bob", "2C"), ("Bob", "3C"), ("Bob", "4C")])
    with pytest.raises(IllegalPlayError, match="all 4 cards"):
        g.verify_play("Bob", "5C")


def test_the_non_dealer_leads_the_first_count():
    g = at_play()
    with pytest.raises(IllegalActionError, match="it is Bob's lead"):
        g.verify_play("Ann", "5C")


def test_partners_share_pegs():
    g = at_play(("North", "East", "South", "West"), "four-player", dealer="West")
    play_all(g, [("North", "5C"), ("East", "5D"), ("South", "5H")])
    g.play("West", "5S")
    assert g.sides == (("North", "South"), ("East", "West"))
    assert g.scores == (8, 14)          # East's pair and West's double pair royal together
    assert g.pegs("South") == g.pegs("North") and g.pegs("West").back == 2


def test_five_card_cribbage_plays_one_count_only():
    g = at_play(variant="five-card")
    assert g.score("Bob") == 3                          # three for last
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])   # 29
    with pytest.raises(IllegalPlayError, match="one count"):
        g.verify_play("Ann", "5H")
    events = g.end_play()                               # neither can go
    assert kinds(events) == ["GoSaid", "GoPegged", "PlayEnded"]
    assert events[0].player == "Ann" and events[1].pegs == ("Bob", 1)
    assert g.phase == "show"


def test_five_card_play_ends_at_thirty_one():
    g = at_play(variant="five-card")
    events = play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "AC"), ("Ann", "KD")])
    assert kinds(events)[-2:] == ["CardPlayed", "PlayEnded"] and g.phase == "show"


def test_a_wrong_lead_names_the_leader_as_a_field():
    g = at_play()
    with pytest.raises(NotYourLeadError) as info:
        g.verify_play("Ann", "5C")
    assert info.value.leader == "Bob"
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])
    g.say_go("Ann")
    g.say_go("Bob")
    with pytest.raises(NotYourLeadError) as info:
        g.verify_play("Bob", "2C")
    assert info.value.leader == "Ann"


def test_a_card_past_31_carries_the_count_it_would_make():
    g = at_play()
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Bob", "9C")])   # 29: Ann would lead the next
    with pytest.raises(OverCountError) as info:
        g.verify_play("Bob", "5C")
    assert info.value.count == 34
