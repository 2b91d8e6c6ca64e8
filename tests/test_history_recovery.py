"""Recovery that cannot race: several processes find the same damaged database at once. Exactly one
moves it aside (opening and moving happen under NAME.lock), the others wait and open the new database, and every message any
of them was given is saved."""

from __future__ import annotations

import contextlib
import multiprocessing
import sqlite3
from pathlib import Path

import pytest

import gpu_advisor.assistant.history as history
from gpu_advisor.assistant.history import HistoryError, HistoryStore

WORKERS = 6
MESSAGES = 5


def _worker(path: str, tag: int, barrier, results) -> None:
    barrier.wait()  # every process opens the damaged file at the same moment
    try:
        store = HistoryStore(path)
        sid = store.create_session(f"worker {tag}")
        for i in range(MESSAGES):
            store.add_message(sid, "user", f"message {i} from worker {tag}")
        results.put((tag, store.notice, None))
        store.close()
    except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
        results.put((tag, None, f"{type(exc).__name__}: {exc}"))


def _damaged_database(path: Path) -> bytes:
    store = HistoryStore(path)
    sid = store.create_session("before the damage")
    store.add_message(sid, "user", "an old message")
    store.close()
    data = bytearray(path.read_bytes())
    data[4096 * 2: 4096 * 3] = b"\xde\xad" * 2048  # one page of the tables scribbled over
    path.write_bytes(bytes(data))
    for side in ("-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)
    return bytes(data)


@pytest.mark.slow
def test_processes_that_find_the_same_damaged_file_recover_it_once(tmp_path):
    path = tmp_path / "history.db"
    damaged = _damaged_database(path)
    with contextlib.suppress(sqlite3.DatabaseError):  # the injected damage is real
        assert sqlite3.connect(path).execute("PRAGMA quick_check").fetchone()[0] != "ok"

    ctx = multiprocessing.get_context("spawn")
    barrier, results = ctx.Barrier(WORKERS), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(path), n, barrier, results)) for n in range(WORKERS)]
    for p in procs:
        p.start()
    outcomes = [results.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=120)

    assert [error for _tag, _notice, error in outcomes if error] == []
    notices = [notice for _tag, notice, _error in outcomes if notice]
    assert len(notices) == 1 and "moved to" in notices[0]  # exactly one process moved the file aside
    moved = sorted(p.name for p in tmp_path.glob("history.db.damaged-*"))
    # one copy aside; a process that opened the damaged file first leaves -wal/-shm files that move with it
    assert {name.removesuffix("-wal").removesuffix("-shm") for name in moved} == {"history.db.damaged-1"}
    assert (tmp_path / "history.db.damaged-1").read_bytes() == damaged  # kept byte for byte
    store = HistoryStore(path)
    assert store.notice is None
    texts = {m[0] for m in store.conn.execute("SELECT text FROM messages WHERE text LIKE 'message %'")}
    assert texts == {f"message {i} from worker {n}" for n in range(WORKERS) for i in range(MESSAGES)}
    store.close()


def test_a_file_replaced_while_waiting_for_the_lock_is_opened_not_moved(tmp_path, monkeypatch):
    """The process that waited finds another file in place of the damaged one: it opens that one."""
    path = tmp_path / "history.db"
    path.write_bytes(history.SQLITE_MAGIC + b"damaged" * 100)
    real_lock = HistoryStore._open_lock

    def another_process_recovers_first(self):
        monkeypatch.setattr(HistoryStore, "_open_lock", real_lock)
        path.unlink()
        HistoryStore(tmp_path / "elsewhere.db").close()
        (tmp_path / "elsewhere.db").rename(path)  # a sound database, put there by the other process
        return real_lock(self)

    monkeypatch.setattr(HistoryStore, "_open_lock", another_process_recovers_first)
    store = HistoryStore(path)
    assert store.notice is None and not list(tmp_path.glob("history.db.damaged-*"))
    store.close()


def test_a_file_that_is_not_sqlite_is_refused_even_after_the_lock(tmp_path, monkeypatch):
    path = tmp_path / "history.db"
    path.write_bytes(history.SQLITE_MAGIC + b"damaged" * 100)
    real_lock = HistoryStore._open_lock

    def a_document_appears(self):
        path.write_text('{"not": "a database"}', encoding="utf-8")
        monkeypatch.setattr(HistoryStore, "_open_lock", real_lock)
        return real_lock(self)

    monkeypatch.setattr(HistoryStore, "_open_lock", a_document_appears)
    with pytest.raises(HistoryError, match="does not start with the SQLite header"):
        HistoryStore(path)
    assert path.read_text(encoding="utf-8") == '{"not": "a database"}'
    assert not list(tmp_path.glob("history.db.damaged-*"))
