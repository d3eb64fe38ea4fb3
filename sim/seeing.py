"""What it took the device to see a game: cards laid, read at first sight, asked to move, misread.

The script knows which card each player laid and where; the device's tracker says what the device
held on the table after each look, and its journal what it asked. Nothing here reads a card:
- a card laid: one that lies in a zone where it did not lie on the table before (a card laid by
  mistake and taken back, then played, is laid twice);
- read at first sight: a card laid that the tracker's stable table held in its zone after the first
  look at the step that laid it;
- asked to move: each "I can't read the card … move it into the light" notice the controller
  journals (the script lays one card in the dark on purpose: that ask is right);
- misread: a card the tracker held in a zone where no such card lay, counted when it appears.
Each step's figures are written to a file beside the journal as the step ends, just before the
controller journals it, so a demo killed and resumed reports what an uninterrupted one does: a step
not journaled is taken again, and its figures replaced.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from device.device_events import Notice
from sim.table_script import TableStep

SEEING_NAME = "seeing.jsonl"
ASKS = ("unreadable", "too-few")  # device.trouble's notices asking the players to lay a card so it is seen


@dataclass
class StepSight:
    """One script step's figures."""

    step: int
    laid: int = 0
    first_sight: int = 0
    asked: int = 0
    misread: int = 0


def laid_pairs(step: TableStep | None) -> frozenset:
    """(zone, card) for every card lying face up on this table (the one in the dark too)."""
    if step is None:
        return frozenset()
    return frozenset((zone, card) for zone, cards in step.zones for card in cards)


def held_pairs(table) -> frozenset:
    """(zone, card) for every card the tracker's stable table holds."""
    return frozenset((zone, card) for zone, cards in table.cards.items() for card in cards)


def asks_in(records) -> int:
    """The notices asking to move a card into the light, or to lay a short count apart, among a step's
    records (the controller's, to be journaled)."""
    return sum(isinstance(r, Notice) and r.kind in ASKS for r in records)


class Seeing:
    """The figures, step by step: begin(step), laid(table, before) when a table is laid, looked(table,
    held) after each look, end(asked). path: where they are kept (None: in memory only)."""

    def __init__(self, path: Path | None = None, steps: dict[int, StepSight] | None = None):
        self.path = path
        self.steps: dict[int, StepSight] = dict(steps or {})
        self._now: StepSight | None = None
        self._new: frozenset | None = None   # the cards just laid, until the first look at them
        self._wrong: frozenset = frozenset()  # the wrong (zone, card) held after the last look

    @classmethod
    def resumed(cls, path: Path, before: int) -> Seeing:
        """The figures kept at path for the steps before `before` (the first not journaled); a step
        from `before` on is taken again, and a line cut off by a kill is dropped. The file is
        rewritten with what is kept (a new game: empty)."""
        steps: dict[int, StepSight] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                try:
                    sight = StepSight(**json.loads(line))
                except (ValueError, TypeError):
                    continue
                if sight.step < before:
                    steps[sight.step] = sight
        path.write_text("".join(json.dumps(asdict(s)) + "\n" for s in steps.values()), encoding="utf-8")
        return cls(path, steps)

    def begin(self, index: int) -> None:
        self._now = StepSight(index)
        self._new = None

    def laid(self, table: TableStep, before: TableStep | None) -> None:
        """The script lays this table where `before` lay (None: a bare table)."""
        if self._now is None:
            return
        self._new = laid_pairs(table) - laid_pairs(before)
        self._now.laid += len(self._new)

    def looked(self, table: TableStep, held, dark: bool = False) -> None:
        """One look at `table`: the tracker's stable table is now `held` (nothing seen when dark)."""
        if self._now is None:
            return
        seen = frozenset() if dark else held_pairs(held)
        if self._new is not None:
            self._now.first_sight += len(self._new & seen)
            self._new = None
        if dark:
            return
        wrong = seen - laid_pairs(table)
        self._now.misread += len(wrong - self._wrong)
        self._wrong = wrong

    def end(self, asked: int) -> None:
        if self._now is None:
            return
        self._now.asked = asked
        self.steps[self._now.step] = self._now
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(asdict(self._now)) + "\n")
        self._now = None

    def totals(self) -> dict[str, int]:
        """The game's figures, as the demo's final line reports them."""
        steps = self.steps.values()
        return {"cards_laid": sum(s.laid for s in steps), "read_at_first_sight": sum(s.first_sight for s in steps),
                "asked_to_move": sum(s.asked for s in steps), "misread": sum(s.misread for s in steps)}


def plain_line(totals: dict[str, int]) -> str:
    """The figures as the demo prints them without --json."""
    return (f"seeing: {totals['cards_laid']} cards laid, {totals['read_at_first_sight']} read at first sight, "
            f"{totals['asked_to_move']} asked to move into the light, {totals['misread']} misread")
