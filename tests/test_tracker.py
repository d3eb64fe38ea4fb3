"""The table tracker, fed synthetic recognitions: flicker, a hand passing over, slow appearances,
moves, duplicates, unreadable cards and the K-of-N thresholds; and the promise that a table held
steady long enough is exactly what the tracker reports."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cribbage.cards import Card
from vision.tracker import TableState, TableTracker, TrackerConfig, TrackerConfigError
from vision.zone_events import ZoneEvent
from vision.types import Recognition
from vision.zones import Zones

# Three 300 x 200 zones side by side, far enough apart that no card straddles two.
ZONES = Zones.from_config({
    "seat:0": [[0, 0], [300, 0], [300, 200], [0, 200]],
    "seat:1": [[400, 0], [700, 0], [700, 200], [400, 200]],
    "centre": [[800, 0], [1100, 0], [1100, 200], [800, 200]],
})
ORIGIN = {"seat:0": 0, "seat:1": 400, "centre": 800}
C5H, CJS, CAD, CKC = (Card.parse(t) for t in ("5H", "JS", "AD", "KC"))


def rec(card, zone, slot=0, dx=0.0, confidence=0.99):
    """A card 50 x 70 px lying in `zone` at position `slot` (0..4 from the left)."""
    x = ORIGIN[zone] + 30 + 55 * slot + dx
    quad = np.array([[x, 60], [x + 50, 60], [x + 50, 130], [x, 130]], np.float32)
    return Recognition(None if card is None else Card.parse(card) if isinstance(card, str) else card,
                       confidence, quad)


def run(tracker, frames, start=0):
    """Feed frames (lists of recognitions); return every event, each frame's at its index as timestamp."""
    events = []
    for i, frame in enumerate(frames, start):
        events += tracker.update(frame, float(i))
    return events


def kinds(events):
    return [(e.kind, e.zone, None if e.card is None else str(e.card)) for e in events]


def tracker(**kw):
    return TableTracker(ZONES, TrackerConfig(**kw))


def test_a_card_appears_after_k_of_n_frames_not_before():
    t = tracker(appear_k=3, appear_n=4)
    assert run(t, [[rec("5H", "seat:0")]] * 2) == []
    assert t.state.in_zone("seat:0") == frozenset()
    events = t.update([rec("5H", "seat:0")], 2.0)
    assert events == [ZoneEvent("appeared", "seat:0", C5H, 2.0)]
    assert t.state.in_zone("seat:0") == {C5H}


def test_a_slow_appearance_with_gaps_still_counts_once():
    t = tracker(appear_k=3, appear_n=4)
    frames = [[rec("5H", "seat:1")], [], [rec("5H", "seat:1")], [rec("5H", "seat:1")], [rec("5H", "seat:1")]]
    events = run(t, frames)
    assert kinds(events) == [("appeared", "seat:1", "5H")]
    assert events[0].timestamp == 3.0


def test_flicker_never_reaches_the_state():
    t = tracker(appear_k=3, appear_n=4)
    flicker = [[rec("JS", "centre")] if i % 2 == 0 else [] for i in range(20)]
    assert run(t, flicker) == []
    assert t.state.all_cards == frozenset()


def test_a_hand_passing_over_neither_plays_nor_removes_cards():
    t = tracker(appear_k=3, appear_n=4, leave_after=6)
    table = [rec("5H", "seat:0", 0), rec("JS", "seat:0", 1), rec("AD", "centre")]
    run(t, [table] * 5)
    before = t.state
    # the hand hides two cards for five frames and is itself seen as an unreadable blob now and then
    hand = [[rec("AD", "centre"), rec(None, "seat:0", 3)], [rec("AD", "centre")],
            [rec("AD", "centre"), rec(None, "seat:0", 2)], [rec("AD", "centre")], [rec("AD", "centre")]]
    assert run(t, hand, start=5) == []
    assert run(t, [table] * 5, start=10) == []
    assert t.state == before


def test_a_card_taken_away_leaves_after_m_frames():
    t = tracker(appear_k=2, appear_n=3, leave_after=4)
    run(t, [[rec("KC", "seat:1")]] * 3)
    assert run(t, [[]] * 3, start=3) == []
    events = t.update([], 6.0)
    assert events == [ZoneEvent("left", "seat:1", CKC, 6.0)]
    assert t.state.in_zone("seat:1") == frozenset()


def test_a_card_left_and_put_back_appears_again():
    t = tracker(appear_k=2, appear_n=2, leave_after=2)
    events = run(t, [[rec("5H", "seat:0")]] * 2 + [[]] * 2 + [[rec("5H", "seat:0")]] * 2)
    assert kinds(events) == [("appeared", "seat:0", "5H"), ("left", "seat:0", "5H"), ("appeared", "seat:0", "5H")]


def test_a_card_that_has_left_does_not_flicker_back_on_old_evidence():
    t = tracker(appear_k=1, appear_n=5, leave_after=1)
    events = run(t, [[rec("5H", "seat:0")]] + [[]] * 5)
    assert kinds(events) == [("appeared", "seat:0", "5H"), ("left", "seat:0", "5H")]


def test_a_move_between_zones_is_left_then_appeared_without_waiting_for_m():
    t = tracker(appear_k=3, appear_n=4, leave_after=10)
    run(t, [[rec("5H", "seat:0")]] * 4)
    events = run(t, [[rec("5H", "centre")]] * 3, start=4)
    assert kinds(events) == [("left", "seat:0", "5H"), ("appeared", "centre", "5H")]
    assert events[0].timestamp == events[1].timestamp == 6.0
    assert t.state.zone_of(C5H) == "centre" and t.state.in_zone("seat:0") == frozenset()


def test_a_duplicate_is_reported_once_with_both_zones():
    t = tracker(appear_k=3, appear_n=4, leave_after=3)
    both = [rec("5H", "seat:0"), rec("5H", "seat:1")]
    events = run(t, [both] * 8)
    dups = [e for e in events if e.kind == "duplicate"]
    assert dups == [ZoneEvent("duplicate", "seat:0", C5H, 2.0, other_zone="seat:1")]
    assert t.state.in_zone("seat:0") == t.state.in_zone("seat:1") == {C5H}


def test_a_duplicate_that_clears_and_returns_is_reported_again():
    t = tracker(appear_k=2, appear_n=2, leave_after=2)
    both = [rec("5H", "seat:0"), rec("5H", "seat:1")]
    events = run(t, [both] * 3 + [[rec("5H", "seat:0")]] * 3 + [both] * 3)
    assert [e.kind for e in events].count("duplicate") == 2


def test_two_copies_in_one_zone_are_a_duplicate_but_one_card_read_twice_is_not():
    t = tracker(appear_k=2, appear_n=2)
    twice_apart = [rec("5H", "seat:0", 0), rec("5H", "seat:0", 2)]
    events = run(t, [twice_apart] * 3)
    assert ("duplicate", "seat:0", "5H") in kinds(events)
    assert [e.other_zone for e in events if e.kind == "duplicate"] == ["seat:0"]
    t = tracker(appear_k=2, appear_n=2)
    read_twice = [rec("5H", "seat:0", 0), rec("5H", "seat:0", 0, dx=4)]
    assert kinds(run(t, [read_twice] * 3)) == [("appeared", "seat:0", "5H")]


def test_a_brief_duplicate_is_not_reported():
    t = tracker(appear_k=3, appear_n=4)
    frames = [[rec("5H", "seat:0")]] * 4 + [[rec("5H", "seat:0"), rec("5H", "centre")]] + [[rec("5H", "seat:0")]] * 4
    assert kinds(run(t, frames)) == [("appeared", "seat:0", "5H")]


def test_unreadable_cards_are_counted_per_zone_with_an_event_each():
    t = tracker(appear_k=2, appear_n=3, leave_after=5)
    two_blank = [rec(None, "seat:1", 0), rec(None, "seat:1", 2), rec("AD", "seat:1", 4)]
    events = run(t, [two_blank] * 3)
    assert kinds(events) == [("appeared", "seat:1", "AD"), ("unreadable", "seat:1", None),
                             ("unreadable", "seat:1", None)]
    assert t.state.unreadable["seat:1"] == 2 and t.state.unreadable["seat:0"] == 0
    # one of them is read at last: the card appears and, in the same frame, the count drops
    events = run(t, [[rec(None, "seat:1", 0), rec("KC", "seat:1", 2), rec("AD", "seat:1", 4)]] * 2, start=3)
    assert kinds(events) == [("appeared", "seat:1", "KC"), ("left", "seat:1", None)]
    assert t.state.unreadable["seat:1"] == 1
    assert t.state.in_zone("seat:1") == {CAD, CKC}


def test_a_card_read_elsewhere_does_not_clear_an_unreadable_one():
    t = tracker(appear_k=2, appear_n=2, leave_after=5)
    run(t, [[rec(None, "seat:1", 0)]] * 2)
    run(t, [[rec(None, "seat:1", 0), rec("KC", "seat:0")]] * 2, start=2)
    assert t.state.unreadable["seat:1"] == 1


def test_cards_outside_every_zone_are_ignored():
    t = tracker(appear_k=1, appear_n=1)
    outside = Recognition(C5H, 0.99, np.array([[320, 300], [370, 300], [370, 370], [320, 370]], np.float32))
    assert t.update([outside], 0.0) == []
    assert t.state.all_cards == frozenset()


def test_state_lists_every_zone_and_round_trips_to_a_dict():
    t = tracker(appear_k=1, appear_n=1)
    t.update([rec("5H", "seat:0"), rec(None, "centre")], 0.0)
    state = t.state
    assert set(state.cards) == {"seat:0", "seat:1", "centre"}
    assert state.to_dict()["seat:0"] == {"cards": ["5H"], "unreadable": 0}
    assert state.to_dict()["centre"] == {"cards": [], "unreadable": 1}
    assert hash(state) == hash(t.state) and state == t.state
    assert isinstance(state, TableState)


def test_event_to_dict():
    event = ZoneEvent("duplicate", "seat:0", C5H, 1.5, other_zone="centre")
    assert event.to_dict() == {"kind": "duplicate", "zone": "seat:0", "card": "5H", "timestamp": 1.5,
                               "other_zone": "centre"}
    assert ZoneEvent("unreadable", "crib", None, 0.0).to_dict()["card"] is None


def test_reset_empties_the_table():
    t = tracker(appear_k=1, appear_n=1)
    t.update([rec("5H", "seat:0")], 0.0)
    t.reset()
    assert t.state.all_cards == frozenset()


@pytest.mark.parametrize("settings_, message", [
    ({"appear_k": 5, "appear_n": 4}, "appear_k"),
    ({"appear_k": 0}, "appear_k"),
    ({"leave_after": 0}, "leave_after"),
    ({"merge_distance": -1}, "merge_distance"),
])
def test_impossible_thresholds_are_refused(settings_, message):
    with pytest.raises(TrackerConfigError, match=message):
        TrackerConfig(**settings_)


def test_config_from_the_config_file():
    assert TrackerConfig.from_config({"appear_k": "2", "appear_n": 5}) == TrackerConfig(appear_k=2, appear_n=5)
    with pytest.raises(TrackerConfigError, match="unknown tracker setting frames"):
        TrackerConfig.from_config({"frames": 3})
    with pytest.raises(TrackerConfigError, match="must be a number"):
        TrackerConfig.from_config({"appear_k": "three"})


# --- the property: hold a table steady for max(N, M) frames and the state is exactly that table ----

CARDS = ["5H", "JS", "AD", "KC", "7D"]
ZONE_NAMES = list(ORIGIN)

noisy_frame = st.lists(st.tuples(st.sampled_from(CARDS + [None]), st.sampled_from(ZONE_NAMES),
                                 st.integers(0, 4)), max_size=6)


@st.composite
def steady_table(draw):
    """A table with each card in at most one zone, plus some unreadable cards per zone."""
    cards = draw(st.lists(st.sampled_from(CARDS), unique=True, max_size=4))
    placed, slots = [], {z: iter(range(5)) for z in ZONE_NAMES}
    for card in cards:
        zone = draw(st.sampled_from(ZONE_NAMES))
        slot = next(slots[zone], None)
        if slot is not None:
            placed.append((card, zone, slot))
    for zone in ZONE_NAMES:
        for _ in range(draw(st.integers(0, 2))):
            slot = next(slots[zone], None)
            if slot is not None:
                placed.append((None, zone, slot))
    return placed


@settings(max_examples=150, deadline=None)
@given(k_n=st.tuples(st.integers(1, 5), st.integers(1, 5)).map(sorted), m=st.integers(1, 6),
       noise=st.lists(noisy_frame, max_size=12), table=steady_table(), extra=st.integers(0, 3))
def test_a_table_held_steady_ends_in_exactly_that_state(k_n, m, noise, table, extra):
    config = TrackerConfig(appear_k=k_n[0], appear_n=k_n[1], leave_after=m)
    t = TableTracker(ZONES, config)
    replayed: dict[str, set] = {z: set() for z in ZONE_NAMES}
    blanks = {z: 0 for z in ZONE_NAMES}

    def feed(frames, start):
        for i, frame in enumerate(frames, start):
            for event in t.update([rec(*placed) for placed in frame], float(i)):
                if event.kind == "appeared":
                    replayed[event.zone].add(event.card)
                elif event.kind == "unreadable":
                    blanks[event.zone] += 1
                elif event.kind == "left" and event.card is None:
                    blanks[event.zone] -= 1
                elif event.kind == "left":
                    replayed[event.zone].discard(event.card)
            # the events alone always rebuild the state
            assert {z: frozenset(c) for z, c in replayed.items()} == dict(t.state.cards)
            assert blanks == dict(t.state.unreadable)

    feed(noise, 0)
    feed([table] * (config.hold_frames + extra), len(noise))
    expected = {z: frozenset(Card.parse(c) for c, zone, _ in table if c and zone == z) for z in ZONE_NAMES}
    assert dict(t.state.cards) == expected
    assert dict(t.state.unreadable) == {z: sum(1 for c, zone, _ in table if c is None and zone == z)
                                        for z in ZONE_NAMES}
