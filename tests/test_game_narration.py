"""What the device says: the words of docs/DESIGN.md ("two for his heels", "eight claimed, six in the
hand"), and silence about an under-count while Muggins is played."""

import random

from cribbage import Card
from cribbage import events as ev
from cribbage.autoplay import autoplay
from cribbage.narration import spoken
from cribbage.variants import VARIANTS, Options


def claim(claimed, actual, verdict):
    return ev.ClaimPegged("Bob", False, claimed, actual, min(claimed, actual), verdict, (),
                          "fifteen two, fifteen four, and a pair is six")


def test_his_heels_and_the_go():
    assert spoken(ev.HisHeels("Ann", 2)) == "two for his heels to Ann"
    assert spoken(ev.GoPegged("Bob", 1, 29)) == "one for go, Bob"
    assert spoken(ev.GoSaid("Bob", 29, True)) is None and spoken(ev.GoSaid("Bob", 29, False)) == "Bob: go"


def test_a_card_is_announced_with_its_count_and_score():
    assert spoken(ev.CardPlayed("Ann", Card.parse("5H"), 15, 2, ("fifteen",))) == "fifteen two"


def test_an_over_claim_is_caught_aloud():
    assert spoken(claim(8, 6, "over")).startswith("eight claimed, six in the hand")


def test_an_under_claim_is_kept_quiet_with_muggins_and_told_without():
    assert spoken(claim(4, 6, "under"), muggins=True) == "Bob pegs four"
    assert spoken(claim(4, 6, "under"), muggins=False) == "four claimed, six in the hand"


def test_the_end_says_who_won_and_whether_the_loser_was_lurched():
    won = ev.GameWon("Ann", ("Ann",), (121, 58), "lurch", 2)
    assert spoken(won) == "Ann wins, and lurched"
    assert spoken(ev.GameWon("North", ("North", "South"), (121, 100), "single", 1)) == \
        "North and South win"


def test_every_event_of_real_games_can_be_said_or_passed_over():
    for variant in VARIANTS:
        game, _ = autoplay(random.Random(2), variant, Options(renege="two-per-card", muggins=False),
                           claim_errors=0.5)
        for e in game.events:
            line = spoken(e, muggins=game.options.muggins)
            assert line is None or (isinstance(line, str) and line)
