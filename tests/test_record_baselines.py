"""The record's table means are the rules engine's exhaustive counts, kept as exact totals."""

import pytest

from cribbage.stats import hand_distribution
from device.record_baselines import CRIB_TABLE, HAND_TABLE, table_mean


def totals(distribution: dict[int, int]) -> tuple[int, int]:
    return sum(score * n for score, n in distribution.items()), sum(distribution.values())


@pytest.mark.parametrize("size", sorted(HAND_TABLE))
def test_each_hand_table_is_the_engines(size):
    assert HAND_TABLE[size] == totals(hand_distribution(hand_size=size))


def test_the_crib_table_is_the_engines():
    assert CRIB_TABLE == totals(hand_distribution(crib=True))
    assert table_mean(4, crib=True) == pytest.approx(4.7348, abs=1e-4)
    assert table_mean(4) == pytest.approx(4.7692, abs=1e-4)   # the published mean of a hand: 4.7692
