"""Fault injection on the history store: damaged write-ahead logs and database files, rows with bad
bytes, a writer killed mid-transaction, a full disk and failed outputs. The rule checked throughout:
no committed message is lost without a notice, and the notice says where the original files are."""

from __future__ import annotations

import errno
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_advisor.assistant.history import HistoryError, HistoryStore, StorageError

HELPER = Path(__file__).resolve().parent / "helpers_history.py"
ROOT = Path(__file__).resolve().parent.parent
FRAME = 24 + 4096  # a log frame: its header and one page
TEXTS = [f"committed message {i} " * 8 for i in range(40)]


@pytest.fixture(scope="module")
def crashed(tmp_path_factory) -> Path:
    """A database whose messages are all still in its write-ahead log: the files as a crash leaves
    them (copied while the store is open, so nothing was checkpointed)."""
    folder = tmp_path_factory.mktemp("crashed")
    live = HistoryStore(folder / "live.db")
    sid = live.create_session("crash")
    for text in TEXTS:
        live.add_message(sid, "user", text)
    for side in ("", "-wal", "-shm"):
        shutil.copy(f"{folder}/live.db{side}", f"{folder}/history.db{side}")
    live.close()
    return folder / "history.db"


def copy_of(crashed: Path, folder: Path) -> Path:
    for side in ("", "-wal", "-shm"):
        shutil.copy(f"{crashed}{side}", f"{folder}/history.db{side}")
    return folder / "history.db"


def texts(store: HistoryStore) -> set[str]:
    return {m["text"] for r in store.list_sessions() for m in store.messages(r.id)}


def garble(offset: int, n: int = 64):
    def damage(data: bytearray) -> bytearray:
        data[offset: offset + n] = random.Random(offset).randbytes(n)
        return data
    return damage


WAL_DAMAGE = {
    "early-frame": garble(32 + 5 * FRAME + 200),
    "late-frame": garble(32 + 60 * FRAME + 200),
    "frame-salt": garble(32 + 30 * FRAME + 8, 4),
    "header": garble(0, 8),
    "cut-mid-frame": lambda d: d[: 32 + 100 * FRAME + 999],
    "cut-at-a-frame": lambda d: d[: 32 + 100 * FRAME],
}


@pytest.mark.parametrize("kind", list(WAL_DAMAGE))
def test_a_damaged_log_is_kept_reported_and_recovered_from(crashed, tmp_path, kind):
    path = copy_of(crashed, tmp_path)
    wal = Path(f"{path}-wal")
    wal.write_bytes(bytes(WAL_DAMAGE[kind](bytearray(wal.read_bytes()))))
    damaged = {side: Path(f"{path}{side}").read_bytes() for side in ("", "-wal", "-shm")}

    store = HistoryStore(path)
    assert store.notice and "write-ahead log was damaged" in store.notice
    kept = tmp_path / "history.db.damaged-1"
    assert str(kept) in store.notice
    for side, data in damaged.items():  # the originals are kept byte for byte, side by side
        assert Path(f"{kept}{side}").read_bytes() == data
    found = texts(store)
    assert found <= set(TEXTS)
    if kind not in ("cut-mid-frame", "cut-at-a-frame"):  # a cut log has lost its tail for good
        assert len(found) >= len(TEXTS) - 3, "the frames after the damage are recovered"
    store.add_message(store.list_sessions()[0].id, "user", "after the damage")  # the store works on
    store.close()
    again = HistoryStore(path)
    assert again.notice is None and "after the damage" in texts(again)
    again.close()


def test_an_undamaged_log_after_a_crash_gives_no_notice(crashed, tmp_path):
    store = HistoryStore(copy_of(crashed, tmp_path))
    assert store.notice is None
    assert texts(store) == set(TEXTS)
    assert not list(tmp_path.glob("*.damaged-*"))
    store.close()


def test_second_damage_does_not_overwrite_the_first_copies(crashed, tmp_path):
    # a second, different damage gets its own copies; the same damage again (a recovery killed and run again) names
    # the copies already made, byte for byte the same, and makes no new ones (h-robust: copies are made once)
    first = None
    for n, offset in ((1, 0), (2, 8), (2, 8)):
        path = copy_of(crashed, tmp_path)
        wal = Path(f"{path}-wal")
        wal.write_bytes(bytes(garble(offset, 8)(bytearray(wal.read_bytes()))))
        store = HistoryStore(path)
        assert f"history.db.damaged-{n}" in store.notice
        store.close()
        first = first or (tmp_path / "history.db.damaged-1-wal").read_bytes()
    assert (tmp_path / "history.db.damaged-1-wal").read_bytes() == first  # never overwritten
    assert (tmp_path / "history.db.damaged-1-wal").read_bytes() != (tmp_path / "history.db.damaged-2-wal").read_bytes()
    assert not (tmp_path / "history.db.damaged-3").exists()


@pytest.mark.parametrize("value", [5, 255, 0x01000000])
def test_a_damaged_schema_format_byte_is_moved_aside_and_recovered(crashed, tmp_path, value):
    source = HistoryStore(copy_of(crashed, tmp_path))
    source.close()  # checkpointed: every message is in the main file now
    path = tmp_path / "history.db"
    data = bytearray(path.read_bytes())
    data[44:48] = value.to_bytes(4, "big")
    path.write_bytes(bytes(data))

    store = HistoryStore(path)
    assert store.notice and "schema format" in store.notice and "moved to" in store.notice
    assert (tmp_path / "history.db.damaged-1").read_bytes() == bytes(data)
    assert texts(store) == set(TEXTS)
    store.close()
    assert HistoryStore(path).notice is None  # not "unsupported file format" forever


# ---------------------------------------------------------------- bad bytes in one row


@pytest.fixture
def bad_row(tmp_path):
    store = HistoryStore(tmp_path / "history.db")
    sid = store.create_session("bad bytes")
    store.add_message(sid, "user", "fine-tune a 27B model")
    store.save_reply(sid, "an answer", {"gpu_advisor": {"kind": "answer"}}, {"profile": {}}, [])
    store.add_message(sid, "user", "a damaged message")
    raw = sqlite3.connect(store.path)
    with raw:
        raw.execute("UPDATE messages SET text = CAST(x'fffe64616d61676564' AS TEXT) WHERE seq = 3")
        raw.execute("UPDATE messages SET payload = '{not json' WHERE seq = 2")
        raw.execute("UPDATE sessions SET state = CAST(x'c328' AS TEXT)")
    raw.close()
    return store, sid


def test_a_row_with_invalid_utf8_affects_that_row_only(bad_row):
    store, sid = bad_row
    messages = store.messages(sid)
    assert [m["text"] for m in messages][:2] == ["fine-tune a 27B model", "an answer"]
    assert "damaged" in messages[2]["text"] and "\ufffd" in messages[2]["text"]
    assert messages[1]["payload"] == {}  # a damaged payload reads as empty
    assert store.session(sid)["state"] == {}
    assert "27B" in store.export_text(sid) and '"an answer"' in store.export_text(sid, "json")
    assert [r.id for r in store.search("damaged")] == [sid]
    from gpu_advisor.assistant.session import Conversation, rerun

    assert len(Conversation.resume(store, sid).messages) == 3
    assert isinstance(rerun(store, sid), list)


# ---------------------------------------------------------------- killed writers, full disks


def test_a_writer_killed_mid_transaction_loses_only_its_uncommitted_change(tmp_path):
    path = tmp_path / "history.db"
    p = subprocess.Popen([sys.executable, str(HELPER), "hold-transaction", str(path), "20"], cwd=ROOT, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.PIPE)
    try:
        line = p.stdout.readline().strip()
        assert line.startswith("holding "), p.stderr.read()
        p.kill()
        p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    store = HistoryStore(path)
    assert store.notice is None
    [row] = store.list_sessions()
    assert [m["text"] for m in store.messages(row.id)] == [f"kept {i}" for i in range(20)]
    store.close()


def test_a_full_disk_is_one_line_naming_what_was_not_saved(tmp_path):
    store = HistoryStore(tmp_path / "history.db")
    sid = store.create_session("full")
    store.add_message(sid, "user", "saved before the disk filled")
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")  # what SQLite says on a full disk
    with pytest.raises(StorageError, match="disk is full") as caught:
        store.add_message(sid, "user", "x" * 100_000)
    assert "not saved" in str(caught.value) and "\n" not in str(caught.value)
    assert [m["text"] for m in store.messages(sid)] == ["saved before the disk filled"]
    store.close()


def test_a_read_only_database_is_an_environment_error(tmp_path):
    path = tmp_path / "history.db"
    HistoryStore(path).close()
    raw = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    store = HistoryStore.__new__(HistoryStore)  # a store whose connection cannot write
    store.path, store.conn = path, raw
    with pytest.raises(StorageError, match="read-only"), store._write():
        raw.execute("INSERT INTO _migrations VALUES ('x', 'y')")
    raw.close()


# ---------------------------------------------------------------- atomic outputs


@pytest.fixture
def store(tmp_path):
    s = HistoryStore(tmp_path / "history.db")
    sid = s.create_session("outputs")
    s.add_message(sid, "user", "hello")
    yield s, sid
    s.close()


def test_a_failed_backup_leaves_nothing_behind_and_the_retry_works(store, tmp_path, monkeypatch):
    s, _sid = store
    target = tmp_path / "out" / "backup.db"
    real = s.conn

    class FullDisk:
        def execute(self, sql, *args):
            if sql.startswith("VACUUM INTO"):
                Path(args[0][0]).write_bytes(b"partial" * 1000)
                raise sqlite3.OperationalError("database or disk is full")
            return real.execute(sql, *args)

    monkeypatch.setattr(s, "conn", FullDisk())
    with pytest.raises(StorageError, match="no backup was written"):
        s.backup(target)
    assert list(target.parent.iterdir()) == []
    monkeypatch.setattr(s, "conn", real)
    assert s.backup(target) == target and sqlite3.connect(target).execute("SELECT count(*) FROM messages").fetchone() == (1,)


def test_a_failed_export_leaves_nothing_behind(store, tmp_path, monkeypatch):
    s, sid = store

    def full(self, *args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(StorageError, match="no export was written"):
        s.export_to(sid, tmp_path / "report.md")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.db", "history.db-shm", "history.db-wal", "history.db.lock",
                                                          "history.db.sessions.lock"]


def test_outputs_refuse_symlinks_existing_files_and_missing_folders(store, tmp_path):
    s, sid = store
    secret = tmp_path / "secret.txt"
    secret.write_text("keep")
    (tmp_path / "link.md").symlink_to(secret)
    (tmp_path / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    for name in ("link.md", "dangling.md"):
        with pytest.raises(HistoryError, match="symbolic link"):
            s.export_to(sid, tmp_path / name, overwrite=True)
        with pytest.raises(HistoryError, match="symbolic link"):
            s.backup(tmp_path / name)
    assert secret.read_text() == "keep" and not (tmp_path / "nowhere.md").exists()
    with pytest.raises(HistoryError, match="exists"):
        s.export_to(sid, secret)
    with pytest.raises(StorageError, match="does not exist"):
        s.export_to(sid, tmp_path / "missing" / "report.md")
    assert s.export_to(sid, secret, overwrite=True) == secret and "hello" in secret.read_text()


# ---------------------------------------------------------------- stored state is data


@pytest.mark.parametrize("state", [
    {"profile": {"users": "many"}, "pending": {"x": 1}},  # wrong types: rebuilt on resume
    {"profile": {"users": 3}, "pending": "no-such-slot", "asked": ["nope"], "lang": "xx"},
    {"profile": {"phase": "serve"}, "results": {"recommend": "not a result", "serving_memory": 5},
     "defaulted": {"context": "4k"}, "cards": {"a": None}},  # the right shape, the wrong content
])
def test_a_damaged_or_crafted_state_does_not_break_later_turns(tmp_path, state):
    import json

    from gpu_advisor.assistant.session import Conversation

    store = HistoryStore(tmp_path / "history.db")
    conv = Conversation(store)
    conv.send("serve a 27B model to 20 users")
    store.conn.execute("UPDATE sessions SET state = ?", (json.dumps(state),))
    resumed = Conversation.resume(store, conv.session_id)
    reply = resumed.send("actually 40 users")
    assert str(reply.content)
    assert resumed.state.get("profile", {}).get("users") == 40
    store.close()
