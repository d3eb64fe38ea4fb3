"""Pairing by PIN (device.web.pairing) and the games read from journals (device.web.games), without a server."""

from __future__ import annotations

import pytest

from device.web.pairing import Pairing, PairingLocked, new_pin, spoken_pin


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_pin_is_six_digits_and_new_each_time():
    pins = {new_pin() for _ in range(50)}
    assert all(len(p) == 6 and p.isdigit() for p in pins) and len(pins) > 40
    assert spoken_pin("012345").endswith("0 1 2 3 4 5.")


def test_the_right_pin_pairs_and_wrong_ones_lock_for_a_while():
    clock = Clock()
    pairing = Pairing("123456", max_tries=3, lock_s=60, clock=clock)
    token = pairing.pair("123456")
    assert token and pairing.is_paired(token) and not pairing.is_paired("nope") and not pairing.is_paired(None)
    assert pairing.pair("000000") is None and pairing.pair(123456) is None and pairing.pair("000001") is None
    with pytest.raises(PairingLocked) as locked:
        pairing.pair("123456")
    assert 59 < locked.value.retry_after <= 60
    clock.now += 61
    assert pairing.pair("123456")                      # the lock is over
    assert pairing.is_paired(token)                    # and the earlier session still holds


def test_a_right_pin_clears_the_wrong_count():
    pairing = Pairing("123456", max_tries=3, clock=Clock())
    pairing.pair("1"), pairing.pair("2")
    assert pairing.pair("123456")
    pairing.pair("1"), pairing.pair("2")
    assert pairing.pair("123456")                      # not locked: the wrong ones were not in a row


def test_a_pin_must_be_six_digits():
    with pytest.raises(ValueError):
        Pairing("12345")


def test_games_of_a_journal_with_an_undo_and_a_second_game():
    from device.web.games import games_of

    def e(type_, step, **kw):
        return {"type": type_, "step": step, **kw}

    start = {"variant": "six-card", "players": ["Ann", "Bob"], "options": {}}
    records = [
        e("GameStarted", 1, game_no=1, **start),
        e("RoundStarted", 2, dealer="Ann", round_no=1),
        e("CardPlayed", 3, player="Bob", card="5S", count=5, points=0, reasons=[]),
        e("CardPlayed", 4, player="Ann", card="TD", count=15, points=2, reasons=["fifteen"]),
        e("PenaltyPegged", 5, player="Bob", points=7, offender="Ann", kind="x", reason="y"),
        e("Undone", 6, undone=5),
        {"type": "Notice", "kind": "dark", "text": "too dark"},
        e("RoundStarted", 7, dealer="Bob", round_no=2),
        e("PenaltyPegged", 8, player="Bob", points=200, offender="Ann", kind="x", reason="y"),
        e("GameWon", 9, winner="Bob", side=["Bob"], scores=[2, 121], margin="skunk", game_points=2),
        e("GameStarted", 10, game_no=2, **start),
    ]
    first, second = games_of(records)
    assert first["race"] == [[0, 2, 2], [0, 0, 121]] and first["deals"] == 2
    assert (first["winner"], first["margin"], first["over"]) == ("Bob", "skunk", True)
    assert second["race"] == [[0], [0]] and not second["over"] and second["game_no"] == 2
