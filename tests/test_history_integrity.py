"""Nothing lost (issue 26, data loss): a recovery killed at any step, exports aimed at the database,
a deleted write-ahead log, another application's SQLite file, two writers of one session, and a
killed backup's leftover. Kills are real: a forked child runs until a step and ends with os._exit,
so no `finally` and no rollback runs, as with `kill -9`."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpu_advisor.assistant.history.store as store_module
from gpu_advisor.assistant.history import HistoryError, HistoryStore

ROOT = Path(__file__).resolve().parent.parent
HELPER = ROOT / "tests" / "helpers_history.py"
STEPS = ("copied sessions", "copied messages", "copied tool_calls", "built", "renamed", "moved-shm", "moved-wal",
         "kept")


def _crashed_history(path: Path, sessions: int, messages: int) -> set[str]:
    """A history whose last messages are only in its write-ahead log (the writer was killed), with a
    damaged header: opening it recovers every message. Returns the texts it holds."""
    work = path.parent / "work"
    work.mkdir(exist_ok=True)
    source = work / "history.db"
    store = HistoryStore(source)
    texts = set()
    for s in range(sessions):
        sid = store.create_session(f"session {s}")
        for m in range(messages):
            texts.add(f"session {s} message {m}")
            store.add_message(sid, "user", f"session {s} message {m}")
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    sid = store.create_session("in the log only")
    store.add_message(sid, "user", "only in the log")  # committed, not yet checkpointed
    texts.add("only in the log")
    for side in ("", "-wal", "-shm"):  # the files as a kill leaves them
        shutil.copy2(f"{source}{side}", f"{path}{side}")
    store.close()
    shutil.rmtree(work)
    data = bytearray(path.read_bytes())
    data[21] = 0x41  # a damaged header (payload fraction): SQLite refuses the file, every row is readable
    path.write_bytes(bytes(data))
    return texts


def _texts(path: Path) -> set[str]:
    store = HistoryStore(path)
    try:
        return {r[0] for r in store.conn.execute("SELECT text FROM messages")}
    finally:
        store.close()


def _open_killed_at(path: Path, step: str, nth: int = 1) -> int:
    """Open the store in a forked child killed (os._exit, as kill -9) at the nth time it reaches `step`.
    Returns the child's exit status (9 when killed there, 0 when it never reached the step)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 0
        try:
            seen = [0]

            def kill(name: str) -> None:
                if name == step:
                    seen[0] += 1
                    if seen[0] == nth:
                        os._exit(9)

            store_module._kill_point = kill
            HistoryStore(path).close()
        except BaseException:  # noqa: BLE001 - the child reports by its exit status only
            status = 3
        os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


@pytest.mark.parametrize("step", STEPS)
def test_a_recovery_killed_at_any_step_loses_nothing(tmp_path, step):
    path = tmp_path / "history.db"
    texts = _crashed_history(path, 3, 4)
    assert _open_killed_at(path, step) == 9, "the recovery never reached the step"
    store = HistoryStore(path)  # the next start: the old database or the complete new one, never an empty one
    told = f"{store.notice} {store.reminder}"
    assert str(tmp_path / "history.db.damaged-1") in told
    store.close()
    assert _texts(path) == texts
    assert (tmp_path / "history.db.damaged-1").is_file()
    assert not [p.name for p in tmp_path.iterdir() if ".part" in p.name or p.name.endswith(".new")]
    assert {p.name for p in tmp_path.glob("history.db.damaged-*")} <= {
        "history.db.damaged-1", "history.db.damaged-1-wal", "history.db.damaged-1-shm"}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(step=st.sampled_from(STEPS), nth=st.integers(1, 2), sessions=st.integers(1, 4),
       messages=st.integers(0, 5), again=st.booleans())
def test_property_every_message_survives_a_kill_anywhere_in_recovery(tmp_path_factory, step, nth, sessions,
                                                                      messages, again):
    path = tmp_path_factory.mktemp("kill") / "history.db"
    texts = _crashed_history(path, sessions, messages)
    _open_killed_at(path, step, nth)
    if again:  # killed twice in a row
        _open_killed_at(path, step, nth)
    assert _texts(path) == texts


def test_a_kept_damaged_copy_is_named_at_every_start_until_deleted(tmp_path):
    path = tmp_path / "history.db"
    _crashed_history(path, 1, 1)
    first = HistoryStore(path)
    assert "moved to" in first.notice
    first.close()
    env = {**os.environ, "GPU_ADVISOR_DB": str(path)}
    for _ in range(2):
        again = HistoryStore(path)
        assert again.notice is None and str(tmp_path / "history.db.damaged-1") in again.reminder
        again.close()
        done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "sessions", "list"], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "history.db.damaged-1" in done.stderr
    for kept in tmp_path.glob("history.db.damaged-*"):
        kept.unlink()
    assert HistoryStore(path).reminder is None


@pytest.mark.parametrize("side", ["", "-wal", "-shm", ".damaged-1", "backup"])
def test_an_export_never_replaces_the_database_its_log_or_a_backup(tmp_path, side):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("keep me")
    store.add_message(sid, "user", "precious")
    if side == ".damaged-1":
        shutil.copy2(path, f"{path}.damaged-1")
    target = store.backup(tmp_path / "backup.db") if side == "backup" else Path(f"{path}{side}")
    before = target.read_bytes()
    with pytest.raises(HistoryError, match="never replaces"):
        store.export_to(sid, target, overwrite=True)
    assert target.read_bytes() == before
    (tmp_path / "sub").mkdir()
    with pytest.raises(HistoryError, match="never replaces"):  # also named another way
        store.export_to(sid, tmp_path / "sub" / ".." / target.name, overwrite=True)
    assert [m["text"] for m in store.messages(sid)] == ["precious"]
    store.close()


def test_cli_export_onto_the_database_is_refused_in_one_line(tmp_path):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("keep me")
    store.add_message(sid, "user", "precious")
    store.close()
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "sessions", "export", sid, "-o", str(path), "--force",
                           "--db", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "never replaces" in done.stderr
    assert _texts(path) == {"precious"}


def _crash_state(path: Path, texts: list[str]) -> None:
    """A history as a killed writer leaves it: db, -wal and -shm, the last messages only in the log."""
    work = path.parent / "work"
    work.mkdir()
    store = HistoryStore(work / "history.db")
    sid = store.create_session("s")
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for t in texts:
        store.add_message(sid, "user", t)
    for side in ("", "-wal", "-shm"):
        shutil.copy2(f"{work / 'history.db'}{side}", f"{path}{side}")
    store.close()
    shutil.rmtree(work)


def test_a_deleted_log_with_its_index_left_is_reported(tmp_path):
    path = tmp_path / "history.db"
    _crash_state(path, ["lost one", "lost two"])
    shm = Path(f"{path}-shm").read_bytes()
    Path(f"{path}-wal").unlink()
    store = HistoryStore(path)
    assert store.notice and "log is missing" in store.notice and "lost" in store.notice
    assert str(tmp_path / "history.db.damaged-1") in store.notice
    assert Path(f"{path}.damaged-1-shm").read_bytes() == shm  # the evidence is kept
    store.close()
    again = HistoryStore(path)
    assert again.notice is None  # reported once; the kept copy is named by the reminder
    again.close()


def test_a_log_checkpointed_and_closed_is_not_reported(tmp_path):
    path = tmp_path / "history.db"
    _crash_state(path, ["kept"])
    HistoryStore(path).close()  # a clean close: checkpointed, log and index gone
    assert HistoryStore(path).notice is None and _texts(path) == {"kept"}


def _foreign(path: Path, wal: bool, app_id: int = 0) -> None:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    if app_id:
        conn.execute(f"PRAGMA application_id = {app_id}")
    conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO notes (body) VALUES ('someone else''s data')")
    conn.commit()
    conn.close()


@pytest.mark.parametrize(("wal", "app_id"), [(False, 0), (True, 0), (False, 0x0F0F0F0F)])
def test_another_applications_sqlite_file_is_refused_untouched(tmp_path, wal, app_id):
    path = tmp_path / "notes.sqlite"
    _foreign(path, wal, app_id)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(HistoryError, match="another application"):
        HistoryStore(path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "sessions", "list", "--db", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "another application" in done.stderr
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_an_empty_sqlite_database_and_a_history_are_opened(tmp_path):
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).execute("PRAGMA user_version = 0").close()
    store = HistoryStore(empty)
    assert store.conn.execute("PRAGMA application_id").fetchone()[0] == store_module.APPLICATION_ID
    store.close()
    HistoryStore(empty).close()


@pytest.mark.slow
def test_a_session_has_one_writer_at_a_time(tmp_path):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("mine")
    store.add_message(sid, "user", "first")
    done = subprocess.run([sys.executable, str(HELPER), "converse", str(path), sid, "serve llama 3 8b"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "open in another GPU Advisor" in done.stderr
    assert [m["text"] for m in store.messages(sid)] == ["first"]  # nothing interleaved
    store.close()  # released: now another process may continue it
    done = subprocess.run([sys.executable, str(HELPER), "converse", str(path), sid, "serve llama 3 8b"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_a_killed_backups_hidden_part_is_removed_on_the_next_run(tmp_path):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    store.create_session("s")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    stale = tmp_path / f".backup.db.gpu-advisor.{dead}.k3j2x9q1.part"
    journal = tmp_path / f".backup.db.gpu-advisor.{dead}.k3j2x9q1.part-journal"  # VACUUM INTO's journal beside it
    live = tmp_path / f".other.db.gpu-advisor.{os.getpid()}.abcdefgh.part"  # this process: may still be writing
    live_journal = tmp_path / f".other.db.gpu-advisor.{os.getpid()}.abcdefgh.part-journal"
    # the user's own hidden files, even shaped like an old temporary name with a pid that is gone: never touched
    users = [tmp_path / f".notes.{dead}.draft.part", tmp_path / f".backup.db.{dead}.k3j2x9q1.part",
             tmp_path / f".x.gpu-advisor.{dead}.short.part", tmp_path / f".x.gpu-advisor.{dead}.abcdefgh.part.bak"]
    for mine in users:
        mine.write_bytes(b"precious")
    for left in (stale, journal, live, live_journal):
        left.write_bytes(b"x" * 4096)
    store.backup(tmp_path / "backup2.db")
    assert not stale.exists() and not journal.exists() and live.exists() and live_journal.exists()
    assert all(mine.read_bytes() == b"precious" for mine in users)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".backup2")) == []
    stale.write_bytes(b"x")
    journal.write_bytes(b"x")
    store.close()
    HistoryStore(path).close()  # also on the next start, beside the database
    assert not stale.exists() and not journal.exists() and live.exists() and live_journal.exists()
    assert all(mine.read_bytes() == b"precious" for mine in users)


# A large write killed before its commit (attack 3: kill -9 during `sessions import`) leaves frames in
# the log that no commit reached: spilled from a small page cache, some rewritten in place, their
# checksums fixed only at commit. SQLite drops them, rightly; the history is sound, so the next start
# says nothing, copies nothing, and every committed message is there.
KILLED_WRITE = """
import os, signal, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA cache_size = 20")
conn.execute("BEGIN")
conn.execute("CREATE TABLE scratch(id INTEGER PRIMARY KEY, x TEXT)")
for i in range(int(sys.argv[2])):
    conn.execute("INSERT INTO scratch(x) VALUES (?)", ("y" * 500,))
for i in range(5):
    conn.execute("UPDATE scratch SET x = x || 'z' WHERE id % 7 = ?", (i,))
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
@pytest.mark.parametrize("rows", [400, 3000])
def test_a_write_killed_before_its_commit_is_not_damage(tmp_path, rows):
    from gpu_advisor.assistant.history.damage import _read_wal

    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("kept")
    store.add_message(sid, "user", "committed before the kill")
    store.close()  # (the killed writer is the only one: nobody checkpoints or removes its log)
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(path), str(rows)], capture_output=True)
    assert killed.returncode == -9
    assert _read_wal(Path(f"{path}-wal").read_bytes()).damage  # the uncommitted tail fails the checksum chain
    again = HistoryStore(path)
    assert again.notice is None
    assert sorted(p.name for p in tmp_path.iterdir() if "damaged" in p.name) == []
    assert [m["text"] for m in again.messages(sid)] == ["committed before the kill"]
    assert "scratch" not in again.db.table_names()
