"""A card misread in the play, found at the show from the hand as it lies (Game.correct_play).

The round of test_show_state: Ann deals, starter KH; the device recorded Bob playing 5C 4S 5D TC, and
Ann 6H 9H 8D 7C. In most tests Bob's 4S was really the 3S.
"""

import json

import pytest

from cribbage import Card, CribbageError, DuplicateCardError, IllegalActionError, InvalidCardError
from cribbage import events as ev
from cribbage.game import Game
from cribbage.narration import spoken
from device.announcements import announce
from test_game_flow import at_play, kinds, play_all
from test_show_state import at_show

REAL_BOB = ["5C", "5D", "TC", "3S"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def through_json(events):
    return [json.loads(json.dumps(e.to_dict())) for e in events]


def test_a_card_misread_in_the_play_is_put_right_in_its_place_and_the_pegs_stand():
    g = at_show()
    scores = g.scores
    (corrected,) = g.correct_play("Bob", ["4S"], ["3S"])
    assert corrected == ev.PlayCorrected("Bob", cards("4S"), cards("3S"), step=corrected.step)
    assert g.played("Bob") == cards("5C 3S 5D TC")      # where the 4S was: a go's record still holds
    assert g.scores == scores and corrected.pegs is None
    g.show("Bob", REAL_BOB)                             # the hand as it lies is now the cards played
    (claim,) = g.claim(g.correct_count().total)
    assert claim.verdict == "right" and set(g.state()["shown"][0]) == set(cards(" ".join(REAL_BOB)))


def test_the_hand_as_it_lies_is_refused_until_the_play_is_put_right():
    g = at_show()
    assert not g.can_show("Bob", REAL_BOB)
    g.correct_play("Bob", ["4S"], ["3S"])
    assert g.can_show("Bob", REAL_BOB) and not g.can_show("Bob", ["5C", "5D", "TC", "4S"])


def test_a_correction_replays_through_json_and_round_trips():
    g = at_show()
    (corrected,) = g.correct_play("Bob", ["4S", "TC"], ["3S", "JC"])
    assert ev.event_from_dict(json.loads(json.dumps(corrected.to_dict()))) == corrected
    rebuilt = Game.from_events(through_json(g.events))
    assert rebuilt.state() == g.state() and rebuilt.played("Bob") == cards("5C 3S 5D JC")


def test_undo_withdraws_a_correction_and_replay_agrees():
    g = at_show()
    before = g.state()
    g.correct_play("Bob", ["4S"], ["3S"])
    (undone,) = g.undo()
    assert isinstance(undone, ev.Undone)
    assert g.state() == before and g.played("Bob") == cards("5C 4S 5D TC")
    assert Game.from_events(through_json(g.events)).state() == before
    assert g.can_correct_play("Bob", ["4S"], ["3S"])


@pytest.mark.parametrize("misread, real, error, reason", [
    ([], [], IllegalActionError, "name the cards misread"),
    (["4S"], ["3S", "2H"], IllegalActionError, r"1 card\(s\) misread, but 2 given in their place"),
    (["6H"], ["3S"], IllegalActionError, "Bob is not recorded as playing 6H"),
    (["4S"], ["4S"], IllegalActionError, "4S is among the cards misread"),
    (["4S", "5C"], ["3S", "5C"], IllegalActionError, "5C is among the cards misread"),
    (["4S", "5C"], ["3S", "3S"], DuplicateCardError, "3S appears twice"),
    (["4S", "4S"], ["3S", "2S"], DuplicateCardError, "4S appears twice"),
    (["4S"], ["KH"], DuplicateCardError, "KH is the starter"),
    (["4S"], ["6H"], DuplicateCardError, "6H was played by Ann this round"),
    (["4S"], ["TC"], DuplicateCardError, "TC was played already this round"),
    (["4S"], ["1X"], InvalidCardError, "1X"),
])
def test_a_correction_that_cannot_be_right_is_refused_with_the_reason(misread, real, error, reason):
    g = at_show()
    with pytest.raises(error, match=reason):
        g.verify_correct_play("Bob", misread, real)
    assert not g.can_correct_play("Bob", misread, real)
    with pytest.raises(error):
        g.correct_play("Bob", misread, real)
    assert g.played("Bob") == cards("5C 4S 5D TC")


def test_a_play_is_put_right_only_at_the_show_while_that_players_hand_is_due():
    g = at_play()
    g.play("Bob", "5C")
    with pytest.raises(IllegalActionError, match="put right at the show"):
        g.verify_correct_play("Bob", ["5C"], ["3S"])
    g = at_show()
    with pytest.raises(IllegalActionError, match="Ann's play is put right while Ann's hand is due.*"
                                                 "it is Bob's hand now"):
        g.verify_correct_play("Ann", ["6H"], ["3S"])
    with pytest.raises(IllegalActionError, match="'Cy' is not playing"):
        g.verify_correct_play("Cy", ["6H"], ["3S"])
    g.show("Bob", ["5C", "5D", "TC", "4S"])
    g.claim(10)                                          # Bob's hand claimed: too late for his play
    assert not g.can_correct_play("Bob", ["4S"], ["3S"])
    g.show("Ann", ["6H", "9H", "8D", "7C"])
    g.claim(8)
    with pytest.raises(IllegalActionError, match="it is the crib"):   # the crib was never played
        g.verify_correct_play("Ann", ["6H"], ["3S"])


def test_a_card_seen_in_another_count_cannot_be_the_card_played():
    g = at_play()
    play_all(g, [("Bob", "5C"), ("Ann", "6H")])
    g.end_play()                                         # a hand ran short: cards left unplayed
    g.show("Bob", ["5C", "5D", "TC", "4S"])
    g.claim(g.correct_count().total)
    with pytest.raises(DuplicateCardError, match="5D was already seen in another hand"):
        g.verify_correct_play("Ann", ["6H"], ["5D"])


def test_a_go_said_before_a_card_put_right_still_finds_the_cards_held_at_it():
    # Bob's first card, really the 9C, was read as the TC; Bob then said go at 20 holding 4S 5C 2D.
    g = at_play()
    play_all(g, [("Bob", "TC"), ("Ann", "TD"), ("Ann", "5H"), ("Ann", "6H"),   # Bob passed over: go
                 ("Bob", "4S"), ("Ann", "7C"), ("Bob", "5C"), ("Bob", "2D")])
    assert g.phase == "show"
    g.correct_play("Bob", ["TC"], ["9C"])
    g.show("Bob", ["9C", "4S", "5C", "2D"])
    found = [e for e in g.claim(0) if isinstance(e, ev.RenegeFound)]
    assert [(e.count, e.cards) for e in found] == [(19, cards("4S 5C 2D"))]   # not the 9C, played before


def reneges_at_claim(game, player, shown):
    game.show(player, shown)
    return [(e.count, e.cards) for e in game.claim(0) if isinstance(e, ev.RenegeFound)]


# Bob's first card is read as the AS, one less than the 3S he laid: his go is recorded at 26, where the
# 4C he held would have fitted, but the count really stood at 28.
LOW_READ = [("Bob", "AS"), ("Ann", "KD"), ("Bob", "QD"), ("Ann", "5H"), ("Ann", "AH"),   # Bob went
            ("Ann", "2H"), ("Bob", "4C"), ("Bob", "6C")]
# Bob's first card is read as the TC, three more than the 7C he laid: his go is recorded at 30, where
# nothing fits, but the count really stood at 27, where his 4S would have.
HIGH_READ = [("Bob", "TC"), ("Ann", "KD"), ("Bob", "8D"), ("Ann", "2H"), ("Ann", "AH"),  # Bob went
             ("Bob", "4S"), ("Ann", "5H"), ("Bob", "6S")]


def test_a_renege_found_only_from_a_misread_card_goes_once_the_play_is_put_right():
    g = at_play()
    play_all(g, LOW_READ)
    g.correct_play("Bob", ["AS"], ["3S"])
    assert reneges_at_claim(g, "Bob", ["3S", "QD", "4C", "6C"]) == []
    uncorrected = at_play()
    play_all(uncorrected, LOW_READ)
    assert reneges_at_claim(uncorrected, "Bob", ["AS", "QD", "4C", "6C"]) == [(26, cards("4C"))]


def test_a_renege_hidden_by_a_misread_card_is_found_once_the_play_is_put_right():
    g = at_play()
    play_all(g, HIGH_READ)
    g.correct_play("Bob", ["TC"], ["7C"])
    assert reneges_at_claim(g, "Bob", ["7C", "8D", "4S", "6S"]) == [(27, cards("4S"))]
    uncorrected = at_play()
    play_all(uncorrected, HIGH_READ)
    assert reneges_at_claim(uncorrected, "Bob", ["TC", "8D", "4S", "6S"]) == []


def test_a_go_put_right_by_a_correction_replays_and_undoes_as_it_happened():
    g = at_play()
    play_all(g, HIGH_READ)
    g.correct_play("Bob", ["TC"], ["7C"])
    rebuilt = Game.from_events(through_json(g.events))
    assert reneges_at_claim(rebuilt, "Bob", ["7C", "8D", "4S", "6S"]) == [(27, cards("4S"))]
    g.undo()                                             # the correction withdrawn: the go is at 30 again
    assert reneges_at_claim(g, "Bob", ["TC", "8D", "4S", "6S"]) == []


# Bob's fifth card of the play is read as the QC at 26: over 31, so Bob and Ann are taken to have said go
# there and the QC to lead a new count. Bob laid the 4C, which made 30: nobody said go at 26.
OVER_READ = [("Bob", "TC"), ("Ann", "KD"), ("Bob", "5D"), ("Ann", "AH"), ("Bob", "QC"),   # both "went"
             ("Ann", "9H"), ("Bob", "2S"), ("Ann", "5H")]


def test_a_go_inferred_only_from_a_misread_card_passing_31_is_dropped_once_the_play_is_put_right():
    uncorrected = at_play()
    play_all(uncorrected, OVER_READ)
    assert reneges_at_claim(uncorrected, "Bob", ["TC", "5D", "QC", "2S"]) == [(26, cards("2S"))]
    g = at_play()
    play_all(g, OVER_READ)
    g.correct_play("Bob", ["QC"], ["4C"])
    assert reneges_at_claim(g, "Bob", ["TC", "5D", "4C", "2S"]) == []       # the 4C fitted: no go at 26
    rebuilt = Game.from_events(through_json(g.events))
    assert reneges_at_claim(g, "Ann", ["KD", "AH", "9H", "5H"]) == []       # nor Ann's, after Bob's
    assert reneges_at_claim(rebuilt, "Ann", ["KD", "AH", "9H", "5H"]) == []
    kept_ann = at_play()
    play_all(kept_ann, OVER_READ)
    kept_ann.show("Bob", ["TC", "5D", "QC", "2S"])
    kept_ann.claim(0)
    assert reneges_at_claim(kept_ann, "Ann", ["KD", "AH", "9H", "5H"]) == [(26, cards("5H"))]


def test_a_go_stands_where_the_card_put_right_still_passes_31():
    g = at_play()
    play_all(g, OVER_READ)
    g.correct_play("Bob", ["QC"], ["7C"])                                   # 33: Bob did go at 26
    assert reneges_at_claim(g, "Bob", ["TC", "5D", "7C", "2S"]) == [(26, cards("2S"))]


def test_a_correction_is_said_and_shown():
    e = ev.PlayCorrected("North", cards("AS"), cards("3C"))
    assert spoken(e) == "I took the three of clubs for the ace of spades in the play"
    words = announce(e)
    assert words.spoken == "I took the three of clubs for the ace of spades in the play."
    assert words.shown == "North's play put right: 3C played, misread as AS; the play's pegs stand"
    assert "PlayCorrected" in kinds([ev.event_from_dict(e.to_dict())])


def test_a_correction_is_a_rules_engine_error_never_a_crash_on_bad_input():
    g = at_show()
    for args in ((None, ["4S"], ["3S"]), ("Bob", None, ["3S"]), ("Bob", [4], ["3S"]), ("Bob", ["4S"], 3)):
        with pytest.raises(CribbageError):
            g.verify_correct_play(*args)
        assert not g.can_correct_play(*args)
    assert g.can_correct_play("Bob", "4S", "3S") and g.can_correct_play("Bob", Card.parse("4S"), ["3S"])
