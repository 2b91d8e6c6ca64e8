"""HistoryStore: opening (creating, checking and migrating), writing and reading the history database.

Writes run inside BEGIN IMMEDIATE with a busy timeout, so two app instances writing at once wait
for each other instead of failing with "database is locked". Each write commits before it returns:
a message is on disk before anyone is shown it. A database written by a newer version is refused,
untouched.

Damaged files are never discarded: they are kept side by side with the database (history.db.damaged-1,
history.db.damaged-1-wal, ...), the rows SQLite can still read are recovered from them and the caller
is told, in one line, what was kept and where the originals are. A row that cannot be decoded affects
that row only.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from assistant.history import common, export, migrations
from assistant.history.common import (
    BUSY_TIMEOUT_MS,
    DatabaseTooNew,
    HistoryError,
    NotSaved,
    SessionRow,
    StorageError,
    _decode,
    _json,
    _storage_problem,
    default_path,
    new_id,
)
from assistant.history.damage import (
    QUICK_CHECK_MAX_BYTES,
    RECOVERED_COLUMNS,
    _database_image,
    _header_damage,
    _indexed_frames,
    _names,
    _read_wal,
    _readable_rows,
    looks_like_sqlite,
)
from assistant.history.search import search_sessions, search_text

CHECK_MARK = ".check"  # NAME.check: damage was met in use, so the next open runs the full check


def _is_damage(exc: BaseException) -> bool:
    text = str(exc).lower()
    return any(w in text for w in ("not a database", "malformed", "integrity check", "corrupt",
                                   "damaged header", "unsupported file format"))


def _identity(path: Path, inode_only: bool = False) -> tuple[int, ...] | None:
    """Which file is at `path` now (None for none): another process may replace it."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if inode_only else (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class HistoryStore:
    """Open (creating and migrating as needed) the history database at `path`."""

    def __init__(self, path: str | Path | None = None):
        if path is not None and not str(path).strip():
            raise HistoryError("--db needs the path of a database file, not an empty string")
        self.path = Path(path).expanduser() if path else default_path()
        self.notice: str | None = None  # set when something the user should know happened on open
        self._shm: bytes | None = None
        if self.path.exists() and not self.path.is_file():
            raise HistoryError(f"{self.path} is not a file; give --db the path of a database file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot create {self.path.parent}: {e.strerror or e}") from None
        if not looks_like_sqlite(self.path):
            raise self._not_sqlite()
        # Opening (the checks) and moving a damaged file aside happen under one lock, NAME.lock, held
        # for the few milliseconds they take: when several processes find the same damaged file at
        # once, the first moves it aside and starts the new database, and the others, waiting, then
        # open that one. No process still reads the damaged file when it is moved (SQLite, closing a
        # connection, would otherwise delete the new database's write-ahead log by its name).
        with self._open_lock():
            if not looks_like_sqlite(self.path):  # (replaced while this process waited)
                raise self._not_sqlite()
            try:
                damage = _header_damage(self.path)
                if damage:
                    raise sqlite3.DatabaseError(damage)
                self._open()
                return
            except sqlite3.DatabaseError as exc:
                self._refuse_unless_damaged(exc)
                error = exc
            kept = self._keep_damaged(move=True)
            self._open()
        self.notice = (f"The history database could not be read ({error}); the original was moved to "
                       f"{_names(kept)} and a new database started; {self._recover_from(kept)}.")

    def _not_sqlite(self) -> HistoryError:
        return HistoryError(f"{self.path} is not a GPU Advisor history database (it does not start with the "
                            "SQLite header); it was left untouched. Give --db a new file name or an existing "
                            "history database")

    def _refuse_unless_damaged(self, exc: sqlite3.DatabaseError) -> None:
        """Raise the right error for a failed open, unless the file is damaged (and may be moved aside)."""
        text = str(exc).lower()
        if "locked" in text or "busy" in text:
            raise StorageError(f"the history database {self.path} is busy; try again") from None
        problem = _storage_problem(exc)
        if problem:
            raise StorageError(f"cannot open the history database {self.path}: {problem}; "
                               "nothing was read or saved") from None
        if not _is_damage(exc) or not self.path.is_file():
            raise HistoryError(f"cannot open the history database {self.path}: {exc}") from None

    @contextmanager
    def _open_lock(self) -> Iterator[None]:
        """An exclusive lock on NAME.lock beside the database (an OS lock, through filelock: a process
        that dies holding it releases it). Without a folder to write the lock in, the open that follows
        fails anyway and says why."""
        from filelock import FileLock, Timeout

        lock = FileLock(f"{self.path}.lock", timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            lock.acquire()
        except Timeout:
            raise StorageError(f"the history database {self.path} is being opened or recovered by another "
                               "GPU Advisor; try again") from None
        except OSError:
            yield
            return
        try:
            yield
        finally:
            lock.release()

    # -- opening

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        conn.text_factory = _decode  # text with bad bytes is read with U+FFFD, not an exception
        return conn

    def _open(self) -> None:
        conn = self._connect()
        try:
            wal_damage = self._wal_damage(conn)
            kept = self._keep_damaged(move=False) if wal_damage else None
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            mark = Path(f"{self.path}{CHECK_MARK}")
            checked = self.path.stat().st_size <= QUICK_CHECK_MAX_BYTES or mark.exists()
            if checked and conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            if checked:
                mark.unlink(missing_ok=True)
            self._refuse_newer(conn)  # before anything writes to the file
            self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
            conn.execute("PRAGMA foreign_keys = ON")
        except Exception:
            conn.close()
            raise
        import sqlite_utils

        self.conn = conn
        self.db = sqlite_utils.Database(conn)
        self._file = _identity(self.path, inode_only=True)  # a write checks the file is still this one
        self._migrate()
        # (False only while a test holds the migrations back to an earlier schema)
        self._search_column = "search_text" in self.db.table("messages").columns_dict if self.db.table("messages").exists() else False
        if kept:
            self.notice = (f"The history database's write-ahead log was damaged ({wal_damage}); copies of the "
                           f"original files are in {_names(kept)}; {self._recover_from(kept)}.")

    def _wal_damage(self, conn: sqlite3.Connection) -> str | None:
        """What is wrong with the write-ahead log, if anything. SQLite itself would silently ignore
        every frame from the first damaged one on, and a log cut short at a frame boundary."""
        wal_path, shm_path = Path(f"{self.path}-wal"), Path(f"{self.path}-shm")
        # The index first: a writer appends frames before it counts them there, so a log with fewer
        # committed frames than its index counts lost some (and taking a lock would rebuild the index).
        self._shm = shm_path.read_bytes() if shm_path.is_file() else None  # kept as it was, if damaged
        indexed = _indexed_frames(self._shm[:96]) if self._shm else None
        if not wal_path.is_file() or not wal_path.stat().st_size:
            return None
        wal = _read_wal(wal_path.read_bytes())
        if wal.damage is None:
            if indexed and indexed[1] == wal.salts and indexed[0] > wal.committed:
                return f"it holds {wal.committed} committed frames where its index counts {indexed[0]}: it was cut short"
            return None
        # Another instance may be appending a frame right now: look again holding the write lock.
        self._retry(lambda: conn.execute("BEGIN IMMEDIATE"))
        try:
            return _read_wal(wal_path.read_bytes()).damage if wal_path.is_file() else None
        finally:
            conn.execute("ROLLBACK")

    def _keep_damaged(self, move: bool) -> Path:
        """Copy (or move) the database and its -wal and -shm files to the first free
        `NAME.damaged-N`, side by side with it. Returns the new name of the database file."""
        n = 1
        while any(Path(f"{self.path}.damaged-{n}{side}").exists() for side in ("", "-wal", "-shm")):
            n += 1
        target = Path(f"{self.path}.damaged-{n}")
        for side in ("-shm", "-wal", ""):  # the database last: until it goes, an opener sees it damaged
            source = Path(f"{self.path}{side}")
            if source.exists():
                if move:
                    shutil.move(str(source), f"{target}{side}")
                elif side == "-shm" and self._shm is not None:
                    Path(f"{target}{side}").write_bytes(self._shm)  # before SQLite rebuilt it
                else:
                    shutil.copy2(source, f"{target}{side}")
        return target

    def _recover_from(self, kept: Path) -> str:
        """Copy into this store every session, message and tool call that can still be read from the
        damaged files (a message already here is not copied twice). Returns what was recovered, in words."""
        counts = {"sessions": 0, "messages": 0, "tool_calls": 0}
        try:
            with tempfile.TemporaryDirectory(prefix="gpu-advisor-recover-") as folder:
                image = Path(folder) / "image.db"
                wal = Path(f"{kept}-wal")
                image.write_bytes(_database_image(kept.read_bytes(), wal.read_bytes() if wal.is_file() else b""))
                source = sqlite3.connect(f"file:{image}?immutable=1", uri=True)
                source.text_factory = _decode
                try:
                    with self._write("the recovered messages"):
                        for table, columns in RECOVERED_COLUMNS.items():
                            counts[table] = self._copy_rows(source, table, columns)
                finally:
                    source.close()
        except (OSError, sqlite3.Error, ValueError):
            pass
        if not counts["messages"] and not counts["sessions"]:
            return "no further message could be recovered from them"
        sessions = f" in {counts['sessions']} session{'s' if counts['sessions'] != 1 else ''}" if counts["sessions"] else ""
        return (f"{counts['messages']} message{'s' if counts['messages'] != 1 else ''}{sessions} "
                f"{'were' if counts['messages'] != 1 else 'was'} recovered from them")

    def _copy_rows(self, source: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> int:
        placeholders = ", ".join("?" for _ in columns)
        insert = f"INSERT OR IGNORE INTO {table} ({', '.join(columns)}) VALUES ({placeholders})"
        copied = 0
        for values in _readable_rows(source, table, columns):
            row = dict(zip(columns, values, strict=True))
            if table == "messages" and not self.conn.execute(
                    "SELECT 1 FROM sessions WHERE id = ?", (row["session_id"],)).fetchone():
                self.conn.execute("INSERT OR IGNORE INTO sessions (id, title, created, updated, profile, state) "
                                  "VALUES (?, 'Recovered conversation', ?, ?, '{}', '{}')",
                                  (row["session_id"], row["created"] or common.now(), common.now()))
            if table == "tool_calls" and not self.conn.execute(
                    "SELECT 1 FROM messages WHERE id = ?", (row["message_id"],)).fetchone():
                continue
            try:
                added = self.conn.execute(insert, tuple(row.values())).rowcount
                if table == "messages" and added and self._search_column:
                    self.conn.execute("UPDATE messages SET search_text = ? WHERE id = ?",
                                      (search_text(row["role"] or "", row["text"] or ""), row["id"]))
                copied += added
            except sqlite3.IntegrityError:
                continue  # a row damaged past use (a missing required value)
        return copied

    def _refuse_newer(self, conn: sqlite3.Connection) -> None:
        unknown = migrations.unknown_migrations(conn, migrations.MIGRATIONS)
        if unknown:
            raise DatabaseTooNew(
                f"{self.path} was written by a newer GPU Advisor (migration {unknown[-1]}); "
                "upgrade gpu-advisor, or point --db at another file. The database was left untouched.")

    @staticmethod
    def _retry(operation: Callable[[], Any], attempts: int = 200) -> Any:
        """Run a statement that SQLite answers with an immediate SQLITE_BUSY (such as switching the
        journal mode, which ignores the busy timeout) until it gets through."""
        for attempt in range(attempts):
            try:
                return operation()
            except sqlite3.OperationalError as exc:
                if not ("locked" in str(exc) or "busy" in str(exc)) or attempt == attempts - 1:
                    raise
                time.sleep(0.05)
        return None

    def _migrate(self) -> None:
        with self._write():
            self._refuse_newer(self.conn)  # again, holding the write lock: another process may have migrated
            for name, migration in migrations.pending(self.conn, migrations.MIGRATIONS):
                migration(self.db)
                self.conn.execute("INSERT INTO _migrations (name, applied) VALUES (?, ?)", (name, common.now()))

    @contextmanager
    def _write(self, what: str = "this change") -> Iterator[None]:
        """One write transaction: BEGIN IMMEDIATE takes the write lock up front (waiting up to the
        busy timeout), so a second writer waits instead of failing on a read-to-write upgrade. A
        failure the disk causes is NotSaved, naming `what` was not saved."""
        opened = getattr(self, "_file", None)
        if opened is not None and _identity(self.path, inode_only=True) != opened:
            raise NotSaved(self.path, what, "the database file was deleted or replaced while in use; "
                                            "the next start opens a new one")
        for attempt in range(50):
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as exc:
                if ("locked" not in str(exc) and "busy" not in str(exc)) or attempt == 49:
                    raise self._unsaved(exc, what) from None
                time.sleep(0.05)
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise self._unsaved(exc, what) from None
            raise

    def _unsaved(self, exc: sqlite3.Error, what: str = "this change") -> Exception:
        """The error to raise when a write fails: NotSaved (a StorageError) when the disk is the cause."""
        if _is_damage(exc):  # a large file is not fully checked on open: check it on the next one
            with contextlib.suppress(OSError):
                Path(f"{self.path}{CHECK_MARK}").touch()
            return HistoryError(f"could not save {what} to {self.path}: the database is damaged ({exc}); "
                                f"{what} was not saved; restart GPU Advisor to recover what can be read")
        problem = _storage_problem(exc) or ("the database is busy" if "locked" in str(exc) else None)
        if problem is None:
            return exc
        return NotSaved(self.path, what, problem)

    def close(self) -> None:
        self.conn.close()

    def applied_migrations(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM _migrations ORDER BY name")]

    # -- sessions

    def create_session(self, title: str = "New conversation") -> str:
        session_id = new_id()
        stamp = common.now()
        with self._write("the new conversation"):
            self.db.table("sessions").insert({"id": session_id, "title": title, "created": stamp, "updated": stamp,
                                        "profile": "{}", "state": "{}"})
        return session_id

    def session(self, session_id: str) -> dict[str, Any]:
        session_id = self.resolve_id(session_id)
        row = self.db.table("sessions").get(session_id)
        return {**row, "title": row["title"] or "", "profile": _json(row["profile"], {}),
                "state": _json(row["state"], {})}

    def resolve_id(self, prefix: str) -> str:
        """A full session id from an unambiguous prefix (ids are long)."""
        prefix = prefix.strip().upper()
        if not prefix or not all(c in "0123456789ABCDEFGHJKMNPQRSTVWXYZ" for c in prefix):
            raise HistoryError(f"no session with id '{prefix}' (ids look like 01J...; see `gpu-advisor sessions list`)")
        rows = [r[0] for r in self.conn.execute(  # a range of the primary key: no scan
            "SELECT id FROM sessions WHERE id >= ? AND id < ? LIMIT 2", (prefix, prefix + "\x7f"))]
        if not rows:
            raise HistoryError(f"no session with id '{prefix}'")
        if len(rows) > 1:
            raise HistoryError(f"'{prefix}' matches several sessions; give more of the id")
        return rows[0]

    def rename(self, session_id: str, title: str) -> None:
        title = " ".join(title.split())[:200]
        if not title:
            raise HistoryError("a title cannot be empty")
        session_id = self.resolve_id(session_id)
        with self._write("the new title"):
            self.db.table("sessions").update(session_id, {"title": title, "updated": common.now()})

    def delete(self, session_id: str) -> None:
        session_id = self.resolve_id(session_id)
        with self._write("the deletion"):
            self.conn.execute("DELETE FROM tool_calls WHERE session_id = ?", (session_id,))
            self.conn.execute("DELETE FROM messages WHERE session_id = ?", (session_id,))
            self.conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def list_sessions(self, limit: int = 200, offset: int = 0) -> list[SessionRow]:
        """A page of sessions, newest first. The page is found in the (updated, id) index alone, so a
        deep page costs a walk over index entries, not over sessions."""
        sql = ("SELECT s.id, s.title, s.created, s.updated, "
               "(SELECT count(*) FROM messages m WHERE m.session_id = s.id) FROM sessions s "
               "JOIN (SELECT rowid AS r FROM sessions ORDER BY updated DESC, id DESC LIMIT ? OFFSET ?) p "
               "ON s.rowid = p.r ORDER BY s.updated DESC, s.id DESC")
        return [SessionRow(*r) for r in self.conn.execute(sql, (limit, offset))]

    def count_sessions(self) -> int:
        return self.conn.execute("SELECT count(*) FROM sessions").fetchone()[0]

    def search(self, query: str, limit: int = 100) -> list[SessionRow]:
        """Sessions matching every word typed (see assistant.history.search.search_sessions)."""
        return search_sessions(self, query, limit)

    def _search(self, role: str, text: str) -> dict[str, str]:
        return {"search_text": search_text(role, text)} if self._search_column else {}

    def _has_table(self, name: str) -> bool:
        return bool(self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone())

    # -- messages

    def add_message(self, session_id: str, role: str, text: str, payload: dict[str, Any] | None = None) -> str:
        """Append a message and commit it. Returns its id."""
        message_id = new_id()
        stamp = common.now()
        with self._write("your message"):
            seq = self.conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE session_id = ?",
                                    (session_id,)).fetchone()[0]
            self.db.table("messages").insert({"id": message_id, "session_id": session_id, "seq": seq, "role": role,
                                        "text": text, "payload": json.dumps(payload or {}, sort_keys=True),
                                        "created": stamp, **self._search(role, text)})
            self.conn.execute("UPDATE sessions SET updated = ? WHERE id = ?", (stamp, session_id))
        return message_id

    def save_reply(self, session_id: str, text: str, payload: dict[str, Any], state: dict[str, Any],
                   tool_calls: list[dict[str, Any]], title: str | None = None) -> str:
        """The assistant's reply, the tool calls behind it and the engine state, in one commit."""
        message_id = new_id()
        stamp = common.now()
        with self._write("the reply"):
            seq = self.conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE session_id = ?",
                                    (session_id,)).fetchone()[0]
            self.db.table("messages").insert({"id": message_id, "session_id": session_id, "seq": seq, "role": "assistant",
                                        "text": text, "payload": json.dumps(payload, sort_keys=True),
                                        "created": stamp, **self._search("assistant", text)})
            for call in tool_calls:
                self.db.table("tool_calls").insert({
                    "id": new_id(), "session_id": session_id, "message_id": message_id, "tool": call["tool"],
                    "arguments": json.dumps(call["arguments"], sort_keys=True),
                    "result": json.dumps(call["result"], sort_keys=True), "duration_ms": call["duration_ms"],
                    "created": stamp})
            update = {"updated": stamp, "state": json.dumps(state, sort_keys=True),
                      "profile": json.dumps(state.get("profile") or {}, sort_keys=True)}
            if title:
                update["title"] = title
            self.db.table("sessions").update(session_id, update)
        return message_id

    def withdraw_message(self, message_id: str) -> bool:
        """Remove a user message whose turn was cancelled before any reply (it was never sent, so it
        is not kept as sent). A session left empty goes too. Returns True when the session was removed."""
        with self._write("the withdrawal of the cancelled message"):
            row = self.conn.execute("SELECT session_id FROM messages WHERE id = ?", (message_id,)).fetchone()
            if row is None:
                return False
            self.conn.execute("DELETE FROM tool_calls WHERE message_id = ?", (message_id,))
            self.conn.execute("DELETE FROM messages WHERE id = ?", (message_id,))
            if self.conn.execute("SELECT 1 FROM messages WHERE session_id = ?", (row[0],)).fetchone():
                return False
            self.conn.execute("DELETE FROM tool_calls WHERE session_id = ?", (row[0],))
            self.conn.execute("DELETE FROM sessions WHERE id = ?", (row[0],))
            return True

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        session_id = self.resolve_id(session_id)
        rows = self.conn.execute("SELECT id, seq, role, text, payload, created FROM messages WHERE session_id = ? "
                                 "ORDER BY seq", (session_id,))
        return [{"id": r[0], "seq": r[1], "role": r[2], "text": r[3] or "", "payload": _json(r[4], {}),
                 "created": r[5] or ""} for r in rows]

    def tool_calls(self, session_id: str) -> list[dict[str, Any]]:
        session_id = self.resolve_id(session_id)
        rows = self.conn.execute("SELECT message_id, tool, arguments, result, duration_ms FROM tool_calls "
                                 "WHERE session_id = ? ORDER BY rowid", (session_id,))
        return [{"message_id": r[0], "tool": r[1], "arguments": _json(r[2], {}), "result": _json(r[3], None),
                 "duration_ms": r[4]} for r in rows]

    # -- export, import, backup

    def export_json(self, session_id: str) -> dict[str, Any]:
        return export.export_json(self, session_id)

    def export_markdown(self, session_id: str) -> str:
        return export.export_markdown(self, session_id)

    def export_text(self, session_id: str, fmt: str = "markdown") -> str:
        """A session as a Markdown report or as JSON text."""
        return export.export_text(self, session_id, fmt)

    def export_to(self, session_id: str, target: str | Path, overwrite: bool = False,
                  fmt: str | None = None) -> Path:
        """Write an export (JSON for a .json file unless `fmt` says, Markdown otherwise); an existing
        file is never replaced unless `overwrite` is given."""
        return export.export_to(self, session_id, target, overwrite, fmt)

    def import_json(self, data: Any) -> str:
        """Add an exported session as a new session (never overwriting one that exists)."""
        return export.import_json(self, data)

    def backup(self, target: str | Path) -> Path:
        """A consistent copy of the database, renamed into place; an existing file is never replaced."""
        return export.backup(self, target)
