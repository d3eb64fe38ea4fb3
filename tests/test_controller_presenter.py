"""The presenter: journaled events become pegs on the board, words for the voice and lines of text."""

from __future__ import annotations

import io
import json

from cribbage import events as ev
from cribbage.cards import Card
from device import device_events as dev
from device.announcements import announce
from device.board import Board
from device.presenter import Presenter

PLAYERS = ("North", "South")


class Voice:
    def __init__(self):
        self.spoken = []

    def say(self, text):
        self.spoken.append(text)


def presenter(json_lines=False):
    board = Board(list(PLAYERS))
    voice = Voice()
    text = io.StringIO()
    return Presenter(board, voice, PLAYERS.index, text=text, json_lines=json_lines), board, voice, text


def played(player, card, count, points=0, reasons=(), step=3):
    return ev.CardPlayed(player, Card.parse(card), count, points, tuple(reasons), step=step)


def test_points_are_pegged_with_the_back_peg_behind():
    p, board, voice, _ = presenter()
    p.present(1, played("North", "5H", 15, 2, ["fifteen"]))
    p.present(2, ev.GoPegged("North", 1, 28, step=4))
    assert board.scores(0) == (3, 2)
    assert voice.spoken == ["Fifteen two.", "One for go, North."]


def test_whoever_asked_hears_of_each_event_once_it_is_pegged_said_and_shown():
    board, voice, text = Board(list(PLAYERS)), Voice(), io.StringIO()
    heard = []
    p = Presenter(board, voice, PLAYERS.index, text=text,
                  on_present=lambda seq, event: heard.append((seq, event, board.scores(0), list(voice.spoken))))
    event = played("North", "5H", 15, 2, ["fifteen"])
    p.present(7, event)
    assert heard == [(7, event, (2, 0), ["Fifteen two."])]


def test_an_over_claim_flashes_the_counters_track_and_pegs_the_true_count():
    p, board, voice, text = presenter()
    claim = ev.ClaimPegged("South", False, 8, 6, 6, "over", (), "fifteen four and a pair is six", step=5)
    p.present(1, claim)
    assert board.scores(1) == (6, 0)
    assert voice.spoken[0].startswith("Eight claimed, six in the hand")
    assert "over-claim" in text.getvalue()


def test_a_preview_moves_nothing_and_undo_puts_the_pegs_back():
    p, board, _, _ = presenter()
    p.present(1, played("North", "5H", 15, 2, ["fifteen"], step=2))
    p.present(2, dev.ClaimPreview("North", 6))
    assert board.scores(0) == (2, 0)
    p.present(3, played("North", "TD", 25, 2, ["pair"], step=3))
    p.present(4, ev.Undone(3, step=4))
    assert board.scores(0) == (2, 0)


def test_restore_is_silent_and_exact():
    events = [played("North", "5H", 15, 2, ["fifteen"], step=2), ev.HisHeels("South", 2, step=3),
              played("North", "5D", 20, 2, ["pair"], step=4)]
    p, board, voice, text = presenter()
    p.restore(events)
    assert board.scores(0) == (4, 2) and board.scores(1) == (2, 0)
    assert voice.spoken == [] and text.getvalue() == ""


def test_json_lines_carry_the_event_and_what_was_said():
    p, _, _, text = presenter(json_lines=True)
    p.present(7, ev.HisHeels("South", 2, step=3), scores=(0, 2))
    line = json.loads(text.getvalue())
    assert line == {"seq": 7, "event": ev.HisHeels("South", 2, step=3).to_dict(),
                    "spoken": "Two for his heels to South.", "scores": [0, 2]}


def test_every_device_event_has_words_to_show():
    for record in (dev.Notice("dark", "It's too dark to see the cards."), dev.ClaimPreview("North", 4),
                   dev.DisputeReadout("North", ("5H",), "5D", False, 2, "I see...", ("pair 5H 5D = 2",)),
                   dev.TableCleared()):
        words = announce(record)
        assert words.shown and words.shown != type(record).__name__
