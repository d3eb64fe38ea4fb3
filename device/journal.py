"""The journal: every game event is written here, synced to disk, before it is shown or said.

Kill the power at any moment and the game comes back from this file. It is one SQLite database
(WAL mode, synchronous=FULL, so a committed event survives a power cut) holding:

- a header row naming the application, the schema version and the game configuration, so a journal
  that belongs to something else, or to a different game, is recognised;
- the events, in order, each a JSON object, with the number of the input step that produced it
  (one input step's events are committed together, so a restart never sees half a step).

A journal that is corrupt, foreign or for another game is never overwritten: it is renamed aside with
a timestamp and the reason is reported in `Journal.notices`; a fresh journal takes its place.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from device.errors import JournalError
from device.files import sync_dir

APP = "muggins"
SCHEMA_VERSION = 1
# SQLite's application_id (bytes "MUGG"): identifies the file type in the database header itself.
APPLICATION_ID = 0x4D554747
JOURNAL_NAME = "journal.sqlite3"
_SIDE_FILES = ("-wal", "-shm")


@dataclass(frozen=True)
class Entry:
    """One journaled event: its sequence number (1, 2, ...), the input step that produced it, its body."""

    seq: int
    step: int | None
    event: dict


class Journal:
    """An open journal. Use `Journal.open(...)`; close it (or use `with`) when done; closing twice is harmless."""

    def __init__(self, path: Path, conn: sqlite3.Connection, header: dict, notices: list[str]):
        self.path = path
        self._conn: sqlite3.Connection | None = conn
        self.header = header
        self.notices = notices  # what was set aside on opening, one sentence each

    # ---- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike, game_config: dict, *, new_game: bool = False) -> "Journal":
        """Open the journal at `path` for a game played with `game_config`, creating it if needed.

        An existing journal is resumed when it is ours and for the same game configuration; otherwise
        (or with new_game) it is moved aside and a fresh one is started. Raises JournalError only when
        the file can be neither used nor moved (e.g. a read-only directory).
        """
        path = Path(path)
        notices: list[str] = []
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(f"cannot create the state directory {path.parent}: {exc.strerror}") from exc
        wanted = _canonical(game_config)
        if path.exists():
            if new_game:
                moved = set_aside(path, "archived")
                notices.append(f"started a new game; the previous journal was archived as {moved.name}")
            else:
                problem, conn, header = _inspect(path, wanted)
                if problem is None:
                    return cls(path, conn, header, notices)
                moved = set_aside(path, problem[0])
                notices.append(f"the journal {path} {problem[1]}; it was moved aside to {moved.name} "
                               "and a new game is started")
        else:
            _remove_stale_side_files(path)
        conn, header = _create(path, wanted)
        return cls(path, conn, header, notices)

    # ---- reading and writing ---------------------------------------------------------------

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"the journal {self.path} is closed")
        return self._conn

    def append(self, events: Sequence[dict], step: int | None = None) -> list[int]:
        """Write events in one synced transaction and return their sequence numbers.

        Nothing of a failed append is kept, so a step's events are all there or none are.
        """
        bodies = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in events]
        try:
            with self.conn:  # one transaction; committed (and fsynced: synchronous=FULL) on exit
                cur = self.conn.cursor()
                seqs = []
                for body in bodies:
                    cur.execute("INSERT INTO events(step, body) VALUES (?, ?)", (step, body))
                    seqs.append(int(cur.lastrowid))
                return seqs
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write to the journal {self.path}: {exc}") from exc

    def entries(self, after: int = 0) -> list[Entry]:
        """Every event with a sequence number above `after`, in order."""
        rows = self.conn.execute("SELECT seq, step, body FROM events WHERE seq > ? ORDER BY seq", (after,))
        return [Entry(seq, step, json.loads(body)) for seq, step, body in rows]

    def events(self) -> list[dict]:
        return [e.event for e in self.entries()]

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    @property
    def last_step(self) -> int | None:
        """The number of the last input step that was journaled (None if none was)."""
        row = self.conn.execute("SELECT MAX(step) FROM events").fetchone()
        return None if row[0] is None else int(row[0])

    @property
    def game_config(self) -> dict:
        return self.header["config"]

    # ---- closing ---------------------------------------------------------------------------

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def archive(self) -> Path:
        """Close this journal and move it aside (for a new game); returns where it went."""
        self.close()
        return set_aside(self.path, "archived")

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_entries(path: str | os.PathLike) -> list[Entry]:
    """The events of a journal file, read-only (for tests and tools); raises JournalError if unreadable."""
    try:
        conn = sqlite3.connect(f"file:{Path(path)}?mode=ro", uri=True)
        try:
            rows = conn.execute("SELECT seq, step, body FROM events ORDER BY seq").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the journal {path}: {exc}") from exc
    return [Entry(seq, step, json.loads(body)) for seq, step, body in rows]


def set_aside(path: Path, reason: str) -> Path:
    """Rename a journal (and its WAL side files) to `<name>.<reason>-<UTC time>`; never overwrite."""
    target = _stamped_name(path, reason)
    try:
        os.rename(path, target)
        for suffix in _SIDE_FILES:
            side = Path(str(path) + suffix)
            if side.exists():
                os.rename(side, Path(str(target) + suffix))
        sync_dir(path.parent)
    except OSError as exc:
        raise JournalError(f"the journal {path} cannot be used and cannot be moved aside: {exc.strerror}; "
                           "move it away by hand or choose another state directory") from exc
    return target


# ---- internals -----------------------------------------------------------------------------


def _canonical(config: dict) -> dict:
    """The configuration as it reads back from JSON (tuples become lists), so comparisons are fair."""
    return json.loads(json.dumps(config, sort_keys=True))


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level="DEFERRED", check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def _inspect(path: Path, wanted: dict):
    """(None, conn, header) for a usable journal, else ((reason, sentence), None, None)."""
    conn = None
    try:
        if path.stat().st_size == 0 and not Path(str(path) + "-wal").exists():
            return ("corrupt", "is empty (it was cut off while being created)"), None, None
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, check_same_thread=False)
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            conn.close()
            return ("corrupt", "is empty (it was cut off while being created)"), None, None
        if app_id != APPLICATION_ID or not {"header", "events"} <= tables:
            conn.close()
            return ("foreign", "is an SQLite database but not a Muggins journal"), None, None
        check = conn.execute("PRAGMA quick_check").fetchall()
        if check != [("ok",)]:
            conn.close()
            return ("corrupt", "is damaged (" + "; ".join(str(r[0]) for r in check[:3]) + ")"), None, None
        row = conn.execute("SELECT app, schema, config, created FROM header WHERE id = 1").fetchone()
        if row is None or row[0] != APP:
            conn.close()
            return ("foreign", "has no Muggins header"), None, None
        if row[1] != SCHEMA_VERSION:
            conn.close()
            return ("foreign", f"was written by schema version {row[1]}, this is version {SCHEMA_VERSION}"), \
                None, None
        config = json.loads(row[2])
        if config != wanted:
            conn.close()
            diff = sorted(k for k in set(config) | set(wanted) if config.get(k) != wanted.get(k))
            return ("other-game", "is for a game with different settings (" + ", ".join(diff) + ")"), None, None
        # Touch every event so a damaged body is found now, not in the middle of a game.
        for (body,) in conn.execute("SELECT body FROM events ORDER BY seq"):
            json.loads(body)
        conn.close()
        conn = _connect(path)
        return None, conn, {"app": row[0], "schema": row[1], "config": config, "created": row[3]}
    except (sqlite3.Error, ValueError, OSError) as exc:
        if conn is not None:
            conn.close()
        return ("corrupt", f"cannot be read ({exc})"), None, None


def _create(path: Path, config: dict) -> tuple[sqlite3.Connection, dict]:
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    try:
        conn = _connect(path)
        with conn:
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            conn.execute("CREATE TABLE header (id INTEGER PRIMARY KEY CHECK (id = 1), app TEXT NOT NULL, "
                         "schema INTEGER NOT NULL, config TEXT NOT NULL, created TEXT NOT NULL)")
            conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, step INTEGER, "
                         "body TEXT NOT NULL)")
            conn.execute("INSERT INTO header VALUES (1, ?, ?, ?, ?)",
                         (APP, SCHEMA_VERSION, json.dumps(config, sort_keys=True), created))
        sync_dir(path.parent)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot create the journal {path}: {exc}") from exc
    return conn, {"app": APP, "schema": SCHEMA_VERSION, "config": config, "created": created}


def _remove_stale_side_files(path: Path) -> None:
    """A -wal/-shm without its database is an orphan from a set-aside journal: never mix it into a new one."""
    for suffix in _SIDE_FILES:
        side = Path(str(path) + suffix)
        if side.exists():
            os.rename(side, _stamped_name(side, "orphan"))


def _stamped_name(path: Path, tag: str) -> Path:
    """`<name>.<tag>-<UTC time>`, with a counter added if that name is taken: nothing is overwritten."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.{tag}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{tag}-{stamp}-{n}")
    return target




def list_set_aside(state_dir: str | os.PathLike) -> Iterable[Path]:
    """Journals moved aside in a state directory (archived, corrupt, foreign), oldest name first."""
    return sorted(p for p in Path(state_dir).glob(f"{JOURNAL_NAME}.*") if not p.name.endswith(_SIDE_FILES))
