"""Five-card at the show on a table with no crib zone: the crib turned up in the dealer's seat.

The play is one count, so a card may stay unplayed; at the show it lies face up in its player's seat
with the cards played. The crib, turned up in the dealer's seat beside the dealer's hand, is what lies
there apart from the hand the dealer showed, not apart from the cards the dealer played.
North sits at seat:0 and deals; South leads and counts first.
"""

from __future__ import annotations

from cribbage import events as ev
from device.config import GameConfig

from controller_helpers import Table

CRIB = ("AS", "AD", "8C", "QH")


def one_count(t: Table):
    """Starter 4H; KS, QD, 9S make twenty-nine and nobody can go: South's 8S and North's 7C 6D unplayed."""
    t.deal_to(0)
    t.put("centre", "4H")
    t.put("seat:1", "KS")     # 10
    t.put("seat:0", "QD")     # 20
    t.put("seat:1", "9S")     # 29
    t.put("seat:1", "8S")     # South turns up the card not played, for the show
    t.put("seat:0", "7C", "6D")
    return t


def shown(t: Table) -> list[ev.HandShown]:
    return [r for r in t.spy.shown if isinstance(r, ev.HandShown)]


def claims(t: Table) -> list[ev.ClaimPegged]:
    return [r for r in t.spy.shown if isinstance(r, ev.ClaimPegged)]


def count_both_hands(t: Table):
    t.claim(3)                                   # South's count (a flush of three): the play is over
    assert claims(t)[-1].player == "South" and claims(t)[-1].verdict == "right"
    assert t.game.show_turn == ("North", False)
    assert set(map(str, shown(t)[-1].cards)) == {"QD", "7C", "6D"}    # a card played and two not
    t.claim(t.game.correct_count().total)
    assert t.game.show_turn == ("North", True)


def test_the_crib_beside_the_dealers_hand_is_the_seat_less_the_hand_shown(tmp_path):
    t = one_count(Table(tmp_path, GameConfig(variant="five-card")))
    count_both_hands(t)
    t.put("seat:0", *CRIB)
    crib = shown(t)[-1]
    assert crib.crib and set(map(str, crib.cards)) == set(CRIB)
    assert "wrong-cards" not in t.notices()
    t.claim(t.game.correct_count().total)
    assert claims(t)[-1].verdict == "right"
    assert not [r for r in t.spy.shown if isinstance(r, ev.PenaltyPegged)]
    assert t.game.phase == "deal"


def test_a_crib_card_short_is_still_waited_for(tmp_path):
    t = one_count(Table(tmp_path, GameConfig(variant="five-card")))
    count_both_hands(t)
    t.put("seat:0", *CRIB[:3])
    assert t.types()[-1] != "HandShown" and t.game.show_turn == ("North", True)
    t.put("seat:0", CRIB[3])
    assert shown(t)[-1].crib


def test_a_crib_card_too_many_is_said(tmp_path):
    t = one_count(Table(tmp_path, GameConfig(variant="five-card")))
    count_both_hands(t)
    t.put("seat:0", *CRIB, "2H")
    assert t.notices()[-1] == "wrong-cards"
    assert t.said()[-1] == "North's crib has five cards; it should have four."


def test_auto_mode_counts_the_crib_beside_the_dealers_hand(tmp_path):
    t = one_count(Table(tmp_path, GameConfig(variant="five-card", mode="auto")))
    t.press("go", player=0)                      # nobody can go: the play ends, and the hands count
    t.press("go", player=1)
    assert [c.player for c in claims(t)] == ["South", "North"]
    t.put("seat:0", *CRIB)
    assert [c.verdict for c in claims(t)] == ["right"] * 3
    assert not [r for r in t.spy.shown if isinstance(r, ev.PenaltyPegged)]


def test_a_whole_five_card_game_with_the_crib_beside_the_dealers_hand_plays_as_scripted(tmp_path, monkeypatch):
    """The demo's five-card table has a crib zone; here it has none, as the device's default zones."""
    import io
    import json

    import sim.demo_game
    from sketch_table import KnowsTheCards

    monkeypatch.setattr(sim.demo_game, "has_crib_zone", lambda rules: False)
    knows, out, err = KnowsTheCards(), io.StringIO(), io.StringIO()
    code = sim.demo_game.run_demo(sim.demo_game.DemoOptions(seed=1, speed="max", json=True, mute=True,
                                                            state_dir=tmp_path, variant="five-card"),
                                  out, err, recognizer=knows, painter_for=knows)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    events = [line["event"] for line in lines if "event" in line]
    assert code == 0 and lines[-1]["final"]["as_scripted"] and lines[-1]["final"]["winner"]
    assert any(e["type"] == "HandShown" and e["crib"] for e in events)
    assert not [e for e in events if e["type"] == "PenaltyPegged"]
    assert not [e for e in events if e["type"] == "Notice" and e["kind"] == "wrong-cards"]


def test_a_card_past_31_in_the_one_count_may_be_left_for_the_show(tmp_path):
    t = one_count(Table(tmp_path, GameConfig(variant="five-card")))
    said = [line for line in t.said() if "past thirty-one" in line]
    assert len(said) == 3                        # South's 8S, North's 7C and 6D: nobody can go
    assert all("Take it back if you can still go; if nobody can, the play is over: leave it for the show"
               in line for line in said)
    assert t.notices() == ["over-31"] * 3


def test_in_auto_mode_without_go_buttons_a_claim_ends_the_one_count(tmp_path):
    t = one_count(Table(tmp_path, GameConfig(variant="five-card", mode="auto")))
    t.press("claim", value=0)
    assert "PlayEnded" in t.types() and "not-now" not in t.notices()
    assert [(c.player, c.verdict) for c in claims(t)] == [("South", "right"), ("North", "right")]
    t.press("claim", value=0)                    # at the show the device counts: a claim is refused
    assert t.notices()[-1] == "not-now"
