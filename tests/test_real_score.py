"""The real-photo benchmark's scoring (bench/real/score.py): reads compared with labels as multisets."""

from __future__ import annotations

import json
from pathlib import Path

from bench.real.score import confusion_line, confusions, format_table, score_photo, tally

REAL = Path(__file__).resolve().parent.parent / "bench" / "real"


def test_every_label_card_read_once_is_all_right():
    s = score_photo(["5H", "TD", "JS"], ["JS", "5H", "TD"])
    assert (s.cards, s.right, s.wrong, s.unread, s.missed) == (3, 3, 0, 0, 0)


def test_a_card_read_twice_counts_one_right_and_one_wrong():
    s = score_photo(["5H"], ["5H", "5H"])
    assert (s.right, s.wrong, s.missed) == (1, 1, 0)
    assert s.wrong_reads == ("5H",)


def test_a_misread_is_wrong_and_its_card_missed():
    s = score_photo(["5H", "6C"], ["5H", "6S"])
    assert (s.right, s.wrong, s.missed) == (1, 1, 1)
    assert s.wrong_reads == ("6S",)


def test_unread_reports_are_counted_apart_and_leave_their_card_missed():
    s = score_photo(["5H", "6C"], [None, "6C", None])
    assert (s.right, s.wrong, s.unread, s.missed) == (1, 0, 2, 1)


def test_cards_read_on_an_empty_table_are_wrong():
    s = score_photo([], ["AS"])
    assert (s.cards, s.right, s.wrong, s.missed) == (0, 0, 1, 0)


def test_a_label_may_hold_a_card_twice_when_two_decks_are_mixed():
    s = score_photo(["2C", "2C", "5S"], ["2C", "5S"])
    assert (s.right, s.wrong, s.missed) == (2, 0, 1)


def test_tally_sums_by_key_and_the_table_shows_shares_of_label_cards():
    rows = [({"band": "16-40"}, score_photo(["5H", "6C"], ["5H", "6S"])),
            ({"band": "16-40"}, score_photo(["AS"], ["AS"])),
            ({"band": ">80"}, score_photo(["KD"], [None]))]
    totals = tally(rows, lambda label: label["band"])
    assert totals["16-40"]["photos"] == 2 and totals["16-40"]["cards"] == 3 and totals["16-40"]["right"] == 2
    assert totals[">80"]["unread"] == 1 and totals[">80"]["missed"] == 1
    lines = format_table("band", totals, ["10-16", "16-40", ">80"])
    assert len(lines) == 3  # header and the two bands present, in the order given
    assert "66.7 %" in lines[1] and "33.3 %" in lines[1]


def test_the_committed_labels_are_well_formed_and_name_known_sources():
    from cribbage.cards import Card

    sources = {s["repo"]: s for s in json.loads((REAL / "sources.json").read_text(encoding="utf-8"))}
    assert all(s["use"] in ("eval", "train+eval") and len(s["commit"]) == 40 for s in sources.values())
    seen = set()
    for line in (REAL / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        label = json.loads(line)
        assert label["source"] in sources
        assert label["band"] in ("10-16", "16-40", "40-80", ">80")
        assert label["scene"] and (label["source"], label["path"]) not in seen
        seen.add((label["source"], label["path"]))
        assert all(str(Card.parse(card)) == card for card in label["cards"])


def test_photos_larger_than_the_side_asked_for_are_shrunk_to_it_and_counted(tmp_path):
    import cv2
    import numpy as np

    from bench.bench_real import read_photos

    class Shapes:
        def __init__(self):
            self.seen = []

        def recognize(self, image):
            self.seen.append(image.shape[:2])
            return []

    big, small = tmp_path / "big.png", tmp_path / "small.png"
    cv2.imwrite(str(big), np.zeros((1000, 2000, 3), np.uint8))
    cv2.imwrite(str(small), np.zeros((300, 500, 3), np.uint8))
    photos = [({"cards": ["5C"]}, big), ({"cards": []}, small)]
    recognizer = Shapes()
    rows, _, unreadable, shrunk = read_photos(recognizer, photos, max_side=1024)
    assert recognizer.seen == [(512, 1024), (300, 500)] and shrunk == 1 and not unreadable
    assert [score.missed for _, score in rows] == [1, 0]
    recognizer = Shapes()
    assert read_photos(recognizer, photos)[3] == 0 and recognizer.seen == [(1000, 2000), (300, 500)]


def test_a_wrong_read_naming_a_card_read_twice_is_counted_apart_from_a_silent_one():
    # a joker read as the 8C beside the real 8C: the device would see the 8C twice and ask
    s = score_photo(["8C", "5H"], ["8C", "8C", "5H"])
    assert (s.wrong, s.twice) == (1, 1)
    # a misread with no twin passes silently
    s = score_photo(["8C", "5H"], ["8C", "AD", "5H"])
    assert (s.wrong, s.twice) == (1, 0)
    # the same card read twice where the label has none: both wrong, both questioned
    s = score_photo([], ["AS", "AS"])
    assert (s.wrong, s.twice) == (2, 2)
    assert tally([({"k": 1}, s)], lambda label: "all")["all"]["twice"] == 2


def test_the_bench_says_how_many_wrong_reads_the_device_would_question():
    from collections import Counter

    from bench.bench_real import twice_line

    line = twice_line(Counter(wrong=4, twice=3))
    assert "3 name a card read twice" in line and "1 passes silently" in line
    assert "0 pass silently" in twice_line(Counter(wrong=2, twice=2))
    assert "1 names a card read twice" in twice_line(Counter(wrong=2, twice=1))


def test_a_silent_misread_is_paired_with_the_unread_card_of_its_suit_then_of_its_rank():
    score = score_photo(["QH", "AS", "7C", "9D"], ["8H", "4S", "7D", "9D"])
    assert sorted(confusions(score)) == [("7C", "7D"), ("AS", "4S"), ("QH", "8H")]
    assert confusion_line([score]).endswith("AS -> 4S, 7C -> 7D, QH -> 8H")


def test_a_card_read_twice_is_no_confusion_and_a_read_on_an_empty_table_is_paired_with_none():
    twice = score_photo(["8C", "KD"], ["8C", "8C", "KD"])
    assert confusions(twice) == []
    empty = score_photo([], ["AH"])
    assert confusions(empty) == [(None, "AH")]
    assert "none -> AH" in confusion_line([twice, empty, empty]) and "x2" in confusion_line([empty, empty])
