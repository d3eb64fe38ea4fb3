"""The pegboard model: pegs as on wood, marks and lines, and animations stepped by an explicit clock."""

import pytest

from device.board import DEALER, LINE, MARK, MUGGINS, OVERCLAIM, Board
from device.config import load_config
from device.leds.layout import Layout

RED, BLUE = (255, 0, 0), (0, 0, 255)


def board(**kw):
    kw.setdefault("colours", [RED, BLUE])
    return Board(["Ann", "Bob"], **kw)


def at(b, frame, side, hole):
    return frame[b.layout.index(side, hole)]


def lit(b, frame, side, ignore=(MARK, LINE)):
    """Holes of a track showing something other than off, marks and lines."""
    return {h: at(b, frame, side, h) for h in b.layout.holes_of(side)
            if at(b, frame, side, h) not in ((0, 0, 0), *ignore)}


def test_front_peg_bright_back_peg_dim_and_the_gap_is_the_last_score():
    b = board()
    b.peg(0, 6)
    b.finish()
    b.peg(0, 5)
    b.finish()
    assert b.scores(0) == (11, 6)
    f = b.render()
    pegs = lit(b, f, 0)
    assert set(pegs) == {6, 11}
    assert pegs[11] == RED
    assert 0 < max(pegs[6]) < max(RED) // 2  # dimmer, same hue
    assert lit(b, f, 1) == {0: BLUE}  # Bob's pegs wait in his start hole


def test_quiet_marks_every_five_holes_and_the_lurch_line():
    b = board()
    f = b.render()
    assert at(b, f, 0, 5) == MARK and at(b, f, 1, 120) == MARK and at(b, f, 0, 7) == (0, 0, 0)
    assert at(b, f, 0, 61) == LINE and b.lines() == [61]


def test_skunk_lines():
    b = board(scoring_lines="skunk")
    assert b.lines() == [91, 61]
    assert at(b, b.render(), 1, 91) == LINE


def test_the_peg_walks_hole_by_hole():
    b = board(walk_s_per_hole=0.05)
    b.peg(0, 8)
    fronts = []
    for f in b.frames(fps=100):
        pegs = lit(b, f, 0)
        fronts.append(max(h for h, c in pegs.items() if c == RED))
    assert fronts[0] == 0 and fronts[-1] == 8
    steps = [b2 - a for a, b2 in zip(fronts, fronts[1:])]
    assert all(s in (0, 1) for s in steps)  # never jumps a hole
    assert sorted(set(fronts)) == list(range(9))
    assert not b.busy


def test_a_long_walk_is_sped_up():
    b = board(walk_s_per_hole=0.1)
    walk = b.peg(1, 60)
    assert walk.duration == pytest.approx(2.5)


def test_pegging_to_the_target_lands_in_the_game_hole():
    b = board()
    b.set_scores(0, 118, 110)
    b.peg(0, 7)
    b.finish()
    assert b.scores(0) == (121, 118)
    assert at(b, b.render(), 0, 121) == RED


def test_overclaim_flashes_the_counters_track_then_stops():
    b = board()
    b.set_scores(0, 20, 14)
    b.set_scores(1, 30, 22)
    b.flash(1, "overclaim")
    frames = list(b.frames(fps=20))
    red_frames = [f for f in frames if at(b, f, 1, 3) != (0, 0, 0)]
    assert red_frames and all(at(b, f, 1, 3)[0] > 0 and at(b, f, 1, 3)[1:] == (0, 0) for f in red_frames)
    assert len(red_frames) < len(frames)  # it blinks
    assert all(lit(b, f, 0) == lit(b, frames[-1], 0) for f in frames)  # Ann's track untouched
    assert at(b, frames[-1], 1, 3) == (0, 0, 0)
    assert at(b, red_frames[0], 1, 30) == BLUE  # the peg still shows through


def test_muggins_flashes_the_takers_track_white():
    b = board()
    b.flash(0, "muggins")
    f = b.render()
    assert at(b, f, 0, 50) == tuple(round(c * 0.6) for c in MUGGINS)
    assert at(b, f, 1, 51) == (0, 0, 0)
    with pytest.raises(ValueError):
        b.flash(0, "sparkle")


def test_a_flash_after_a_walk_waits_for_the_walk():
    b = board()
    walk = b.peg(0, 10)
    flash = b.flash(0, "overclaim")
    assert flash.start == pytest.approx(walk.end)


def test_preview_blinks_a_ghost_peg_where_the_claim_would_land():
    b = board()
    b.set_scores(1, 40, 32)
    b.preview(1, 12)
    seen = set()
    for _ in range(8):
        seen.add(at(b, b.render(), 1, 52))
        b.tick(0.1)
    assert len(seen) == 2 and (0, 0, 0) in seen  # on and off
    b.clear_preview()
    assert at(b, b.render(), 1, 52) == (0, 0, 0)


def test_dealer_indicator():
    b = board()
    b.set_dealer(1)
    f = b.render()
    assert f[b.layout.dealer_index(1)] == DEALER and f[b.layout.dealer_index(0)] == (0, 0, 0)


def test_a_win_lights_the_winners_track_until_a_new_game():
    b = board()
    b.set_scores(0, 121, 115)
    b.celebrate(0)
    b.finish()
    f = b.render()
    assert all(at(b, f, 0, h) != (0, 0, 0) for h in range(0, 122))
    assert at(b, f, 1, 7) == (0, 0, 0)
    b.new_game()
    assert lit(b, b.render(), 0) == {0: RED}


def test_idle_drifts_and_any_game_call_wakes_the_board():
    b = board()
    b.idle()
    first = b.render()
    b.tick(1.0)
    assert b.render() != first
    assert not b.busy
    b.set_dealer(0)
    assert not b.idling


def test_laps_in_a_game_to_181():
    b = board(target=181)
    b.set_scores(0, 130, 121)
    f = b.render()
    assert b.position(130) == (10, 1)
    assert at(b, f, 0, 10) == RED
    assert at(b, f, 0, 0) != (0, 0, 0)  # the start hole shows the lap
    b.set_scores(0, 181, 170)
    assert at(b, b.render(), 0, 121) == RED


def test_a_61_game_on_a_60_hole_board():
    b = Board(2, target=61, layout=Layout.standard(2, holes=60), colours=[RED, BLUE])
    b.peg(0, 61)
    b.finish()
    assert at(b, b.render(), 0, 61) == RED and b.position(61) == (61, 0)
    assert b.lines() == [31]


def test_set_scores_checks_the_pegs():
    b = board()
    with pytest.raises(ValueError):
        b.set_scores(0, 5, 9)
    with pytest.raises(ValueError):
        b.peg(2, 3)
    with pytest.raises(ValueError):
        b.peg(0, -1)


def test_board_from_a_four_player_config_has_two_partnership_tracks(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[game]\nvariant = "four-player"\nplayers = ["A", "B", "C", "D"]\n')
    b = Board.from_config(load_config(path))
    assert b.names == ["A & C", "B & D"] and b.sides == 2 and b.target == 121
    assert len(b.render()) == b.layout.size == 246


def test_three_tracks():
    b = Board(["A", "B", "C"])
    b.peg(2, 4)
    b.finish()
    assert at(b, b.render(), 2, 4) == b.colours[2]
