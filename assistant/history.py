"""The session history store: a readable record of every conversation, in SQLite (sqlite-utils).

Tables: sessions (title, created, updated, profile, engine state), messages (role, text, structured
payload), tool_calls (tool, arguments, result, duration), `_migrations` (named migrations, applied
in order on every open) and an FTS index over message text.

Writes run inside BEGIN IMMEDIATE with a busy timeout, so two app instances writing at once wait
for each other instead of failing with "database is locked". Each write commits before it returns:
a message is on disk before anyone is shown it. A corrupt file is moved aside (the caller is told
where) and a new database started; a database written by a newer version is refused, untouched.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sqlite_utils

DB_ENV = "GPU_ADVISOR_DB"
BUSY_TIMEOUT_MS = 30_000


class HistoryError(RuntimeError):
    """The history database cannot be used; the message says why and what to do."""


class DatabaseTooNew(HistoryError):
    pass


def default_path() -> Path:
    override = os.environ.get(DB_ENV)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("gpu-advisor", appauthor=False)) / "history.db"


def new_id() -> str:
    """A ULID: unique, and sorts by creation time."""
    from ulid import ULID

    return str(ULID())


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


# ---------------------------------------------------------------- migrations


def _m001_initial(db: sqlite_utils.Database) -> None:
    db["sessions"].create({"id": str, "title": str, "created": str, "updated": str, "profile": str, "state": str},
                          pk="id", not_null={"title", "created", "updated"}, defaults={"profile": "{}", "state": "{}"})
    db["messages"].create({"id": str, "session_id": str, "seq": int, "role": str, "text": str, "payload": str,
                           "created": str}, pk="id", foreign_keys=[("session_id", "sessions", "id")],
                          not_null={"session_id", "seq", "role", "text", "created"})
    db["messages"].create_index(["session_id", "seq"], unique=True)
    db["tool_calls"].create({"id": str, "session_id": str, "message_id": str, "tool": str, "arguments": str,
                             "result": str, "duration_ms": float, "created": str}, pk="id",
                            foreign_keys=[("session_id", "sessions", "id"), ("message_id", "messages", "id")])
    db["tool_calls"].create_index(["session_id"])
    db["sessions"].create_index(["updated"])


def _m002_message_fts(db: sqlite_utils.Database) -> None:
    db["messages"].enable_fts(["text"], create_triggers=True, tokenize="unicode61")


def _m003_session_title_fts(db: sqlite_utils.Database) -> None:
    db["sessions"].enable_fts(["title"], create_triggers=True, tokenize="unicode61")


MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = [
    ("001_initial", _m001_initial),
    ("002_message_fts", _m002_message_fts),
    ("003_session_title_fts", _m003_session_title_fts),
]


EXPORT_FORMAT = "gpu-advisor-session"
EXPORT_VERSION = 1


def _export_models():
    """Pydantic models of the JSON export (built on first import, not at start-up)."""
    from typing import Literal

    from pydantic import BaseModel, ConfigDict

    class Loose(BaseModel):
        model_config = ConfigDict(extra="ignore")

    class Session(Loose):
        title: str | None = None
        created: str | None = None
        profile: dict[str, Any] = {}
        state: dict[str, Any] = {}

    class Msg(Loose):
        seq: int | None = None
        role: Literal["user", "assistant"]
        text: str
        payload: dict[str, Any] = {}
        created: str | None = None

    class Call(Loose):
        message_seq: int | None = None
        tool: str
        arguments: dict[str, Any] = {}
        result: Any = None
        duration_ms: float | None = None

    class Export(Loose):
        format: str
        version: int
        session: Session = Session()
        messages: list[Msg] = []
        tool_calls: list[Call] = []

    return Export


class _LazyExport:
    _model = None

    def model_validate(self, data: Any):
        if _LazyExport._model is None:
            _LazyExport._model = _export_models()
        return _LazyExport._model.model_validate(data)


_Export = _LazyExport()


@dataclass
class SessionRow:
    id: str
    title: str
    created: str
    updated: str
    messages: int = 0
    snippet: str = ""


class HistoryStore:
    """Open (creating and migrating as needed) the history database at `path`."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path).expanduser() if path else default_path()
        self.notice: str | None = None  # set when something the user should know happened on open
        if self.path.exists() and not self.path.is_file():
            raise HistoryError(f"{self.path} is not a file; give --db the path of a database file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise HistoryError(f"cannot create {self.path.parent}: {e.strerror or e}") from None
        try:
            self._open()
        except sqlite3.DatabaseError as exc:
            text = str(exc).lower()
            if "locked" in text or "busy" in text:
                raise HistoryError(f"the history database {self.path} is busy; try again") from None
            corrupt = any(w in text for w in ("not a database", "malformed", "integrity check", "corrupt"))
            if not corrupt or not self.path.is_file():
                raise HistoryError(f"cannot open the history database {self.path}: {exc}") from None
            self._move_aside(exc)
            self._open()

    # -- opening

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                               check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return conn

    def _open(self) -> None:
        conn = self._connect()
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            self._refuse_newer(conn)  # before anything writes to the file
            self._retry(lambda: conn.execute("PRAGMA journal_mode = WAL").fetchone())
            conn.execute("PRAGMA foreign_keys = ON")
        except Exception:
            conn.close()
            raise
        import sqlite_utils

        self.conn = conn
        self.db = sqlite_utils.Database(conn)
        self._migrate()

    def _refuse_newer(self, conn: sqlite3.Connection) -> None:
        has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").fetchone()
        if not has_table:
            return
        known = {name for name, _ in MIGRATIONS}
        unknown = sorted({r[0] for r in conn.execute("SELECT name FROM _migrations")} - known)
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

    def _move_aside(self, exc: Exception) -> None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        n = 1
        while target.exists():
            target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{n}")
            n += 1
        shutil.move(str(self.path), target)
        for suffix in ("-wal", "-shm"):
            side = Path(str(self.path) + suffix)
            if side.exists():
                shutil.move(str(side), str(target) + suffix)
        self.notice = (f"The history database could not be read ({exc}); it was moved to {target} "
                       "and a new one started.")

    def _migrate(self) -> None:
        known = [name for name, _ in MIGRATIONS]
        with self._write():
            self.conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied TEXT)")
            applied = {r[0] for r in self.conn.execute("SELECT name FROM _migrations")}
            unknown = sorted(applied - set(known))
            if unknown:
                raise DatabaseTooNew(
                    f"{self.path} was written by a newer GPU Advisor (migration {unknown[-1]}); "
                    "upgrade gpu-advisor, or point --db at another file. The database was left untouched.")
            for name, migration in MIGRATIONS:
                if name not in applied:
                    migration(self.db)
                    self.conn.execute("INSERT INTO _migrations (name, applied) VALUES (?, ?)", (name, now()))

    @contextmanager
    def _write(self) -> Iterator[None]:
        """One write transaction: BEGIN IMMEDIATE takes the write lock up front (waiting up to the
        busy timeout), so a second writer waits instead of failing on a read-to-write upgrade."""
        for attempt in range(50):
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc) or attempt == 49:
                    raise
                time.sleep(0.05)
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def close(self) -> None:
        self.conn.close()

    def applied_migrations(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM _migrations ORDER BY name")]

    # -- sessions

    def create_session(self, title: str = "New conversation") -> str:
        session_id = new_id()
        stamp = now()
        with self._write():
            self.db["sessions"].insert({"id": session_id, "title": title, "created": stamp, "updated": stamp,
                                        "profile": "{}", "state": "{}"})
        return session_id

    def session(self, session_id: str) -> dict[str, Any]:
        session_id = self.resolve_id(session_id)
        row = self.db["sessions"].get(session_id)
        return {**row, "profile": json.loads(row["profile"] or "{}"), "state": json.loads(row["state"] or "{}")}

    def resolve_id(self, prefix: str) -> str:
        """A full session id from an unambiguous prefix (ids are long)."""
        prefix = prefix.strip().upper()
        if not prefix or not all(c in "0123456789ABCDEFGHJKMNPQRSTVWXYZ" for c in prefix):
            raise HistoryError(f"no session with id '{prefix}' (ids look like 01J...; see `gpu-advisor sessions list`)")
        rows = [r[0] for r in self.conn.execute(
            "SELECT id FROM sessions WHERE substr(id, 1, length(?)) = ? LIMIT 2", (prefix, prefix))]
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
        with self._write():
            self.db["sessions"].update(session_id, {"title": title, "updated": now()})

    def delete(self, session_id: str) -> None:
        session_id = self.resolve_id(session_id)
        with self._write():
            self.conn.execute("DELETE FROM tool_calls WHERE session_id = ?", (session_id,))
            self.conn.execute("DELETE FROM messages WHERE session_id = ?", (session_id,))
            self.conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))

    def list_sessions(self, limit: int = 200, offset: int = 0) -> list[SessionRow]:
        sql = ("SELECT s.id, s.title, s.created, s.updated, "
               "(SELECT count(*) FROM messages m WHERE m.session_id = s.id) "
               "FROM sessions s ORDER BY s.updated DESC, s.id DESC LIMIT ? OFFSET ?")
        return [SessionRow(*r) for r in self.conn.execute(sql, (limit, offset))]

    def count_sessions(self) -> int:
        return self.conn.execute("SELECT count(*) FROM sessions").fetchone()[0]

    def search(self, query: str, limit: int = 100) -> list[SessionRow]:
        """Sessions whose messages or title match the words typed (user text is quoted for FTS5)."""
        words = query.replace("\x00", " ").split()
        if not words:
            return self.list_sessions(limit)
        fts_query = " ".join('"' + w.replace('"', '""') + '"' for w in words)
        sql = f"""
            SELECT s.id, s.title, s.created, s.updated,
                   (SELECT count(*) FROM messages c WHERE c.session_id = s.id),
                   snippet(messages_fts, 0, '[', ']', '…', 8)
            FROM messages_fts JOIN messages m ON m.rowid = messages_fts.rowid
            JOIN sessions s ON s.id = m.session_id
            WHERE messages_fts MATCH ?
            UNION ALL
            SELECT s.id, s.title, s.created, s.updated,
                   (SELECT count(*) FROM messages c WHERE c.session_id = s.id), s.title
            FROM sessions_fts JOIN sessions s ON s.rowid = sessions_fts.rowid
            WHERE sessions_fts MATCH ?
            ORDER BY 4 DESC LIMIT {int(limit) * 4}"""
        seen: dict[str, SessionRow] = {}
        for r in self.conn.execute(sql, (fts_query, fts_query)):
            if r[0] not in seen:
                seen[r[0]] = SessionRow(*r)
        return list(seen.values())[:limit]

    # -- messages

    def add_message(self, session_id: str, role: str, text: str, payload: dict[str, Any] | None = None) -> str:
        """Append a message and commit it. Returns its id."""
        message_id = new_id()
        stamp = now()
        with self._write():
            seq = self.conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE session_id = ?",
                                    (session_id,)).fetchone()[0]
            self.db["messages"].insert({"id": message_id, "session_id": session_id, "seq": seq, "role": role,
                                        "text": text, "payload": json.dumps(payload or {}, sort_keys=True),
                                        "created": stamp})
            self.conn.execute("UPDATE sessions SET updated = ? WHERE id = ?", (stamp, session_id))
        return message_id

    def save_reply(self, session_id: str, text: str, payload: dict[str, Any], state: dict[str, Any],
                   tool_calls: list[dict[str, Any]], title: str | None = None) -> str:
        """The assistant's reply, the tool calls behind it and the engine state, in one commit."""
        message_id = new_id()
        stamp = now()
        with self._write():
            seq = self.conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE session_id = ?",
                                    (session_id,)).fetchone()[0]
            self.db["messages"].insert({"id": message_id, "session_id": session_id, "seq": seq, "role": "assistant",
                                        "text": text, "payload": json.dumps(payload, sort_keys=True),
                                        "created": stamp})
            for call in tool_calls:
                self.db["tool_calls"].insert({
                    "id": new_id(), "session_id": session_id, "message_id": message_id, "tool": call["tool"],
                    "arguments": json.dumps(call["arguments"], sort_keys=True),
                    "result": json.dumps(call["result"], sort_keys=True), "duration_ms": call["duration_ms"],
                    "created": stamp})
            update = {"updated": stamp, "state": json.dumps(state, sort_keys=True),
                      "profile": json.dumps(state.get("profile") or {}, sort_keys=True)}
            if title:
                update["title"] = title
            self.db["sessions"].update(session_id, update)
        return message_id

    def messages(self, session_id: str) -> list[dict[str, Any]]:
        session_id = self.resolve_id(session_id)
        rows = self.conn.execute("SELECT id, seq, role, text, payload, created FROM messages WHERE session_id = ? "
                                 "ORDER BY seq", (session_id,))
        return [{"id": r[0], "seq": r[1], "role": r[2], "text": r[3], "payload": json.loads(r[4] or "{}"),
                 "created": r[5]} for r in rows]

    def tool_calls(self, session_id: str) -> list[dict[str, Any]]:
        session_id = self.resolve_id(session_id)
        rows = self.conn.execute("SELECT message_id, tool, arguments, result, duration_ms FROM tool_calls "
                                 "WHERE session_id = ? ORDER BY rowid", (session_id,))
        return [{"message_id": r[0], "tool": r[1], "arguments": json.loads(r[2]), "result": json.loads(r[3]),
                 "duration_ms": r[4]} for r in rows]

    # -- export, import, backup

    def export_json(self, session_id: str) -> dict[str, Any]:
        s = self.session(session_id)
        messages = self.messages(s["id"])
        seq_of = {m["id"]: m["seq"] for m in messages}
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "session": {
            "id": s["id"], "title": s["title"], "created": s["created"], "updated": s["updated"],
            "profile": s["profile"], "state": s["state"]},
            "messages": [{k: m[k] for k in ("seq", "role", "text", "payload", "created")} for m in messages],
            "tool_calls": [{"message_seq": seq_of.get(c["message_id"]), **{k: c[k] for k in
                            ("tool", "arguments", "result", "duration_ms")}} for c in self.tool_calls(s["id"])]}

    def export_markdown(self, session_id: str) -> str:
        s = self.session(session_id)
        lines = [f"# {s['title']}", "", f"_GPU Advisor session {s['id']}, started {s['created'][:16]} UTC._", ""]
        for m in self.messages(s["id"]):
            who = "You" if m["role"] == "user" else "Advisor"
            lines += [f"**{who}:**", "", m["text"], ""]
        return "\n".join(lines).rstrip() + "\n"

    def export_text(self, session_id: str, fmt: str = "markdown") -> str:
        """A session as a Markdown report or as JSON text."""
        if fmt == "json":
            return json.dumps(self.export_json(session_id), indent=2) + "\n"
        return self.export_markdown(session_id)

    def export_to(self, session_id: str, target: str | Path, overwrite: bool = False) -> Path:
        """Write an export; JSON for a .json file, Markdown otherwise. An existing file is never
        replaced unless `overwrite` is given."""
        target = Path(target).expanduser()
        text = self.export_text(session_id, "json" if target.suffix.lower() == ".json" else "markdown")
        try:
            with target.open("w" if overwrite else "x", encoding="utf-8") as f:
                f.write(text)
        except FileExistsError:
            raise HistoryError(f"{target} exists; choose another name (exports never overwrite)") from None
        except OSError as e:
            raise HistoryError(f"cannot write {target}: {e.strerror or e}") from None
        return target

    def import_json(self, data: Any) -> str:
        """Add an exported session as a new session (never overwriting one that exists)."""
        from pydantic import ValidationError

        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise HistoryError(f"not a GPU Advisor session export (missing format: {EXPORT_FORMAT})")
        try:
            export = _Export.model_validate(data)
        except ValidationError as e:
            where = "; ".join(".".join(str(x) for x in err["loc"]) + f": {err['msg']}" for err in e.errors()[:3])
            raise HistoryError(f"the export is malformed ({where})") from None
        if export.version > EXPORT_VERSION:
            raise HistoryError("this export was made by a newer GPU Advisor")
        session_id = new_id()
        stamp = now()
        with self._write():
            self.db["sessions"].insert({
                "id": session_id, "title": (export.session.title or "Imported conversation")[:200],
                "created": export.session.created or stamp, "updated": stamp,
                "profile": json.dumps(export.session.profile), "state": json.dumps(export.session.state)})
            ids: dict[int, str] = {}
            for seq, m in enumerate(export.messages, start=1):
                ids[m.seq if m.seq is not None else seq] = message_id = new_id()
                self.db["messages"].insert({"id": message_id, "session_id": session_id, "seq": seq,
                                            "role": m.role, "text": m.text,
                                            "payload": json.dumps(m.payload, sort_keys=True),
                                            "created": m.created or stamp})
            for call in export.tool_calls:
                self.db["tool_calls"].insert({
                    "id": new_id(), "session_id": session_id, "message_id": ids.get(call.message_seq),
                    "tool": call.tool, "arguments": json.dumps(call.arguments, sort_keys=True),
                    "result": json.dumps(call.result, sort_keys=True), "duration_ms": call.duration_ms,
                    "created": stamp})
        return session_id

    def backup(self, target: str | Path) -> Path:
        target = Path(target).expanduser()
        if target.exists():
            raise HistoryError(f"{target} exists; choose a new file name (backups never overwrite)")
        target.parent.mkdir(parents=True, exist_ok=True)
        self.conn.execute("VACUUM INTO ?", (str(target),))
        return target
