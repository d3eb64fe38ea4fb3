"""Coach: every lay-away with expected hand and crib points, checked against brute force."""

import json
import subprocess
import sys
from itertools import combinations
from statistics import mean

import pytest

from cribbage import FULL_DECK, InvalidCardError, parse_cards, score_show
from cribbage.coach import crib_expectation, hand_expectation, lay_aways


def unseen_after(dealt):
    return tuple(card for card in FULL_DECK if card not in dealt)


def test_a_six_card_deal_has_fifteen_lay_aways_each_over_46_starters():
    dealt = parse_cards("5H 5D JS 6C 4H KH")
    results = lay_aways(dealt)
    assert len(results) == 15
    assert len({frozenset(r.discard) for r in results}) == 15
    assert all(len(r.keep) == 4 and len(r.discard) == 2 for r in results)
    assert len(unseen_after(dealt)) == 46


def test_expected_hand_points_are_the_mean_over_every_unseen_starter():
    dealt = parse_cards("5H 5D JS 6C 4H KH")
    unseen = unseen_after(dealt)
    for keep in (parse_cards("5H 5D 6C 4H"), parse_cards("5H JS 6C KH")):
        scores = [score_show(keep, starter).total for starter in unseen]
        assert hand_expectation(keep, unseen) == (pytest.approx(mean(scores)), min(scores), max(scores))


def test_hand_flush_and_nobs_are_in_the_expectation():
    dealt = parse_cards("2H 4H 8H JH QC KS")
    unseen = unseen_after(dealt)
    keep = parse_cards("2H 4H 8H JH")
    scores = [score_show(keep, starter).total for starter in unseen]
    assert hand_expectation(keep, unseen)[0] == pytest.approx(mean(scores))


@pytest.mark.parametrize("dealt, thrown", [
    ("5H 5D JS 6C 4H KH", "JS KH"),   # a jack thrown: nobs
    ("2H 4H 8H 9H QC KS", "2H 9H"),   # suited discards: crib flushes
    ("5H 5D JS 6C 4H KH", "5H 5D"),   # a pair thrown
])
def test_crib_expectation_is_exact(dealt, thrown):
    """Brute force: every pair of other crib cards and every starter from the unseen cards."""
    dealt, thrown = parse_cards(dealt), parse_cards(thrown)
    unseen = unseen_after(dealt)
    totals = [score_show(thrown + pair, starter, crib=True).total
              for pair in combinations(unseen, 2) for starter in unseen if starter not in pair]
    assert len(totals) == 46 * 45 // 2 * 44
    assert crib_expectation(thrown, unseen) == pytest.approx(sum(totals) / len(totals), rel=1e-12)


def test_crib_expectation_for_one_discard_in_three_or_four_handed_play():
    dealt = parse_cards("5H JD 7C 8S 2H")
    unseen = unseen_after(dealt)[:20]  # a smaller deck keeps the brute force quick; same formula
    thrown = parse_cards("JD")
    totals = [score_show(thrown + trio, starter, crib=True).total
              for trio in combinations(unseen, 3) for starter in unseen if starter not in trio]
    assert crib_expectation(thrown, unseen) == pytest.approx(sum(totals) / len(totals), rel=1e-12)


def test_dealer_adds_the_crib_and_pone_subtracts_it():
    dealt = parse_cards("5H 5D JS 6C 4H KH")
    for r in lay_aways(dealt, dealer=True):
        assert r.value == pytest.approx(r.hand_points + r.crib_points)
    for r in lay_aways(dealt, dealer=False):
        assert r.value == pytest.approx(r.hand_points - r.crib_points)


def test_lay_aways_are_sorted_best_first():
    for dealer in (False, True):
        values = [r.value for r in lay_aways(parse_cards("2C 3D 7H 8S JC KD"), dealer=dealer)]
        assert values == sorted(values, reverse=True)


def test_the_obvious_keep_is_best():
    """Keeping 5 5 4 6 (a double run with fifteens) beats throwing any of it away."""
    best = lay_aways(parse_cards("5H 5D JS 6C 4H KH"))[0]
    assert set(best.keep) == set(parse_cards("5H 5D 6C 4H"))


@pytest.mark.parametrize("dealt, discard, kept, count", [
    ("5H 5D JS 6C 4H", None, 4, 5),        # three or four players: one card to the crib
    ("5H 5D JS 6C 4H", 2, 3, 10),          # five-card cribbage: keep three
    ("5H 5D JS 6C 4H KH 2C", None, 5, 21),  # seven-card cribbage: keep five
])
def test_variants_lay_away_the_right_number(dealt, discard, kept, count):
    results = lay_aways(parse_cards(dealt), discard=discard)
    assert len(results) == count and all(len(r.keep) == kept for r in results)


def test_a_wrong_number_of_cards_is_an_error():
    with pytest.raises(InvalidCardError, match="5, 6 or 7"):
        lay_aways(parse_cards("5H 5D JS"))


def test_coach_command_json():
    out = subprocess.run([sys.executable, "-m", "device.cli", "coach", "--json", "--dealer",
                          "5H", "5D", "JS", "6C", "4H", "KH"], capture_output=True, text=True)
    assert out.returncode == 0
    data = json.loads(out.stdout)
    assert data["dealer"] is True and len(data["lay_aways"]) == 15
    assert data["lay_aways"][0]["discard"] == ["JS", "KH"]
