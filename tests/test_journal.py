"""The journal keeps every event across restarts and never overwrites a journal it cannot use."""

import os
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from device.errors import JournalError
from device.journal import JOURNAL_NAME, Journal, list_set_aside, read_entries

CONFIG = {"variant": "six-card", "players": 2, "muggins": True}


def fill(path, n=50, config=CONFIG, per_step=1):
    with Journal.open(path, config) as j:
        for i in range(0, n, per_step):
            j.append([{"kind": "peg", "player": k % 2, "points": k} for k in range(i, min(n, i + per_step))],
                     step=i)


def test_events_replay_in_order_after_reopening(tmp_path):
    path = tmp_path / JOURNAL_NAME
    fill(path, 10)
    with Journal.open(path, CONFIG) as j:
        assert j.notices == []
        entries = j.entries()
        assert [e.seq for e in entries] == list(range(1, 11))
        assert [e.event["points"] for e in entries] == list(range(10))
        assert j.last_step == 9
        assert j.append([{"kind": "x"}, {"kind": "y"}], step=10) == [11, 12]
    assert [e.event["kind"] for e in read_entries(path)][-2:] == ["x", "y"]


def test_journal_is_in_wal_mode_with_full_sync(tmp_path):
    with Journal.open(tmp_path / JOURNAL_NAME, CONFIG) as j:
        assert j.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_failed_step_leaves_nothing_half_written(tmp_path):
    with Journal.open(tmp_path / JOURNAL_NAME, CONFIG) as j:
        j.append([{"a": 1}], step=0)
        with pytest.raises(TypeError):
            j.append([{"b": 2}, {"c": object()}], step=1)  # not JSON: the whole step is refused
        assert [e.event for e in j.entries()] == [{"a": 1}]
        assert j.last_step == 0


def test_committed_events_survive_a_killed_writer(tmp_path):
    path = tmp_path / JOURNAL_NAME
    script = textwrap.dedent(f"""
        import os
        from device.journal import Journal
        j = Journal.open({str(path)!r}, {CONFIG!r})
        for i in range(20):
            j.append([{{"i": i}}], step=i)
        os.kill(os.getpid(), 9)
    """)
    subprocess.run([sys.executable, "-c", script], check=False)
    with Journal.open(path, CONFIG) as j:
        assert j.notices == []
        assert [e.event["i"] for e in j.entries()] == list(range(20))


def assert_set_aside(tmp_path, path, reason, original_bytes):
    with Journal.open(path, CONFIG) as j:
        assert len(j.notices) == 1 and "moved aside" in j.notices[0]
        assert len(j) == 0  # a fresh journal
    aside = list(list_set_aside(tmp_path))
    assert len(aside) == 1 and f".{reason}-" in aside[0].name
    assert aside[0].read_bytes() == original_bytes  # kept exactly as it was, not overwritten
    return j.notices[0]


def test_garbage_bytes_are_set_aside_not_overwritten(tmp_path):
    path = tmp_path / JOURNAL_NAME
    garbage = os.urandom(5000)
    path.write_bytes(garbage)
    assert_set_aside(tmp_path, path, "corrupt", garbage)


def test_a_truncated_journal_is_set_aside(tmp_path):
    path = tmp_path / JOURNAL_NAME
    fill(path, 3000, per_step=100)
    assert not os.path.exists(str(path) + "-wal")  # closed cleanly: everything is in the main file
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    notice = assert_set_aside(tmp_path, path, "corrupt", data[: len(data) // 2])
    assert "damaged" in notice or "cannot be read" in notice


def test_a_damaged_page_is_set_aside(tmp_path):
    path = tmp_path / JOURNAL_NAME
    fill(path, 3000, per_step=100)
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page: 5 * page] = os.urandom(2 * page)
    path.write_bytes(bytes(data))
    assert_set_aside(tmp_path, path, "corrupt", bytes(data))


def test_an_empty_file_is_set_aside(tmp_path):
    path = tmp_path / JOURNAL_NAME
    path.write_bytes(b"")
    assert_set_aside(tmp_path, path, "corrupt", b"")


def test_another_sqlite_database_is_foreign(tmp_path):
    path = tmp_path / JOURNAL_NAME
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (id INTEGER, name TEXT)")
    conn.execute("INSERT INTO photos VALUES (1, 'holiday')")
    conn.commit()
    conn.close()
    original = path.read_bytes()
    notice = assert_set_aside(tmp_path, path, "foreign", original)
    assert "not a Muggins journal" in notice


def test_a_journal_for_other_settings_is_set_aside(tmp_path):
    path = tmp_path / JOURNAL_NAME
    fill(path, 5, config={**CONFIG, "variant": "five-card"})
    original = path.read_bytes()
    notice = assert_set_aside(tmp_path, path, "other-game", original)
    assert "variant" in notice


def test_new_game_archives_the_old_journal(tmp_path):
    path = tmp_path / JOURNAL_NAME
    fill(path, 5)
    with Journal.open(path, CONFIG, new_game=True) as j:
        assert len(j) == 0 and "archived" in j.notices[0]
    archived = list(list_set_aside(tmp_path))
    assert len(archived) == 1 and ".archived-" in archived[0].name
    assert [e.event["points"] for e in read_entries(archived[0])] == list(range(5))


def test_archive_twice_in_one_second_keeps_both(tmp_path):
    path = tmp_path / JOURNAL_NAME
    for _ in range(3):
        fill(path, 2)
        Journal.open(path, CONFIG).archive()
    assert len(list(list_set_aside(tmp_path))) == 3


def test_an_unusable_state_directory_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(JournalError, match="state directory"):
        Journal.open(blocker / "sub" / JOURNAL_NAME, CONFIG)


def test_closing_twice_is_harmless(tmp_path):
    j = Journal.open(tmp_path / JOURNAL_NAME, CONFIG)
    j.close()
    j.close()
    with pytest.raises(JournalError):
        j.append([{"a": 1}])


def test_a_journal_cut_off_while_being_created_is_set_aside(tmp_path):
    path = tmp_path / JOURNAL_NAME
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    original = path.read_bytes()
    notice = assert_set_aside(tmp_path, path, "corrupt", original)
    assert "cut off while being created" in notice
