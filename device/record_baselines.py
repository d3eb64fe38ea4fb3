"""What a player would score on average, set beside their own means in the record.

The table means are the rules engine's exhaustive counts (cribbage.stats.hand_distribution: every
hand of that size with every starter), kept here as exact totals so `muggins record` need not redo
them; tests/test_record_baselines.py checks each against the engine. The other yardsticks are worked
out deal by deal from the cards themselves (device.record).
"""

from __future__ import annotations

# hand size -> (points summed over every hand and starter, number of hands and starters)
HAND_TABLE = {3: (2_807_256, 1_082_900), 4: (61_974_180, 12_994_800), 5: (1_000_375_332, 122_151_120)}
# a four-card crib, whose flush needs the starter too
CRIB_TABLE = (61_528_020, 12_994_800)


def table_mean(size: int, *, crib: bool = False) -> float:
    """The mean show points of a random hand of `size` cards (or a random crib) with a random starter."""
    total, hands = CRIB_TABLE if crib else HAND_TABLE[size]
    return total / hands


# What each figure beside a mean says, for the command's output and the web page.
MEANINGS = {
    "pegged": "points pegged, as claimed and corrected (Muggins taken from them is lost)",
    "true": "the true count of the cards shown with the starter",
    "starters": "the same cards' mean over every starter they could have had: the true count above it "
                "means the starters were kind",
    "table": "a random hand (or crib) of that size with a random starter, over every one there is "
             "(the engine's exhaustive tables); players who lay away well score above it",
    "play": "points pegged in the play: the cards, go and last card",
    "best": "the play's points had each card been the one held that pegged most at that moment "
            "(cards and go as they fell; the cards held are known once the play is over)",
}
