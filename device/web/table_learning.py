"""Learning the table's print from the set-up page, as `muggins calibrate --table` does, and reading
past it at once.

The empty table is read in the device recognizer's turn, by that recognizer without any print it
already reads past (device.table_print.plain_reader), so learning twice learns the same print. The
print is saved where `muggins run` finds it, and the running device reads past it from the next frame.
"""

from __future__ import annotations

from pathlib import Path


class TableLearner:
    """The table's print of one running device: what is learnt, and learning it again.

    watched is the device's WatchedRecognizer (device.web.camera_view); path the print's file."""

    def __init__(self, watched, config, path: Path):
        self.watched, self.config, self.path = watched, config, Path(path)

    def state(self) -> dict:
        """What the page shows of the print (_shown), or why the file cannot be used; "learnt" is False
        where the table was never learnt."""
        from device.table_print import TablePrintError, load_print

        try:
            table_print = load_print(self.path)
        except TablePrintError as exc:
            return {"learnt": False, "cards": [], "spots": [], "error": str(exc)}
        if table_print is None:
            return {"learnt": False, "cards": [], "spots": [], "error": None}
        return {**_shown(table_print), "error": None}

    def learn(self, image) -> dict:
        """Read the empty table in `image`, keep what reads as a card as its print, read past it from
        now on; a DeviceError where it cannot be saved (nothing changed then)."""
        from device.calibration import table_print_of
        from device.table_print import describe, plain_reader, reading_past, save_print

        with self.watched.turn():
            plain = plain_reader(self.watched.recognizer)
            table_print, _ = table_print_of(self.config, image, plain)
            save_print(self.path, table_print)
            self.watched.recognizer = reading_past(plain, table_print)
        return {**_shown(table_print), "saved": str(self.path),
                "message": f"{describe(table_print)}. Saved in {self.path}."}


def _shown(table_print) -> dict:
    """The print's cards by name (None: an outline left unread) and the spots where reads are dropped:
    centre as shares of the frame's width and height, reach as a share of its height."""
    from device.table_print import NEAR

    return {"learnt": True,
            "cards": [None if spot.card is None else spot.card.name for spot in table_print.cards],
            "spots": [{"card": None if spot.card is None else str(spot.card), "centre": list(spot.centre),
                       "reach": NEAR * spot.length} for spot in table_print.cards]}
