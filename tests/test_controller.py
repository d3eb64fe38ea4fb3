"""The controller follows docs/DESIGN.md's round step by step and catches every mistake it lists.

North sits at seat:0, South at seat:1. In most tests North deals, so South leads and counts first.
"""

from __future__ import annotations

from cribbage import events as ev
from cribbage.cards import Card
from device import device_events as dev
from device.config import GameConfig
from device.controller import Controller
from device.journal import Journal
from vision.zone_events import ZoneEvent

from controller_helpers import Table


def play_out(t: Table):
    """A round where nothing odd happens: starter 4H; South (non-dealer) leads."""
    t.put("centre", "4H")
    t.put("seat:1", "5S")   # 5
    t.put("seat:0", "TD")   # 15: fifteen two to North
    t.put("seat:1", "5C")   # 20
    t.put("seat:0", "6H")   # 26
    t.put("seat:1", "3S")   # 29
    t.put("seat:0", "KC")   # North cannot go: South said... North plays K: new count 10 (go to South)
    t.put("seat:1", "7D")   # 17
    t.put("seat:0", "2C")   # 19, last card


def test_cut_for_deal_lowest_deals_and_a_tie_cuts_again(tmp_path):
    t = Table(tmp_path)
    t.put("seat:0", "5C")
    t.put("seat:1", "5D")
    assert "CutTied" in t.types()
    t.put("seat:0", "9C")
    t.put("seat:1", "2H")
    assert t.game.dealer == "South"
    assert t.game.phase == "deal"          # waits for the cut cards to be gathered
    t.clear()
    assert t.game.phase == "starter" and t.types()[-2:] == ["TableCleared", "RoundStarted"]


def test_the_starter_a_jack_is_two_for_his_heels(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "JS")
    assert t.game.score("North") == 2
    assert "Two for his heels to North." in t.said()


def test_a_card_before_the_starter_is_not_a_play(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("seat:1", "5S")
    assert t.game.phase == "starter" and t.notices() == ["not-now"]


def test_the_play_is_counted_aloud_and_pegged(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    play_out(t)
    said = t.said()
    assert "Fifteen two." in said
    assert "One for go, South." in said        # South's 3S at 29: North could not go
    assert "One for last card, North." in said
    assert t.game.phase == "show"
    assert t.game.score("North") == 2 + 1 and t.game.score("South") == 1


def test_thirty_one_for_two(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    for zone, card in (("seat:1", "KS"), ("seat:0", "QD"), ("seat:1", "6S"), ("seat:0", "5D")):
        t.put(zone, card)
    assert "Thirty-one for two." in t.said()
    assert t.game.score("North") == 2


def test_a_card_past_31_is_refused_and_said(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:1", "KS")
    t.put("seat:0", "QD")
    t.put("seat:1", "9S")      # 29
    t.put("seat:1", "5D")      # 34 from South again: only North, who played next, may lead anew
    assert t.notices()[-1] == "over-31"
    assert "thirty-four, past thirty-one" in t.said()[-1]
    assert len(t.game.played("South")) == 2   # not played
    t.take("seat:1", "5D")
    t.put("seat:0", "2D")      # 31
    assert t.game.count == 0 and t.game.score("North") == 2


def test_the_wrong_leader_is_told_whose_lead_it_is(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:0", "5D")      # North is the dealer: South leads
    assert t.notices()[-1] == "wrong-leader"
    assert t.said()[-1].startswith("It's South's lead, not North's.")
    assert t.game.played("North") == ()


def test_a_card_seen_twice_is_reported(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:1", "5S")
    t.duplicate("seat:1", "5S", "seat:0")
    assert t.notices()[-1] == "duplicate"
    t.put("seat:0", "4H")      # the starter again: a second deck or a misread
    assert t.notices()[-1] == "duplicate" and t.game.played("North") == ()


def test_an_unreadable_card_is_said_and_never_pegged(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:1", "5S")
    before = t.game.state()
    t.blur("seat:0")
    assert t.said()[-1] == "I can't read the card in front of the dealer — move it into the light."
    assert t.game.state() == before
    t.blur("seat:0")            # said once, not nagged while nothing changes
    assert t.notices().count("unreadable") == 1


def fifteen_then_south_unread(t: Table):
    """South leads 5S, North 10D for fifteen two; then South lays a card the camera cannot read."""
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:1", "5S")
    t.put("seat:0", "TD")
    t.blur("seat:1")


def test_no_go_is_inferred_while_the_player_passed_over_has_a_card_unread(tmp_path):
    t = Table(tmp_path)
    fifteen_then_south_unread(t)
    t.put("seat:0", "6H")       # North again: South's unread card may be South's play, not a go
    assert t.game.played("North") == (Card.parse("TD"),) and t.game.count == 15
    assert "GoSaid" not in t.types() and t.notices()[-1] == "unreadable"
    t.unreadable["seat:1"] = 0  # the unread card is read at last: the 5C
    t.put("seat:1", "5C")
    assert [str(c) for c in t.game.played("South")] == ["5S", "5C"]
    assert [str(c) for c in t.game.played("North")] == ["TD", "6H"]
    assert t.game.count == 26 and "GoSaid" not in t.types()
    assert t.said()[-2:] == ["Twenty.", "Twenty-six."]


def test_no_new_count_is_led_while_a_player_still_in_has_a_card_unread(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:1", "5S")
    t.put("seat:0", "TD")
    t.put("seat:1", "KS")       # 25, North to play
    t.blur("seat:1")            # South lays another card the camera cannot read
    t.put("seat:0", "9H")       # 34 would lead a new count, inferring that South went: held
    assert t.game.played("North") == (Card.parse("TD"),) and t.game.count == 25
    assert "GoSaid" not in t.types() and t.notices()[-1] == "unreadable"
    t.unreadable["seat:1"] = 0  # read at last: South's 5C makes 30, and the 9H then leads afresh
    t.put("seat:1", "5C")
    assert [str(c) for c in t.game.played("South")] == ["5S", "KS", "5C"]
    assert [str(c) for c in t.game.played("North")] == ["TD", "9H"] and t.game.count == 9


def test_a_held_card_comes_before_the_cards_seen_with_the_unread_one(tmp_path):
    t = Table(tmp_path)
    fifteen_then_south_unread(t)
    t.put("seat:0", "6H")       # held: South's card is unread
    # one frame reads South's card (the 5C) and shows South's next one too (the AC): the 6H, laid
    # before the AC, is played between them
    t.unreadable["seat:1"] = 0
    t.cards["seat:1"] += [Card.parse("5C"), Card.parse("AC")]
    t.ctl.on_table([ZoneEvent("left", "seat:1", None, 0.0), ZoneEvent("appeared", "seat:1", Card.parse("5C"), 0.0),
                    ZoneEvent("appeared", "seat:1", Card.parse("AC"), 0.0)], t.state())
    assert [str(c) for c in t.game.played("South")] == ["5S", "5C", "AC"]
    assert [str(c) for c in t.game.played("North")] == ["TD", "6H"]
    assert t.game.count == 27 and "GoSaid" not in t.types()


def test_a_held_card_is_played_as_laid_once_the_unread_card_is_taken_away(tmp_path):
    t = Table(tmp_path)
    fifteen_then_south_unread(t)
    t.put("seat:0", "6H")
    t.unreadable["seat:1"] = 0  # South picks the unread card up again: South said go after all
    t.ctl.on_table([ZoneEvent("left", "seat:1", None, 0.0)], t.state())
    assert [str(c) for c in t.game.played("North")] == ["TD", "6H"] and t.game.count == 21
    assert "GoSaid" in t.types()


def test_a_held_card_taken_back_is_never_played(tmp_path):
    t = Table(tmp_path)
    fifteen_then_south_unread(t)
    t.put("seat:0", "6H")
    t.take("seat:0", "6H")
    t.unreadable["seat:1"] = 0
    t.put("seat:1", "5C")
    assert [str(c) for c in t.game.played("North")] == ["TD"] and t.game.count == 20


def test_too_dark_is_said_once(tmp_path):
    t = Table(tmp_path)
    t.ctl.on_dark()
    t.ctl.on_dark()
    assert t.said() == ["It's too dark to see the cards."]


def show_round(t: Table):
    t.deal_to(0)
    play_out(t)
    # South's hand 5S 5C 3S 7D with 4H: fifteens 5+3+7, 5+3+7 -> 4, pair 2, run 3-4-5 x2 = 6 -> 12
    # North's hand TD 6H KC 2C with 4H: fifteens? 6+4+... none of 15? T+4+... no; K... 2
    return t


def test_a_hand_is_shown_from_its_seat_and_a_right_claim_pegged(tmp_path):
    t = show_round(Table(tmp_path))
    assert t.types().count("HandShown") == 1
    actual = t.game.correct_count().total
    t.claim(actual)
    claim = [r for r in t.spy.shown if isinstance(r, ev.ClaimPegged)][-1]
    assert claim.verdict == "right" and claim.player == "South"


def test_an_over_claim_is_caught_at_once(tmp_path):
    t = show_round(Table(tmp_path))
    actual = t.game.correct_count().total
    before = t.game.score("South")
    t.claim(actual + 2)
    assert t.game.score("South") == before + actual
    assert t.said()[-1].startswith(f"{_word(actual + 2).capitalize()} claimed, {_word(actual)} in the hand")


def test_an_under_claim_is_silent_and_muggins_takes_it(tmp_path):
    t = show_round(Table(tmp_path))
    actual = t.game.correct_count().total
    t.claim(actual - 2)
    assert t.said()[-1] == f"South pegs {_word(actual - 2)}."
    north = t.game.score("North")
    t.press("muggins", player=0)
    assert t.game.score("North") == north + 2
    assert t.said()[-1].startswith("Muggins! North takes two")


def test_muggins_off_the_counter_is_told(tmp_path):
    t = show_round(Table(tmp_path, GameConfig(muggins=False)))
    actual = t.game.correct_count().total
    t.claim(actual - 2)
    assert "MissedPointsTold" in t.types()
    assert t.game.score("South") >= actual


def test_dispute_reads_out_the_cards_and_the_breakdown(tmp_path):
    t = show_round(Table(tmp_path))
    t.press("dispute")
    readout = t.spy.shown[-1]
    assert isinstance(readout, dev.DisputeReadout)
    assert set(readout.cards) == {"5S", "5C", "3S", "7D"} and readout.starter == "4H"
    assert readout.total == t.game.correct_count().total
    assert "five of spades" in readout.text and readout.items


def test_the_show_goes_in_order_and_the_crib_is_shown_beside_the_dealers_hand(tmp_path):
    t = show_round(Table(tmp_path))
    t.claim(t.game.correct_count().total)
    assert t.game.show_turn == ("North", False) and t.types()[-1] == "HandShown"
    t.claim(t.game.correct_count().total)
    assert t.game.show_turn == ("North", True)
    t.put("seat:0", "AS", "AD", "8C")
    assert t.game.show_turn == ("North", True) and t.types()[-1] != "HandShown"  # three cards: not yet
    t.put("seat:0", "QH")
    assert t.types()[-1] == "HandShown"
    t.claim(t.game.correct_count().total)
    assert t.game.phase == "deal"
    t.clear()
    assert t.game.round_no == 2 and t.game.dealer == "South"


def test_a_claim_undone_past_an_undone_crib_leaves_the_hand_shown_once(tmp_path):
    t = show_round(Table(tmp_path))
    t.claim(t.game.correct_count().total)      # South's hand
    t.claim(t.game.correct_count().total)      # North's hand
    t.put("seat:0", "AS", "AD", "8C", "QH")    # the crib shown beside it, then taken up again
    t.take("seat:0", "AS", "AD", "8C", "QH")
    t.press("undo")                            # the crib's show
    t.press("undo")                            # North's claim: his hand, still shown, is due again
    assert t.game.show_turn == ("North", False)
    assert t.types()[-2:] == ["Undone", "Undone"]   # the withdrawn crib is not taken for his hand
    t.claim(t.game.correct_count().total)
    assert t.game.show_turn == ("North", True)
    assert t.types().count("HandShown") == 3        # South's, North's, the crib's (withdrawn)


def test_a_shown_hand_that_is_not_the_cards_played(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    play_out(t)
    t.claim(t.game.correct_count().total)      # South's hand
    # North's seat now shows a card North never played in place of one he did
    t.take("seat:0", "2C")
    t.put("seat:0", "9H")
    assert "hand-differs" in t.notices()
    assert t.said()[-1].startswith("North's hand is not the cards North played")


def misread_in_the_play(t: Table):
    """North's second card, the 3C, read as the AS when played; North turns his cards face down after
    the 31 and up again at the show, read rightly now: his hand lies whole, but is not the cards he
    played. South's hand is counted first (by the device itself in auto mode)."""
    t.deal_to(0)
    for zone, card in (("centre", "4H"), ("seat:1", "5S"), ("seat:0", "TD"), ("seat:1", "5C"),
                       ("seat:0", "AS"),     # 21, the 3C misread
                       ("seat:1", "KS"), ("seat:0", "KC")):   # 31 for two; the king leads a new count
        t.put(zone, card)
    t.take("seat:0", "TD", "AS")              # turned face down after the 31
    t.put("seat:1", "7D")
    t.put("seat:0", "2C")                     # the last card: the show
    assert t.game.phase == "show" and t.game.played("North") == tuple(map(Card.parse, ("TD", "AS", "KC", "2C")))
    t.put("seat:0", "TD", "3C")               # turned up again for the show
    if t.rules.mode != "auto":
        t.claim(t.game.correct_count().total)  # South's hand
    assert t.game.show_turn == ("North", False) and t.notices()[-1] == "hand-differs"
    return t


def test_a_hand_misread_in_the_play_is_asked_about_then_counted_as_it_lies(tmp_path):
    t = misread_in_the_play(Table(tmp_path))
    scores, claims = t.game.scores, t.types().count("ClaimPegged")
    t.claim(4)
    assert t.notices()[-1] == "hand-differs" and t.types().count("ClaimPegged") == claims
    assert t.said()[-1] == ("North's hand is not the cards North played: North shows the three of clubs, "
                            "but played the ace of spades. If I misread a card in the play, press again "
                            "to count the hand as it lies.")
    t.claim(4)                                   # pressed again, the same cards seen: as they lie
    assert t.types()[-3:] == ["PlayCorrected", "HandShown", "ClaimPegged"]
    assert "I took the three of clubs for the ace of spades in the play." in t.said()
    assert t.game.played("North")[1] == Card.parse("3C") and t.game.show_turn == ("North", True)
    assert t.game.score("South") == scores[1]                    # the play's pegs stand
    assert t.game.score("North") == scores[0] + t.spy.shown[-1].points
    assert "PenaltyPegged" not in t.types()


def test_a_hand_misread_in_the_play_re_laid_before_the_second_press_is_asked_about_again(tmp_path):
    t = misread_in_the_play(Table(tmp_path))
    t.claim(4)
    t.take("seat:0", "3C")
    t.put("seat:0", "3D")                        # another card now: asked about again, not counted
    t.claim(4)
    assert t.notices()[-1] == "hand-differs" and "PlayCorrected" not in t.types()
    assert "shows the three of diamonds" in t.said()[-1] and t.said()[-1].endswith("as it lies.")
    t.claim(4)
    corrected = [r for r in t.spy.shown if isinstance(r, ev.PlayCorrected)]
    assert [(c.misread, c.cards) for c in corrected] == [((Card.parse("AS"),), (Card.parse("3D"),))]


def test_a_hand_misread_in_the_play_is_put_right_in_auto_mode_when_pressed_twice(tmp_path):
    t = misread_in_the_play(Table(tmp_path, GameConfig(mode="auto")))
    t.press("claim")
    assert t.notices()[-1] == "hand-differs" and t.said()[-1].endswith("count the hand as it lies.")
    t.press("claim")
    assert t.types()[-3:] == ["PlayCorrected", "HandShown", "ClaimPegged"]
    assert t.spy.shown[-1].verdict == "right" and t.game.show_turn == ("North", True)
    t.press("claim")                             # nothing differs now: the device counts itself
    assert t.said()[-1] == "I count the hands myself in auto mode."


def test_undo_after_a_hand_put_right_withdraws_the_claim_then_the_correction(tmp_path):
    t = misread_in_the_play(Table(tmp_path))
    t.claim(4)
    t.claim(4)
    t.press("undo")                              # North's claim
    t.take("seat:0", "TD", "3C", "KC", "2C")     # taken up, or his hand is shown again at once
    t.press("undo")                              # the show
    t.press("undo")                              # the correction: the AS is the card played again
    assert t.types()[-3:] == ["Undone"] * 3
    assert t.game.played("North")[1] == Card.parse("AS") and t.game.show_turn == ("North", False)


def crib_of_three(tmp_path):
    """The hands counted and the crib turned up with one of its four cards unseen."""
    t = show_round(Table(tmp_path))
    t.claim(t.game.correct_count().total)
    t.claim(t.game.correct_count().total)
    t.put("seat:0", "AS", "AD", "8C")
    return t


def test_a_crib_claimed_short_is_asked_about_before_it_is_counted(tmp_path):
    # A card may lie unseen (covered, or missed by the camera): no count and no penalty on a guess.
    t = crib_of_three(tmp_path)
    claims = t.types().count("ClaimPegged")
    t.claim(2)
    assert t.notices()[-1] == "too-few"
    assert t.said()[-1] == ("I see only three cards in North's crib; it should have four. "
                            "Lay them apart so I can see each one, or press again to count it as it lies.")
    assert t.types().count("ClaimPegged") == claims and "PenaltyPegged" not in t.types()
    t.put("seat:0", "QH")                        # laid apart: the fourth card is seen, and shown
    assert t.types()[-1] == "HandShown"
    t.claim(t.game.correct_count().total)
    assert "PenaltyPegged" not in t.types() and t.types()[-1] == "ClaimPegged"


def test_a_crib_claimed_short_twice_alike_is_counted_as_it_lies(tmp_path):
    t = crib_of_three(tmp_path)
    t.claim(2)
    assert "PenaltyPegged" not in t.types() and t.notices()[-1] == "too-few"
    t.claim(2)                                   # pressed again, the same three cards: as it lies
    penalty = [r for r in t.spy.shown if isinstance(r, ev.PenaltyPegged)]
    assert len(penalty) == 1 and penalty[0].kind == "wrong-cards"
    assert t.types()[-1] == "ClaimPegged"


def test_a_hand_with_too_many_cards(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    play_out(t)
    t.put("seat:1", "9H")
    assert t.notices()[-1] == "wrong-cards"
    assert t.said()[-1] == "South's hand has five cards; it should have four."


def test_a_go_said_holding_a_card_that_fitted_is_found_at_the_show(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:1", "KS")     # 10
    t.put("seat:0", "QD")     # 20
    t.press("go", player=1)   # South says go ... holding the 3S (fits)
    t.put("seat:0", "AD")     # 21
    t.put("seat:0", "9C")     # 30, then North must go: South's
    t.put("seat:1", "3S")     # South leads after: new count 3
    t.put("seat:0", "2C")
    t.put("seat:1", "5C")
    t.put("seat:1", "6C")
    assert t.game.phase == "show"
    t.claim(t.game.correct_count().total)     # judged at the claim
    assert "RenegeFound" in t.types()
    assert "South said go at twenty holding the three of spades" in " ".join(t.said())


def test_undo_withdraws_the_last_action(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:1", "5S")
    t.put("seat:0", "TD")
    assert t.game.score("North") == 2
    t.press("undo")
    assert t.game.score("North") == 0 and t.game.played("North") == ()


def test_the_game_ends_mid_show_the_moment_a_peg_reaches_121(tmp_path):
    t = Table(tmp_path, scores=(100, 112))
    t.deal_to(0)
    play_out(t)
    # South's hand (counted first) takes South past 121: the game ends before the dealer's count
    game = t.game
    assert game.score("South") + game.correct_count().total >= 121 > game.score("North") + 10
    t.claim(game.correct_count().total)
    assert game.is_over and game.winner == "South"
    assert t.types()[-1] == "GameWon"
    t.put("seat:0", "QH")       # nothing happens after the end
    assert t.types()[-1] == "GameWon"


def test_auto_mode_counts_and_pegs_everything(tmp_path):
    t = Table(tmp_path, GameConfig(mode="auto"))
    t.deal_to(0)
    play_out(t)
    claims = [r for r in t.spy.shown if isinstance(r, ev.ClaimPegged)]
    assert [c.verdict for c in claims] == ["right", "right"]      # both hands, no button pressed
    t.put("seat:0", "AS", "AD", "8C", "QH")
    assert [r.verdict for r in t.spy.shown if isinstance(r, ev.ClaimPegged)] == ["right"] * 3


def test_every_event_is_journaled_before_it_is_shown(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    play_out(t)
    assert t.spy.journal_len_when_shown
    assert all(seq <= held for seq, held in t.spy.journal_len_when_shown)


def test_a_restart_rebuilds_the_game_from_the_journal(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    play_out(t)
    t.claim(t.game.correct_count().total - 1)
    state = t.game.state()
    t.journal.close()
    journal = Journal.open(t.path, GameConfig().to_dict())
    again = Controller(GameConfig(), journal, None, zones=t.zones)
    assert again.game.state() == state
    assert again.last_notice == t.ctl.last_notice
    again.adopt(t.state())
    again.on_panel(type("P", (), {"kind": "muggins", "player": 0, "value": None})())
    assert again.game.score("North") == state["pegs"][0].front + 1


def _word(n: int) -> str:
    from cribbage.words import number_word

    return number_word(n)


def test_next_game_the_loser_deals_once_the_table_is_gathered(tmp_path):
    t = Table(tmp_path, scores=(100, 112))
    t.deal_to(0)
    play_out(t)
    t.press("new_game")
    assert t.notices()[-1] == "not-now"          # not while a game is on
    game = t.game
    t.claim(game.correct_count().total)
    assert game.is_over
    t.press("new_game")
    assert t.game.game_no == 2 and t.game.dealer == "North" and t.game.phase == "deal"
    t.clear()
    assert t.game.phase == "starter" and t.game.round_no == 1


def test_a_misread_crib_card_re_placed_is_read_again_before_the_claim(tmp_path):
    t = show_round(Table(tmp_path))
    t.claim(t.game.correct_count().total)
    t.claim(t.game.correct_count().total)
    t.put("seat:0", "AS", "AD", "8C", "QH")      # QH is a misread of the QS lying there
    t.press("dispute")
    assert "queen of hearts" in t.spy.shown[-1].text
    t.take("seat:0", "QH")
    t.put("seat:0", "QS")
    shown = [r for r in t.spy.shown if isinstance(r, ev.HandShown)]
    assert shown[-1].crib and "QS" in map(str, shown[-1].cards)
    t.claim(t.game.correct_count().total)
    assert [r for r in t.spy.shown if isinstance(r, ev.ClaimPegged)][-1].verdict == "right"


def test_two_cards_read_in_the_same_frame_are_taken_in_turn_order(tmp_path):
    t = Table(tmp_path)
    t.deal_to(0)
    t.put("centre", "4H")
    t.cards["seat:0"].append(Card.parse("TD"))
    t.cards["seat:1"].append(Card.parse("5S"))
    # the tracker reports seat:0 first, but South (seat:1) leads: South's card came first
    t.ctl.on_table([ZoneEvent("appeared", "seat:0", Card.parse("TD"), 0.0),
                    ZoneEvent("appeared", "seat:1", Card.parse("5S"), 0.0)], t.state())
    assert [str(c) for c in t.game.series] == ["5S", "TD"]
    assert t.game.score("North") == 2


def test_five_card_three_for_last_one_count_and_a_claim_ends_the_play(tmp_path):
    t = Table(tmp_path, GameConfig(variant="five-card"))
    t.deal_to(0)                                 # North deals: South, non-dealer, pegs three for last
    assert t.game.score("South") == 3
    t.put("centre", "4H")
    t.put("seat:1", "KS")     # 10
    t.put("seat:0", "QD")     # 20
    t.put("seat:1", "9S")     # 29: neither can go with what they hold; nobody plays on
    t.put("seat:1", "8S")     # South turns up the rest of the hand for the show
    t.put("seat:0", "7C", "6D")
    t.claim(0)                # South's count: the play is over
    kinds = t.types()
    assert "PlayEnded" in kinds and "HandShown" in kinds
    assert [r for r in t.spy.shown if isinstance(r, ev.ClaimPegged)]


def test_the_crib_turned_up_early_beside_the_dealers_hand_is_not_his_hand(tmp_path):
    t = show_round(Table(tmp_path))
    t.put("seat:0", "AS", "AD", "8C", "QH")          # North turns the crib up while South counts
    t.claim(t.game.correct_count().total)            # South's hand; North's is due
    shown = [r for r in t.spy.shown if isinstance(r, ev.HandShown)][-1]
    assert shown.player == "North" and not shown.crib and set(map(str, shown.cards)) == {"TD", "6H", "KC", "2C"}
    assert "wrong-cards" not in t.notices()
    t.claim(t.game.correct_count().total)
    shown = [r for r in t.spy.shown if isinstance(r, ev.HandShown)][-1]
    assert shown.crib and set(map(str, shown.cards)) == {"AS", "AD", "8C", "QH"}
