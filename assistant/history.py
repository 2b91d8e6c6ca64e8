"""The session history store: a readable record of every conversation, in SQLite (sqlite-utils).

Tables: sessions (title, created, updated, profile, engine state), messages (role, text, structured
payload), tool_calls (tool, arguments, result, duration), `_migrations` (named migrations, applied
in order on every open) and an FTS index over message text.

Writes run inside BEGIN IMMEDIATE with a busy timeout, so two app instances writing at once wait
for each other instead of failing with "database is locked". Each write commits before it returns:
a message is on disk before anyone is shown it. A database written by a newer version is refused,
untouched.

Damage is looked for before use: the file header, the write-ahead log (every frame's checksum, read
the way SQLite reads it) and `PRAGMA quick_check`. Damaged files are never discarded: they are kept
side by side with the database (history.db.damaged-1, history.db.damaged-1-wal, ...), the rows SQLite
can still read are recovered from them (also those a damaged log frame would hide) and the caller is
told, in one line, what was kept and where the originals are. A row that cannot be decoded affects
that row only.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import struct
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
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


class StorageError(HistoryError):
    """The disk, not the input, is the problem (read-only file, disk full, missing folder): exit 1."""


def _storage_problem(exc: BaseException) -> str | None:
    """Words for an SQLite or OS error that the environment causes; None for anything else."""
    text = str(exc).lower()
    for words, meaning in (("readonly", "the file is read-only"), ("read-only", "the file is read-only"),
                           ("disk is full", "the disk is full"), ("no space", "the disk is full"),
                           ("disk i/o", "a disk error"), ("unable to open", "the file cannot be opened"),
                           ("permission denied", "permission denied"), ("quota", "the disk quota is used up")):
        if words in text:
            return meaning
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return None


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
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# ---------------------------------------------------------------- migrations


def _m001_initial(db: sqlite_utils.Database) -> None:
    db.table("sessions").create({"id": str, "title": str, "created": str, "updated": str, "profile": str, "state": str},
                          pk="id", not_null={"title", "created", "updated"}, defaults={"profile": "{}", "state": "{}"})
    db.table("messages").create({"id": str, "session_id": str, "seq": int, "role": str, "text": str, "payload": str,
                           "created": str}, pk="id", foreign_keys=[("session_id", "sessions", "id")],
                          not_null={"session_id", "seq", "role", "text", "created"})
    db.table("messages").create_index(["session_id", "seq"], unique=True)
    db.table("tool_calls").create({"id": str, "session_id": str, "message_id": str, "tool": str, "arguments": str,
                             "result": str, "duration_ms": float, "created": str}, pk="id",
                            foreign_keys=[("session_id", "sessions", "id"), ("message_id", "messages", "id")])
    db.table("tool_calls").create_index(["session_id"])
    db.table("sessions").create_index(["updated"])


def _m002_message_fts(db: sqlite_utils.Database) -> None:
    db.table("messages").enable_fts(["text"], create_triggers=True, tokenize="unicode61")


def _m003_session_title_fts(db: sqlite_utils.Database) -> None:
    db.table("sessions").enable_fts(["title"], create_triggers=True, tokenize="unicode61")


def _m004_search_text_and_trigram_fts(db: sqlite_utils.Database) -> None:
    """Search the words people wrote, in any script: a `search_text` column (the text without the
    suggestion line every answer ends with, so "int4" no longer matches every session), indexed
    twice: by words (unicode61) and by trigrams (Chinese and Japanese have no spaces between words,
    so unicode61 sees a whole sentence as one token). Existing rows are filled and indexed."""
    conn = db.conn
    conn.execute("ALTER TABLE messages ADD COLUMN search_text TEXT")
    rows = conn.execute("SELECT rowid, role, text FROM messages").fetchall()
    conn.executemany("UPDATE messages SET search_text = ? WHERE rowid = ?",
                     [(search_text(role, text or ""), rowid) for rowid, role, text in rows])
    db.table("messages").disable_fts()
    db.table("messages").enable_fts(["search_text"], create_triggers=True, tokenize="unicode61")
    try:
        conn.execute("CREATE VIRTUAL TABLE messages_trigram USING fts5(search_text, content='messages', "
                     "content_rowid='rowid', tokenize='trigram')")
    except sqlite3.OperationalError:
        return  # SQLite before 3.34 has no trigram tokenizer: Chinese words are then found by a scan
    for trigger in (
            "messages_trigram_ai AFTER INSERT ON messages BEGIN "
            "INSERT INTO messages_trigram (rowid, search_text) VALUES (new.rowid, new.search_text); END",
            "messages_trigram_ad AFTER DELETE ON messages BEGIN "
            "INSERT INTO messages_trigram (messages_trigram, rowid, search_text) "
            "VALUES ('delete', old.rowid, old.search_text); END",
            "messages_trigram_au AFTER UPDATE ON messages BEGIN "
            "INSERT INTO messages_trigram (messages_trigram, rowid, search_text) "
            "VALUES ('delete', old.rowid, old.search_text); "
            "INSERT INTO messages_trigram (rowid, search_text) VALUES (new.rowid, new.search_text); END"):
        conn.execute(f"CREATE TRIGGER {trigger}")
    conn.execute("INSERT INTO messages_trigram (messages_trigram) VALUES ('rebuild')")


MIGRATIONS: list[tuple[str, Callable[[sqlite_utils.Database], None]]] = [
    ("001_initial", _m001_initial),
    ("002_message_fts", _m002_message_fts),
    ("003_session_title_fts", _m003_session_title_fts),
    ("004_search_text_and_trigram_fts", _m004_search_text_and_trigram_fts),
]

# Scripts written without spaces between words: searched by substring, not by word.
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef\uac00-\ud7af]")


def _boilerplate() -> list[str]:
    """The suggestion lines the engine appends to answers, in every language of the catalog."""
    try:
        from assistant.catalog import LANGS, say

        return [say(lang, key) for lang in LANGS for key in ("answer.footer", "reply.followups")]
    except Exception:  # noqa: BLE001 - a catalog problem must never stop a message from being saved
        return []


def search_text(role: str, text: str) -> str:
    """What search looks at: the message without the suggestion line that ends every answer."""
    if role != "assistant":
        return text
    for line in _boilerplate():
        text = text.replace(line, "")
    return text.strip()


EXPORT_FORMAT = "gpu-advisor-session"
EXPORT_VERSION = 1


MAX_QUERY_CHARS = 1000
MAX_QUERY_WORDS = 16
MAX_TEXT_CHARS = 200_000  # one stored message; user input is capped far lower (assistant.session)
MAX_MESSAGES = 10_000  # in one imported session
MAX_IMPORT_BYTES = 64 * 1024 * 1024


def _export_models():
    """Pydantic models of the JSON export (built on first import, not at start-up)."""
    from typing import Literal

    from pydantic import BaseModel, ConfigDict, Field

    class Loose(BaseModel):
        model_config = ConfigDict(extra="ignore")

    class State(Loose):
        """The engine state keys a session keeps, by type; assistant.session checks the values."""
        profile: dict[str, Any] = {}
        defaulted: dict[str, str] = {}
        asked: list[str] = Field([], max_length=1000)
        pending: str | None = None
        results: dict[str, Any] = {}
        lang: str | None = Field(None, max_length=16)
        cards: dict[str, Any] = {}

    class Session(Loose):
        title: str | None = Field(None, max_length=10_000)
        created: str | None = Field(None, max_length=64)
        profile: dict[str, Any] = {}
        state: State = State()

    class Msg(Loose):
        seq: int | None = Field(None, ge=0, le=10 * MAX_MESSAGES)
        role: Literal["user", "assistant"]
        text: str = Field(max_length=MAX_TEXT_CHARS)
        payload: dict[str, Any] = {}
        created: str | None = Field(None, max_length=64)

    class Call(Loose):
        message_seq: int | None = None
        tool: str = Field(max_length=200)
        arguments: dict[str, Any] = {}
        result: Any = None
        duration_ms: float | None = Field(None, ge=0, allow_inf_nan=False)

    class Export(Loose):
        format: Literal["gpu-advisor-session"]
        version: int = Field(ge=1, le=EXPORT_VERSION)
        session: Session = Session()
        messages: list[Msg] = Field([], max_length=MAX_MESSAGES)
        tool_calls: list[Call] = Field([], max_length=10 * MAX_MESSAGES)

    return Export


class _LazyExport:
    _model: Any = None

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


def _snippet(text: str, words: list[str], around: int = 40) -> str:
    """The part of `text` around the first word found, that word in [brackets]."""
    flat = " ".join(text.split())
    lower = flat.lower()
    hits = [(lower.find(w.lower()), w) for w in words if lower.find(w.lower()) >= 0]
    if not hits:
        return flat[: 2 * around]
    at, word = min(hits)
    start = max(0, at - around)
    end = min(len(flat), at + len(word) + around)
    return (("…" if start else "") + flat[start:at] + "[" + flat[at: at + len(word)] + "]"
            + flat[at + len(word): end] + ("…" if end < len(flat) else ""))


# ---------------------------------------------------------------- damage and recovery

SQLITE_MAGIC = b"SQLite format 3\x00"
WAL_MAGIC = (0x377F0682, 0x377F0683)
QUICK_CHECK_MAX_BYTES = 1 << 30  # beyond 1 GB the header and log checks stand alone (quick_check reads it all)
RECOVERED_COLUMNS = {
    "sessions": ("id", "title", "created", "updated", "profile", "state"),
    "messages": ("id", "session_id", "seq", "role", "text", "payload", "created"),
    "tool_calls": ("id", "session_id", "message_id", "tool", "arguments", "result", "duration_ms", "created"),
}


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _json(text: str | None, default: Any) -> Any:
    """A stored JSON value; a damaged one reads as the default (the rest of the row still shows)."""
    try:
        value = json.loads(text) if text else default
    except ValueError:
        return default
    return value if isinstance(value, type(default)) or default is None else default


def _names(kept: Path) -> str:
    sides = [side for side in ("-wal", "-shm") if Path(f"{kept}{side}").exists()]
    return f"{kept}" + (f" (with its {' and '.join(sides)} files)" if sides else "")


def looks_like_sqlite(path: Path) -> bool:
    """True for a missing or empty file (SQLite starts a database there) and for a file that begins
    with the SQLite header. Only such a file may ever be moved aside as damaged: anything else is
    somebody's document, named by mistake."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return True
        with path.open("rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return True  # the open that follows reports the real problem


def _header_damage(path: Path) -> str | None:
    """What is wrong with an SQLite file's 100-byte header (None when nothing is, or when the file
    does not even start like an SQLite database: SQLite itself says so)."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError:
        return None
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return None
    page_size = int.from_bytes(header[16:18], "big")
    if page_size != 1 and not (512 <= page_size <= 32768 and page_size & (page_size - 1) == 0):
        return f"damaged header: page size {page_size}"
    if header[18] not in (1, 2) or header[19] not in (1, 2):
        return "damaged header: file format version"
    if header[21:24] != b"\x40\x20\x20":
        return "damaged header: payload fractions"
    if int.from_bytes(header[44:48], "big") not in (0, 1, 2, 3, 4):  # 0: no schema yet
        return "damaged header: schema format number"
    if int.from_bytes(header[56:60], "big") not in (0, 1, 2, 3):
        return "damaged header: text encoding"
    return None


@dataclass
class _Wal:
    page_size: int = 0
    frames: list[tuple[int, int, bytes]] = field(default_factory=list)  # (page, database size if a commit, page)
    damage: str | None = None
    salts: tuple[int, int] = (0, 0)
    committed: int = 0  # frames SQLite uses: the sound prefix, up to its last commit frame


def _wal_checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def _read_wal(data: bytes, page_size_hint: int = 0) -> _Wal:
    """Read a write-ahead log as SQLite does, and say what SQLite would silently drop. Each frame is
    checked on its own (its checksum is chained to the previous frame's stored one), so the frames
    after a damaged one are found too: `frames` holds every sound frame of the current log. With a
    damaged log header, the frames are still read, with the page size of the database (the hint)."""
    wal = _Wal(frames=[])
    if len(data) < 32:
        wal.damage = f"the log is {len(data)} bytes, shorter than its header"
        return wal
    magic, version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:32])
    sane = 512 <= page_size <= 65536 and not page_size & (page_size - 1)
    if magic in WAL_MAGIC and version == 3007000 and sane and \
            _wal_checksum(data[:24], 0, 0, magic & 1 == 1) == (c0, c1):
        return _read_frames(data, wal, page_size, (salt1, salt2), (c0, c1), magic & 1 == 1)
    wal.damage = "the log header is damaged"
    page_size = page_size if sane else page_size_hint
    if not page_size or len(data) < 32 + 24 + page_size:
        return wal
    salts = struct.unpack(">2I", data[40:48])  # those of the first frame
    for big_endian in (False, True):
        found = _read_frames(data, _Wal(frames=[]), page_size, salts, (c0, c1), big_endian)
        if found.frames:
            wal.page_size, wal.frames = page_size, found.frames
            break
    return wal


def _read_frames(data: bytes, wal: _Wal, page_size: int, salts: tuple[int, int], seed: tuple[int, int],
                 big_endian: bool) -> _Wal:
    wal.page_size, wal.salts = page_size, salts
    size = 24 + page_size
    previous = seed
    bad = 0
    sound_prefix = True
    for offset in range(32, len(data) - size + 1, size):
        frame = data[offset: offset + size]
        page, _commit, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", frame[:24])
        if (f_salt1, f_salt2) != salts:
            sound_prefix = False  # a frame of an earlier log generation, or one whose header is damaged
            continue
        ok = page > 0 and _wal_checksum(frame[:8] + frame[24:], *previous, big_endian) == (f0, f1)
        previous = (f0, f1)
        if ok:
            wal.frames.append((page, _commit, frame[24:]))
            if sound_prefix and _commit:
                wal.committed = len(wal.frames)
            if not sound_prefix:
                wal.damage = wal.damage or "a frame of the log is damaged; SQLite would drop every later one"
        else:
            bad += 1
            sound_prefix = False
    if bad and not wal.damage:
        wal.damage = f"{bad} frame{'s' if bad != 1 else ''} of the log {'are' if bad != 1 else 'is'} damaged"
    if (len(data) - 32) % size:
        wal.damage = wal.damage or "the log ends in the middle of a frame (it was cut short)"
    return wal


def _indexed_frames(shm: bytes) -> tuple[int, tuple[int, int]] | None:
    """(frames, salts) of the log as its last writer left them in the -shm index, if it is sound."""
    if len(shm) < 96 or shm[:48] != shm[48:96] or not shm[12]:
        return None
    (frames,) = struct.unpack("=I", shm[16:20])  # native byte order; the salts are the log's own bytes
    return frames, struct.unpack(">2I", shm[32:40])


def _database_image(db: bytes, wal_bytes: bytes) -> bytes:
    """A database file to read rows from: `db` with every sound committed frame of the log applied
    (also those after a damaged frame), its header repaired, and marked as not using a log."""
    header_size = int.from_bytes(db[16:18], "big") if db.startswith(SQLITE_MAGIC) else 0
    header_size = 65536 if header_size == 1 else header_size
    wal = _read_wal(wal_bytes, header_size) if wal_bytes else _Wal(frames=[])
    page_size = wal.page_size or header_size
    if not page_size or page_size & (page_size - 1):
        raise ValueError("no page size")
    pages = {n: db[n * page_size:(n + 1) * page_size] for n in range(len(db) // page_size)}
    last_commit = max((i for i, (_p, commit, _d) in enumerate(wal.frames or []) if commit), default=-1)
    size = len(pages)
    for page, commit, data in (wal.frames or [])[: last_commit + 1]:
        pages[page - 1] = data
        if commit:
            size = commit
    if 0 not in pages:
        raise ValueError("no first page")
    image = bytearray(b"".join(pages.get(n, bytes(page_size)) for n in range(max(size, 1))))
    image[:16] = SQLITE_MAGIC
    image[16:18] = (1 if page_size == 65536 else page_size).to_bytes(2, "big")
    image[18:20] = b"\x01\x01"  # rollback journal: the image has no log of its own
    image[21:24] = b"\x40\x20\x20"
    if int.from_bytes(image[44:48], "big") not in (1, 2, 3, 4):
        image[44:48] = (4).to_bytes(4, "big")
    image[56:60] = (1).to_bytes(4, "big")  # UTF-8, the only encoding this store writes
    return bytes(image)


def _readable_rows(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> Iterator[tuple]:
    """Every row of `table` SQLite can still read, in rowid order: a damaged part of the table is
    stepped over (by ever larger jumps, so a badly damaged table costs a bounded number of tries)."""
    last, step, failures = -(1 << 63), 1, 0
    while failures < 64:
        try:
            for row in conn.execute(f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? "
                                    "ORDER BY rowid", (last,)):
                last, step = row[0], 1
                yield row[1:]
            return
        except sqlite3.DatabaseError as exc:
            if "no such table" in str(exc):
                return
            failures += 1
            last = max(last, 0) + step
            step *= 2


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
            raise HistoryError(f"{self.path} is not a GPU Advisor history database (it does not start with the "
                               "SQLite header); it was left untouched. Give --db a new file name or an existing "
                               "history database")
        try:
            damage = _header_damage(self.path)
            if damage:
                raise sqlite3.DatabaseError(damage)
            self._open()
        except sqlite3.DatabaseError as exc:
            text = str(exc).lower()
            if "locked" in text or "busy" in text:
                raise StorageError(f"the history database {self.path} is busy; try again") from None
            problem = _storage_problem(exc)
            if problem:
                raise StorageError(f"cannot open the history database {self.path}: {problem}; "
                                   "nothing was read or saved") from None
            corrupt = any(w in text for w in ("not a database", "malformed", "integrity check", "corrupt",
                                              "damaged header", "unsupported file format"))
            if not corrupt or not self.path.is_file():
                raise HistoryError(f"cannot open the history database {self.path}: {exc}") from None
            kept = self._keep_damaged(move=True)
            self._open()
            self.notice = (f"The history database could not be read ({exc}); the original was moved to "
                           f"{_names(kept)} and a new database started; {self._recover_from(kept)}.")

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
            if self.path.stat().st_size <= QUICK_CHECK_MAX_BYTES and \
                    conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
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
        for side in ("", "-wal", "-shm"):
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
                    with self._write():
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
                                  (row["session_id"], row["created"] or now(), now()))
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
                if ("locked" not in str(exc) and "busy" not in str(exc)) or attempt == 49:
                    raise self._unsaved(exc) from None
                time.sleep(0.05)
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException as exc:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise self._unsaved(exc) from None
            raise

    def _unsaved(self, exc: sqlite3.Error) -> Exception:
        """The error to raise when a write fails: StorageError when the disk is the cause."""
        problem = _storage_problem(exc) or ("the database is busy" if "locked" in str(exc) else None)
        if problem is None:
            return exc
        return StorageError(f"could not save to {self.path} ({problem}); this change was not saved, "
                            "everything saved before it is kept")

    def close(self) -> None:
        self.conn.close()

    def applied_migrations(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM _migrations ORDER BY name")]

    # -- sessions

    def create_session(self, title: str = "New conversation") -> str:
        session_id = new_id()
        stamp = now()
        with self._write():
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
            self.db.table("sessions").update(session_id, {"title": title, "updated": now()})

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
        """Sessions with a message (or a title) holding every word typed, newest first. Words are
        matched as words through the FTS index (user text is quoted for FTS5). A query with a word
        in a script written without spaces (微调) matches each of its words as a substring: through
        the trigram index from three characters on, by a scan below that. The suggestion line that
        ends answers is not searched."""
        # Bounded work: a capped query, each word once (FTS5 costs grow with repeated phrases).
        words = list(dict.fromkeys(query[:MAX_QUERY_CHARS].replace("\x00", " ").split()))[:MAX_QUERY_WORDS]
        if not words:
            return self.list_sessions(limit)
        unspaced = [w for w in words if _UNSPACED.search(w)]
        # Beside a Chinese word, the other words are looked for inside the text too ("27B" in 一个27B的模型
        # is no word of its own to unicode61).
        spaced = [] if unspaced else words
        unspaced = words if unspaced else []
        trigram = self._has_table("messages_trigram")

        def quoted(ws: list[str]) -> str:
            return " ".join('"' + w.replace('"', '""') + '"' for w in ws)

        message_where, message_args, title_where, title_args = [], [], [], []
        if spaced:
            message_where.append("m.rowid IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)")
            title_where.append("s.rowid IN (SELECT rowid FROM sessions_fts WHERE sessions_fts MATCH ?)")
            message_args.append(quoted(spaced))
            title_args.append(quoted(spaced))
        for w in unspaced:
            if trigram and len(w) >= 3:
                message_where.append("m.rowid IN (SELECT rowid FROM messages_trigram WHERE messages_trigram MATCH ?)")
                message_args.append(quoted([w]))
            else:
                message_where.append("instr(lower(coalesce(m.search_text, m.text)), lower(?)) > 0")
                message_args.append(w)
            title_where.append("instr(lower(s.title), lower(?)) > 0")
            title_args.append(w)
        count = "(SELECT count(*) FROM messages c WHERE c.session_id = s.id)"
        sql = f"""
            SELECT s.id, s.title, s.created, s.updated, {count}, coalesce(m.search_text, m.text)
            FROM messages m JOIN sessions s ON s.id = m.session_id WHERE {" AND ".join(message_where)}
            UNION ALL
            SELECT s.id, s.title, s.created, s.updated, {count}, s.title
            FROM sessions s WHERE {" AND ".join(title_where)}
            ORDER BY 4 DESC, 1 DESC LIMIT {int(limit) * 4}"""
        seen: dict[str, SessionRow] = {}
        for r in self.conn.execute(sql, (*message_args, *title_args)):
            if r[0] not in seen:
                seen[r[0]] = SessionRow(r[0], r[1], r[2], r[3], r[4], snippet=_snippet(r[5] or "", words))
        return list(seen.values())[:limit]

    def _search(self, role: str, text: str) -> dict[str, str]:
        return {"search_text": search_text(role, text)} if self._search_column else {}

    def _has_table(self, name: str) -> bool:
        return bool(self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone())

    # -- messages

    def add_message(self, session_id: str, role: str, text: str, payload: dict[str, Any] | None = None) -> str:
        """Append a message and commit it. Returns its id."""
        message_id = new_id()
        stamp = now()
        with self._write():
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
        stamp = now()
        with self._write():
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
        with self._write():
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

    def export_to(self, session_id: str, target: str | Path, overwrite: bool = False,
                  fmt: str | None = None) -> Path:
        """Write an export (JSON for a .json file unless `fmt` says, Markdown otherwise). An existing
        file is never replaced unless `overwrite` is given."""
        target = Path(target).expanduser()
        text = self.export_text(session_id, fmt or ("json" if target.suffix.lower() == ".json" else "markdown"))
        return write_new_file(target, lambda tmp: tmp.write_text(text, encoding="utf-8"), overwrite, "export")

    def import_json(self, data: Any) -> str:
        """Add an exported session as a new session (never overwriting one that exists)."""
        from pydantic import ValidationError

        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise HistoryError(f"not a GPU Advisor session export (missing format: {EXPORT_FORMAT})")
        if isinstance(data.get("version"), int) and data["version"] > EXPORT_VERSION:
            raise HistoryError("this export was made by a newer GPU Advisor")
        try:
            export = _Export.model_validate(data)
            from assistant.policy import Profile  # the profile must be one the engine can continue

            for profile in (export.session.profile, export.session.state.profile):
                Profile.model_validate(profile)
        except ValidationError as e:
            where = "; ".join(".".join(str(x) for x in err["loc"]) + f": {err['msg']}" for err in e.errors()[:3])
            raise HistoryError(f"the export is malformed ({where}); nothing was imported") from None
        state = export.session.state.model_dump(exclude_unset=True)
        session_id = new_id()
        stamp = now()
        with self._write():
            self.db.table("sessions").insert({
                "id": session_id, "title": (export.session.title or "Imported conversation")[:200],
                "created": export.session.created or stamp, "updated": stamp,
                "profile": json.dumps(export.session.profile), "state": json.dumps(state, sort_keys=True)})
            ids: dict[int, str] = {}
            for seq, m in enumerate(export.messages, start=1):
                ids[m.seq if m.seq is not None else seq] = message_id = new_id()
                self.db.table("messages").insert({"id": message_id, "session_id": session_id, "seq": seq,
                                            "role": m.role, "text": m.text,
                                            "payload": json.dumps(m.payload, sort_keys=True),
                                            "created": m.created or stamp, **self._search(m.role, m.text)})
            for call in export.tool_calls:
                self.db.table("tool_calls").insert({
                    "id": new_id(), "session_id": session_id, "message_id": ids.get(call.message_seq),
                    "tool": call.tool, "arguments": json.dumps(call.arguments, sort_keys=True),
                    "result": json.dumps(call.result, sort_keys=True), "duration_ms": call.duration_ms,
                    "created": stamp})
        return session_id

    def backup(self, target: str | Path) -> Path:
        """A consistent copy of the database (VACUUM INTO), written beside the target and renamed into
        place: an interrupted backup leaves no partial file, and an existing file is never replaced."""
        target = Path(target).expanduser()
        if not target.is_symlink() and not target.exists():
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise StorageError(f"cannot create {target.parent}: {e.strerror or e}; no backup was written") from None

        def vacuum_into(tmp: Path) -> None:
            tmp.unlink()  # VACUUM INTO makes the file itself
            self.conn.execute("VACUUM INTO ?", (str(tmp),))

        return write_new_file(target, vacuum_into, False, "backup")


def write_new_file(target: Path, write: Callable[[Path], object], overwrite: bool, what: str) -> Path:
    """Write `target` atomically: `write` fills a temporary file in the same folder, which is then
    renamed into place. Never through a symbolic link; never over an existing file unless `overwrite`;
    a failure leaves nothing behind."""
    if target.is_symlink():
        raise HistoryError(f"{target} is a symbolic link; give the path of a new file (no {what} was written)")
    if target.exists() and (not overwrite or not target.is_file()):
        raise HistoryError(f"{target} exists; choose another name ({what}s never overwrite)")
    if not target.parent.is_dir():
        raise StorageError(f"cannot write {target}: the folder {target.parent} does not exist; no {what} was written")
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    except OSError as e:
        raise StorageError(f"cannot write in {target.parent} ({e.strerror or e}); no {what} was written") from None
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        with tmp.open("rb+") as f:
            os.fsync(f.fileno())
        if overwrite:
            os.replace(tmp, target)
        else:
            try:
                os.link(tmp, target)  # fails if the target appeared meanwhile: nothing is overwritten
            except FileExistsError:
                raise HistoryError(f"{target} exists; choose another name ({what}s never overwrite)") from None
            except OSError:  # a file system without hard links
                if target.exists():
                    raise HistoryError(f"{target} exists; choose another name ({what}s never overwrite)") from None
                os.replace(tmp, target)
    except (OSError, sqlite3.Error) as e:
        raise StorageError(f"cannot write {target} ({_storage_problem(e) or e}); no {what} was written") from None
    finally:
        tmp.unlink(missing_ok=True)
    return target
