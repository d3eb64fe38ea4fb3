"""What the tracker reports and the controller reads: a change of the stable table, and its kinds.

Standard library only (beside the card type), so the controller can read the events without
importing OpenCV.
"""

from __future__ import annotations

from dataclasses import dataclass

from cribbage.cards import Card

APPEARED, LEFT, UNREADABLE, DUPLICATE = "appeared", "left", "unreadable", "duplicate"


@dataclass(frozen=True)
class ZoneEvent:
    """A change of the stable table.

    kind: "appeared" (card now lies in zone), "left" (card no longer there: taken, turned
          face down, or moved: then an "appeared" elsewhere follows at once; card None: one
          unreadable card fewer, gone or read at last),
          "unreadable" (one more card lies in zone that cannot be read; card is None),
          "duplicate" (card seen in zone and other_zone at once, the same zone twice if both
          copies lie there: two decks, or a misread).
    """

    kind: str
    zone: str
    card: Card | None
    timestamp: float
    other_zone: str | None = None

    def to_dict(self) -> dict:
        out = {"kind": self.kind, "zone": self.zone, "card": None if self.card is None else str(self.card),
               "timestamp": self.timestamp}
        if self.other_zone is not None:
            out["other_zone"] = self.other_zone
        return out
