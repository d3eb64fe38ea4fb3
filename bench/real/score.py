"""Score the recognizer's reads of a real photo against its label, by multisets of cards.

A photo's label lists every face-up card whose index a person can read; there are no outlines to
match against, so the reads are compared as multisets:
- right: reported cards that match a label card (multiset intersection);
- wrong: reported cards (not null) left over: a misread, a card read twice (one right, one wrong),
  or a card read where the label has none;
- unread: cards reported with card null (seen, not read);
- missed: label cards that no report matched.
Of the wrong reads, those naming a card reported more than once in the photo are counted apart
(twice): the device's table tracker says it sees that card twice and asks for one to be taken away
(device/trouble.py), where any other wrong read passes silently as a card.
Pure functions only, so the tests can check them; bench/bench_real.py does the reading and printing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

FIELDS = ("photos", "cards", "right", "wrong", "unread", "missed")


@dataclass(frozen=True)
class Score:
    """One photo's counts; cards is the number of label cards."""

    cards: int
    right: int
    wrong: int
    unread: int
    missed: int
    wrong_reads: tuple[str, ...] = ()
    twice: int = 0  # of the wrong reads, those naming a card reported more than once in the photo
    missed_cards: tuple[str, ...] = ()
    twice_cards: tuple[str, ...] = ()

    def as_counter(self) -> Counter:
        return Counter(photos=1, cards=self.cards, right=self.right, wrong=self.wrong,
                       unread=self.unread, missed=self.missed, twice=self.twice)


def score_photo(label: Sequence[str], reported: Iterable[str | None]) -> Score:
    """Compare the label's cards ('5H', ...) with the reported cards (str, or None for unread)."""
    truth = Counter(label)
    reported = list(reported)
    read = Counter(card for card in reported if card is not None)
    right = truth & read
    extra = read - right
    return Score(cards=sum(truth.values()), right=sum(right.values()), wrong=sum(extra.values()),
                 unread=sum(card is None for card in reported), missed=sum((truth - right).values()),
                 wrong_reads=tuple(sorted(extra.elements())),
                 twice=sum(n for card, n in extra.items() if read[card] > 1),
                 missed_cards=tuple(sorted((truth - right).elements())),
                 twice_cards=tuple(sorted(card for card, n in extra.items() if read[card] > 1 for _ in range(n))))


def confusions(score: Score) -> list[tuple[str | None, str]]:
    """(the card the photo holds, the card read) for each silent wrong read: the labels have no
    outlines, so each is paired with a card of the photo left unread, one of its suit first (a rank
    misread), then of its rank (a suit misread), then any; None where no card is left to pair with
    (a card read where the label has none). Wrong reads of a card read twice are left out: the
    device questions those."""
    twice = Counter(score.twice_cards)
    silent = list((Counter(score.wrong_reads) - twice).elements())
    left = list(score.missed_cards)
    pairs = []
    for read in silent:
        for alike in (lambda c: c[1] == read[1], lambda c: c[0] == read[0], lambda c: True):
            match = next((c for c in left if alike(c)), None)
            if match is not None:
                left.remove(match)
                break
        pairs.append((match, read))
    return pairs


def confusion_line(scores: Iterable[Score]) -> str:
    """The silent wrong reads as 'held -> read' with their counts, most frequent first."""
    counted = Counter(f"{held or 'none'} -> {read}" for score in scores for held, read in confusions(score))
    return "silent wrong reads (held -> read, paired with a card of the photo left unread): " + \
        (", ".join(f"{pair}" + (f" x{n}" if n > 1 else "") for pair, n in counted.most_common()) or "none")


def tally(rows: Iterable[tuple[dict, Score]], key) -> dict[str, Counter]:
    """Sum the scores of (label, score) rows by key(label) (e.g. its source, band or scene)."""
    totals: dict[str, Counter] = {}
    for label, score in rows:
        totals.setdefault(key(label), Counter()).update(score.as_counter())
    return totals


def pct(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:6.1f} %" if whole else "     -  "


def format_table(title: str, totals: dict[str, Counter], order: Sequence[str] | None = None) -> list[str]:
    """Lines of a table: one row per key (in `order`, else sorted), columns photos, cards, right %,
    wrong % (of the label cards, so a misread counts against both), unread, missed."""
    width = max([len(title)] + [len(k) for k in totals])
    lines = [f"{title:{width}s} {'photos':>6s} {'cards':>6s} {'right':>9s} {'wrong':>9s} {'unread':>7s} {'missed':>7s}"]
    for k in (order if order is not None else sorted(totals)):
        if k not in totals:
            continue
        t = totals[k]
        lines.append(f"{k:{width}s} {t['photos']:6d} {t['cards']:6d} {pct(t['right'], t['cards']):>9s} "
                     f"{pct(t['wrong'], t['cards']):>9s} {t['unread']:7d} {t['missed']:7d}")
    return lines
