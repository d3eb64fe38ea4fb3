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
        """What the page says of the print: its cards' names (None: an outline left unread), or why
        the file cannot be used; "learnt" is False where the table was never learnt."""
        from device.table_print import TablePrintError, load_print

        try:
            table_print = load_print(self.path)
        except TablePrintError as exc:
            return {"learnt": False, "cards": [], "error": str(exc)}
        if table_print is None:
            return {"learnt": False, "cards": [], "error": None}
        return {"learnt": True, "cards": _names(table_print), "error": None}

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
        return {"learnt": True, "cards": _names(table_print), "saved": str(self.path),
                "message": f"{describe(table_print)}. Saved in {self.path}."}


def _names(table_print) -> list[str | None]:
    return [None if spot.card is None else spot.card.name for spot in table_print.cards]
