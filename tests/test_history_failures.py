"""Clean failure: a full disk, a read-only folder, a file deleted while in use. Each is one line
(NotSaved, a StorageError: the command line exits 1) saying what was not saved and that what was
saved before is kept; the database still opens afterwards."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest

from gpu_advisor.assistant.history import HistoryStore, NotSaved, StorageError


class FailingWrites:
    """The store's connection, with every INSERT or UPDATE answered by `error`."""

    def __init__(self, conn: sqlite3.Connection, error: str):
        self._conn, self._error = conn, error

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            raise sqlite3.OperationalError(self._error)
        return self._conn.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._conn, name)


@pytest.mark.parametrize(("error", "words"), [("database or disk is full", "the disk is full"),
                                               ("attempt to write a readonly database", "read-only"),
                                               ("disk I/O error", "a disk error")])
def test_a_refused_write_is_one_line_and_the_database_opens_afterwards(tmp_path, monkeypatch, error, words):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("kept")
    store.add_message(sid, "user", "saved before the failure")
    real = store.conn
    monkeypatch.setattr(store, "conn", FailingWrites(real, error))
    monkeypatch.setattr(store.db, "conn", store.conn)  # sqlite-utils' inserts too
    with pytest.raises(NotSaved) as caught:
        store.add_message(sid, "user", "never saved")
    message = str(caught.value)
    assert isinstance(caught.value, StorageError) and "\n" not in message
    assert words in message and "your message was not saved" in message and "saved before it is kept" in message
    assert caught.value.what == "your message"
    with pytest.raises(NotSaved, match="the reply was not saved"):
        store.save_reply(sid, "an answer", {}, {}, [])
    monkeypatch.setattr(store, "conn", real)
    monkeypatch.setattr(store.db, "conn", real)
    store.close()
    again = HistoryStore(path)
    assert again.notice is None
    assert [m["text"] for m in again.messages(sid)] == ["saved before the failure"]
    again.add_message(sid, "user", "saved after")
    again.close()


def test_a_real_full_disk_through_sqlite(tmp_path):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("full")
    store.add_message(sid, "user", "saved")
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")  # what SQLite says on a full disk
    with pytest.raises(NotSaved, match="disk is full"):
        store.save_reply(sid, "x" * 200_000, {}, {}, [{"tool": "t", "arguments": {}, "result": "y" * 100_000,
                                                       "duration_ms": 1.0}])
    store.close()
    again = HistoryStore(path)
    assert [m["text"] for m in again.messages(sid)] == ["saved"] and again.tool_calls(sid) == []
    again.close()


def test_a_database_file_deleted_while_in_use(tmp_path):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("vanishing")
    for side in ("", "-wal", "-shm"):
        (tmp_path / f"history.db{side}").unlink(missing_ok=True)
    with pytest.raises(NotSaved, match="deleted or replaced while in use") as caught:
        store.add_message(sid, "user", "would go to a deleted file")  # SQLite would write it into the void
    assert "your message was not saved" in str(caught.value)
    store.close()
    again = HistoryStore(path)  # a new database where the old one was
    assert again.notice is None and again.count_sessions() == 0
    again.close()


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs POSIX permissions (root ignores them)")
def test_a_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "history.db"
    store = HistoryStore(path)
    store.create_session("before")
    store.close()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        with pytest.raises(StorageError) as caught:
            HistoryStore(path)
        assert "\n" not in str(caught.value) and "nothing was read or saved" in str(caught.value)
    finally:
        folder.chmod(stat.S_IRWXU)
    assert HistoryStore(path).count_sessions() == 1


# ---------------------------------------------------------------- a session deleted while held open


def test_writing_into_a_deleted_session_is_session_gone_not_a_foreign_key_failure(tmp_path):
    from gpu_advisor.assistant.history import HistoryError, SessionGone

    store = HistoryStore(tmp_path / "history.db")
    sid = store.create_session("held open")
    store.add_message(sid, "user", "first")
    elsewhere = HistoryStore(tmp_path / "history.db")  # `gpu-advisor sessions delete` in another terminal
    elsewhere.delete(sid)
    elsewhere.close()
    with pytest.raises(SessionGone) as gone:
        store.add_message(sid, "user", "second")
    assert gone.value.session_id == sid and "was deleted" in str(gone.value) and "\n" not in str(gone.value)
    with pytest.raises(SessionGone):
        store.save_reply(sid, "a reply", {}, {}, [{"tool": "t", "arguments": {}, "result": {}, "duration_ms": 1}])
    with pytest.raises(HistoryError):
        store.session(sid)
    assert store.count_sessions() == 0
    assert store.conn.execute("SELECT count(*) FROM messages").fetchone()[0] == 0  # nothing left half-written


class Failing:
    """The store's connection with every statement answered by `error`."""

    def __init__(self, conn: sqlite3.Connection, error: Exception):
        self._conn, self._error = conn, error

    def execute(self, sql, *args):
        if sql.strip().upper() in ("ROLLBACK", "BEGIN IMMEDIATE") and not isinstance(self._error, sqlite3.OperationalError):
            return self._conn.execute(sql, *args)
        raise self._error

    def __getattr__(self, name):
        return getattr(self._conn, name)


@pytest.mark.parametrize("error", [sqlite3.IntegrityError("FOREIGN KEY constraint failed"),
                                   sqlite3.OperationalError("disk I/O error"),
                                   sqlite3.OperationalError("no such table: messages"),
                                   sqlite3.DatabaseError("database disk image is malformed"),
                                   sqlite3.InterfaceError("bad parameter")])
def test_every_failure_of_sqlite_reaches_the_caller_as_the_stores_own_error(tmp_path, monkeypatch, error):
    from gpu_advisor.assistant.history import HistoryError

    store = HistoryStore(tmp_path / "history.db")
    sid = store.create_session("s")
    store.add_message(sid, "user", "hello")
    monkeypatch.setattr(store, "conn", Failing(store.conn, error))
    calls = {
        "session": lambda: store.session(sid), "messages": lambda: store.messages(sid),
        "tool_calls": lambda: store.tool_calls(sid), "list_sessions": store.list_sessions,
        "count_sessions": store.count_sessions, "search": lambda: store.search("hello"),
        "rename": lambda: store.rename(sid, "new"), "delete": lambda: store.delete(sid),
        "add_message": lambda: store.add_message(sid, "user", "x"),
        "save_reply": lambda: store.save_reply(sid, "r", {}, {}, []),
        "create_session": store.create_session, "withdraw_message": lambda: store.withdraw_message("01J"),
        "export_markdown": lambda: store.export_markdown(sid),
    }
    for name, call in calls.items():
        with pytest.raises(HistoryError) as raised:
            call()
        assert "\n" not in str(raised.value), name
