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
import errno
import functools
import hashlib
import json
import os
import re
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from gpu_advisor.assistant.history import common, export, migrations
from gpu_advisor.assistant.history.common import (
    BUSY_TIMEOUT_MS,
    DatabaseTooNew,
    HistoryError,
    NotSaved,
    SessionGone,
    SessionRow,
    StorageError,
    _decode,
    _json,
    _storage_problem,
    default_path,
    new_id,
)
from gpu_advisor.assistant.history.damage import (
    QUICK_CHECK_MAX_BYTES,
    RECOVERED_COLUMNS,
    SQLITE_MAGIC,
    _database_image,
    _header_damage,
    _indexed_frames,
    _names,
    _only_uncommitted,
    _read_wal,
    _readable_rows,
    _unbackfilled_frames,
    log_of_another_file,
    looks_like_sqlite,
)
from gpu_advisor.assistant.history.search import search_sessions, search_text
from gpu_advisor.assistant.terminal import escaped

CHECK_MARK = ".check"
SHM_REGION_BYTES = 32 * 1024  # SQLite grows a -shm index in regions of this size: a smaller one was cut short
# What stops anything being written beside the database (_storage_problem's words): it can still be read.
WRITE_BLOCKED = frozenset({"the disk is full", "a disk error", "the disk quota is used up"})
OWN_MARK_SCAN_BYTES = 256 * 1024  # where a damaged file's schema (page 1, or the first pages) is looked for
APPLICATION_ID = 0x47504144  # "GPAD" in the header's application_id: this application's database


# The half-written files this store itself leaves when killed (NAME.<rest>): a copy of a damaged database or its
# -wal/-shm (damaged-N[-wal|-shm].part), a recovered database being built with SQLite's own files beside it
# (damaged-N.new.part[-wal|-shm|-journal]), and a rebuilt image (image.part). Nothing else beside it is touched.
OWN_PARTS = re.compile(r"damaged-\d+(?:-wal|-shm)?\.part|damaged-\d+\.new\.part(?:-wal|-shm|-journal)?|image\.part")


# A recovery reads every row it can: a damaged database larger than this says so on stderr first, in one line,
# so that the wait (about 10 s for 200 MB) is not a silent block.
PROGRESS_MIN_BYTES = 16 << 20


def _say_recovering(source: Path) -> None:
    try:
        size = source.stat().st_size + (Path(f"{source}-wal").stat().st_size if Path(f"{source}-wal").is_file() else 0)
    except OSError:
        return
    if size < PROGRESS_MIN_BYTES:
        return
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"gpu-advisor: recovering the damaged history database {escaped(source)} "
                         f"({size / (1 << 20):,.0f} MB): reading every row that can still be read; "
                         "this can take a while…\n")
        sys.stderr.flush()


def _kill_point(step: str) -> None:
    """A step of a recovery; the tests kill the process here (a real kill, in a forked child)."""


# One open file per database for the session claims: POSIX record locks belong to the process, and
# closing any descriptor of the file would drop them all, so every store in a process shares it.
_CLAIMS: dict[str, tuple[int, dict[str, int]]] = {}
_CLAIMS_LOCK = threading.Lock()


def _open_lock_file(path: str, flags: int) -> int | None:
    """Open (creating it) a lock file beside the database: only a regular file. Never blocks (a FIFO would
    hold every command for ever); a FIFO, device or folder there is refused in one line, since a lock that
    cannot be taken would silently let two processes write at once. None where no file can be made there
    (a read-only folder: nothing can be written beside the database either)."""
    import stat

    try:
        fd = os.open(path, flags | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o644)
    except OSError as exc:
        if exc.errno in (errno.ENXIO, errno.EISDIR, errno.ELOOP, errno.ENODEV):
            raise _not_a_lock_file(path) from None
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise _not_a_lock_file(path)
    return fd


def _not_a_lock_file(path: str) -> HistoryError:
    return HistoryError(f"{path} is not a regular file (a FIFO, device or folder), so the history cannot be "
                        "locked; nothing was read or changed. Remove it and try again")


def _claim_offset(session_id: str) -> int:
    return int.from_bytes(hashlib.sha256(session_id.encode()).digest()[:6], "big")


RECOVERY_MARGIN = 1 << 20  # bytes beyond the damaged database's size a recovery needs free (SQLite's pages)


def _free_bytes(folder: Path) -> int:
    import shutil

    return shutil.disk_usage(folder).free


REMINDER_NAMES = 5  # kept copies the start-up note names; the rest are counted


def _runtime_dir() -> Path:
    """A folder of this user's for locks named by a file's identity (not its path)."""
    base = os.environ.get("XDG_RUNTIME_DIR") or ""
    if base and os.path.isdir(base):
        return Path(base) / "gpu-advisor"
    import tempfile

    return Path(tempfile.gettempdir()) / f"gpu-advisor-{os.getuid() if hasattr(os, 'getuid') else 0}"


def _file_key(path: Path) -> str | None:
    """The database file's identity, st_dev:st_ino: the same for every path to it (a symbolic link, a bind
    mount of the file, a container volume), unlike its name."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return f"{info.st_dev}-{info.st_ino}"


def _identity_key(path: Path) -> str | None:
    """Where the locks named by the file's identity live (RUNTIME/DEV-INO), or None where none can be made."""
    key = _file_key(path)
    if key is None:
        return None
    folder = _runtime_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return str(folder / key)


def _claim_session(path: Path, session_id: str) -> bool:
    """Claim a session for this process in the lock beside the database (NAME.sessions.lock) and in the
    one named by the file's identity, so that a second path to the same file (a bind mount) sees the
    claim too. True when claimed (also where record locks do not exist: nothing to guard with)."""
    keys = [os.path.realpath(path)]  # a symbolic link to the database claims in the database's own lock file
    identity = _identity_key(path)
    if identity is not None:
        keys.append(identity)
    taken: list[str] = []
    for key in keys:
        if not _claim_in(key, session_id):
            for done in taken:
                _release_in(done, {session_id})
            return False
        taken.append(key)
    return True


def _claim_in(key: str, session_id: str) -> bool:
    """Lock one byte of KEY.sessions.lock (at an offset the session id gives) for this process."""
    try:
        import fcntl
    except ImportError:
        return True
    with _CLAIMS_LOCK:
        if key not in _CLAIMS:
            fd = _open_lock_file(f"{key}.sessions.lock", os.O_RDWR)
            if fd is None:
                return True  # a read-only folder: no process can write the session either
            _CLAIMS[key] = (fd, {})
        fd, held = _CLAIMS[key]
        if session_id in held:
            held[session_id] += 1
            return True
        try:
            fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, _claim_offset(session_id))
        except OSError as exc:  # held by another process; any other error: a file system without locks
            return exc.errno not in (errno.EACCES, errno.EAGAIN)
        held[session_id] = 1
        return True


def _release_sessions(path: Path, sessions: set[str]) -> None:
    _release_in(os.path.realpath(path), sessions)
    identity = _identity_key(path)
    if identity is not None:
        _release_in(identity, sessions)


def _release_in(key: str, sessions: set[str]) -> None:
    try:
        import fcntl
    except ImportError:
        return
    with _CLAIMS_LOCK:
        fd, held = _CLAIMS.get(key, (-1, {}))
        for session_id in sessions:
            if session_id in held:
                held[session_id] -= 1
                if not held[session_id]:
                    del held[session_id]
                    with contextlib.suppress(OSError):
                        fcntl.lockf(fd, fcntl.LOCK_UN, 1, _claim_offset(session_id))


def _writable(path: Path) -> bool:
    """Whether this process may write the database and create files beside it (access(2): false on
    read-only media even for root)."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def _fsync(path: Path) -> None:
    """Make a file's (or a folder's) contents durable before the rename that relies on them."""
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)  # NAME.check: damage was met in use, so the next open runs the full check


def _built_here(new: Path) -> bool:
    """A recovered database this store built (NAME.damaged-N.new): an SQLite file with this application's id. Any
    other file of that name (a document saved there by hand) is never swapped in for the history."""
    try:
        with new.open("rb") as f:
            header = f.read(100)
    except OSError:
        return False
    return header.startswith(SQLITE_MAGIC) and int.from_bytes(header[68:72], "big") == APPLICATION_ID


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


_Method = TypeVar("_Method", bound=Callable[..., Any])


def _reads(method: _Method) -> _Method:
    """A public method of the store: whatever SQLite raises while it reads or writes reaches the caller
    as one of the store's own errors (HistoryError, StorageError, NotSaved, SessionGone), never as a
    bare sqlite3 exception."""

    @functools.wraps(method)
    def wrapper(self: HistoryStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise self._unreadable(exc) from None

    return wrapper  # type: ignore[return-value]


def _our_migrations(conn: sqlite3.Connection) -> bool:
    """Whether a `_migrations` table is this application's (a history written before it set its
    application id): exactly its columns, and at least one migration this version knows recorded. Another
    application's table of the same name (an empty one, other columns) is not."""
    columns = [r[1] for r in conn.execute("PRAGMA table_info(_migrations)")]
    if columns != ["name", "applied"]:
        return False
    known = [name for name, _migration in migrations.MIGRATIONS]
    marks = ", ".join("?" for _ in known)
    return conn.execute(f"SELECT 1 FROM _migrations WHERE name IN ({marks}) LIMIT 1", known).fetchone() is not None


# The files a history keeps beside its database NAME: never a database of their own ('--db history.db.lock' once
# turned the lock file into one).
SIDE_FILE = re.compile(r"(?:\.lock|-wal|-shm|-journal|\.check|\.damaged-\d+(?:-wal|-shm|\.new)?)$")


class HistoryStore:
    """Open (creating and migrating as needed) the history database at `path`."""

    def __init__(self, path: str | Path | None = None):
        if path is not None and not str(path).strip():
            raise HistoryError("--db needs the path of a database file, not an empty string")
        self.path = Path(path).expanduser() if path else default_path()
        self.notice: str | None = None  # set when something the user should know happened on open
        self._claimed: set[str] = set()  # sessions this process writes (see claim)
        self._shm: bytes | None = None
        if self.path.exists() and not self.path.is_file():
            raise HistoryError(f"{self.path} is not a file; give --db the path of a database file")
        own = SIDE_FILE.search(self.path.name)
        if own and own.start() and self.path.with_name(self.path.name[:own.start()]).is_file():
            raise HistoryError(f"{self.path} is a file kept beside the database {self.path.name[:own.start()]} "
                               "(its lock, log or a copy); nothing was read or changed. Give --db the database itself")
        self._refuse_odd_side_files()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot create {self.path.parent}: {e.strerror or e}") from None
        if not looks_like_sqlite(self.path):
            raise self._not_sqlite()
        self._refuse_foreign()  # before the lock file beside it is made: another application's file is left alone
        self.read_only, self.log_unread = False, 0
        if self.path.is_file() and self.path.stat().st_size and not _writable(self.path):
            self._open_read_only()  # read-only media, or a file the user may not write: still listed and read
            return
        # Opening (the checks) and moving a damaged file aside happen under one lock, NAME.lock: when
        # several processes find the same damaged file at once, the first recovers it and the others,
        # waiting, then open the recovered database. No process still reads the damaged file when it
        # is replaced (SQLite, closing a connection, would otherwise delete the new database's
        # write-ahead log by its name).
        self._foreign_note: str | None = None
        self._open_under_lock()
        if self._foreign_note:  # said first: the rest of the notice may name the same folder's copies
            self.notice = f"{self._foreign_note} {self.notice}" if self.notice else self._foreign_note

    def _open_under_lock(self) -> None:
        """Open the database holding NAME.lock: finish an interrupted recovery, set aside a log that is not the
        database's own, check the file, and move it aside and recover it when it is damaged."""
        with self._open_lock():
            if not looks_like_sqlite(self.path):  # (replaced while this process waited)
                raise self._not_sqlite()
            resumed = self._finish_interrupted_recovery()
            self._refuse_second_name()
            self._keep_foreign_log()
            shm = Path(f"{self.path}-shm")  # as the last writer left it, before any reader rebuilds it
            with contextlib.suppress(OSError):
                if self._shm is None and shm.is_file():  # (unless _refuse_foreign took it before reading)
                    self._shm = shm.read_bytes()
            existed = {side: Path(f"{self.path}{side}").exists() for side in ("-wal", "-shm")}
            try:
                damage = _header_damage(self.path)
                if damage:
                    raise sqlite3.DatabaseError(damage)
                self._open()
                if resumed:
                    self.notice = (f"A recovery of the history database was interrupted; it was completed now "
                                   f"and the damaged original is kept in {_names(resumed)}.")
                return
            except sqlite3.DatabaseError as exc:
                full = _storage_problem(exc) if _storage_problem(exc) in WRITE_BLOCKED else None
                if full and self.path.stat().st_size:
                    self._read_despite(full, existed)
                    return
                self._refuse_unless_damaged(exc)
                error = exc
            kept, recovered = self._recover_aside()
            self._shm = None  # the damaged file's index went with it
            self._open()
        self.notice = (f"The history database could not be read ({error}); the original was moved to "
                       f"{_names(kept)} and a new database started; {recovered}.")

    def _keep_foreign_log(self) -> None:
        """A log beside a database that uses none (damage.log_of_another_file: the database was restored from a
        copy, or moved here without its log): SQLite would write that log's frames into this file, leaving it
        unreadable, or delete the log with the last messages of the file it belongs to. Both are kept as they are
        (NAME.damaged-N, with its -wal and -shm; an empty NAME.damaged-N holds the place when the database itself
        was missing) and the log is taken away, so the database opens as it is."""
        if not log_of_another_file(self.path):
            return
        kept = self._keep_damaged()
        if not kept.exists():
            kept.touch()  # the copy's place: its log is named by it and reminded of at every start
        for side in ("-wal", "-shm"):
            Path(f"{self.path}{side}").unlink(missing_ok=True)
        _fsync(self.path.parent)
        self._shm = None
        self._foreign_note = (f"A write-ahead log lay beside the history database {self.path}, which does not use "
                              "one (restored from a copy, or moved here without its log?), so it is another file's: "
                              f"it was not applied, and it is kept in {_names(kept)}.")

    def _refuse_odd_side_files(self) -> None:
        """Refuse a -wal, -shm or -journal beside the database that is no regular file of its own: SQLite would read
        and write through a link (to /dev/zero, say), wait on a FIFO for ever, and fail on a folder."""
        for side in ("-wal", "-shm", "-journal"):
            beside = Path(f"{self.path}{side}")
            if beside.is_symlink():
                raise HistoryError(f"{beside} is a symbolic link, not the database's own {side[1:]} file; nothing "
                                   "was read or changed. Move it away and try again")
            if beside.exists() and not beside.is_file():
                raise HistoryError(f"{beside} is not a regular file (a FIFO, device or folder), so it cannot be the "
                                   f"database's own {side[1:]} file; nothing was read or changed. Move it away and "
                                   "try again")

    def _refuse_second_name(self) -> None:
        """Refuse a database file that has a second name (a hard link): SQLite keeps one log per name, so two
        processes writing through the two names would each keep a log of their own and one checkpoint would
        silently undo the other's messages. (A symbolic link is safe: SQLite and the locks follow it.)"""
        try:
            links = self.path.stat().st_nlink
        except OSError:
            return
        if links > 1:
            raise HistoryError(f"the history database {self.path} has {links} names (hard links); two names would "
                               "keep two logs and lose messages, so nothing was read or changed. Remove the other "
                               "names (or give --db a copy) and try again")
        self._refuse_other_path()

    def _refuse_other_path(self) -> None:
        """Refuse the file through a second path (a bind mount of the file: one name each, same st_dev:st_ino)
        while a log SQLite keeps beside the other path is still there: two logs for one file lose messages.
        The path last opened is recorded in RUNTIME/DEV-INO.path."""
        identity = _identity_key(self.path)
        if identity is None:
            return
        record = Path(f"{identity}.path")
        mine = os.path.realpath(self.path)
        with contextlib.suppress(OSError, UnicodeDecodeError):
            other = record.read_text(encoding="utf-8").strip()
            if other and other != mine and _file_key(Path(other)) == _file_key(self.path) \
                    and Path(f"{other}-wal").exists():
                raise HistoryError(f"the history database {self.path} is also open as {other} (the same file through "
                                   "another path, a bind mount); two paths would keep two logs and lose messages, so "
                                   "nothing was read or changed. Use that path, or close the GPU Advisor using it")
        with contextlib.suppress(OSError):
            record.write_text(mine, encoding="utf-8")

    def _read_despite(self, problem: str, existed: dict[str, bool]) -> None:
        """Nothing can be written beside the database now (a full disk, a file-size limit): open it for
        reading, so that listing, searching and exporting still work, after removing the empty log and the
        cut-short index this process's failed open left (they did not exist before it; SQLite makes both anew)."""
        for side, least in (("-wal", 1), ("-shm", SHM_REGION_BYTES)):
            made = Path(f"{self.path}{side}")
            with contextlib.suppress(OSError):
                if not existed[side] and made.is_file() and not made.is_symlink() and made.stat().st_size < least:
                    made.unlink()
        self._open_read_only(problem)
        self.unwritable = problem  # what a write is told: "the disk is full", not "read-only"
        self.notice = (f"The history database {self.path} cannot be written now ({self._short_of(problem)}): it can be read, "
                       "but nothing new is saved until there is room.")

    def _open_read_only(self, problem: str | None = None) -> None:
        """Open a database that cannot be written (read-only media or permissions; `problem`: a full disk) for
        reading only: nothing is created beside it, every write is refused with NotSaved."""
        import sqlite_utils

        self.read_only = True
        self.unwritable = "the database is read-only"
        conn = None
        wal = Path(f"{self.path}-wal")
        logged = wal.is_file() and wal.stat().st_size > 0  # committed messages may be only in the log
        # immutable: nothing is made beside the file; a log is read through (mode=ro) when there is one
        for mode in (("mode=ro", "immutable=1") if logged else ("immutable=1",)):
            try:
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?{mode}", uri=True, isolation_level=None,
                                       check_same_thread=False)
                conn.text_factory = _decode
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                # immutable with a log (its -shm index missing on read-only media): the log is not read
                self.log_unread = _committed_frames(wal) if logged and mode == "immutable=1" else 0
                break
            except sqlite3.Error as exc:
                if conn is not None:
                    conn.close()
                conn = None
                error = exc
        if conn is None:
            if problem is not None:  # a full disk is no read-only one: the room it takes is said
                raise StorageError(f"cannot read the history database {self.path} ({error}) and {self._short_of(problem)}"
                                   "; nothing was changed. Free some space and try again") from None
            raise StorageError(f"cannot read the history database {self.path} ({error}); it is read-only "
                               "and nothing was changed") from None
        try:
            self._refuse_newer(conn)
            pending = migrations.pending_read_only(conn, migrations.MIGRATIONS)
        except sqlite3.Error as exc:
            conn.close()
            raise StorageError(f"cannot read the history database {self.path} ({exc}); it is read-only") from None
        if pending:
            conn.close()
            raise StorageError(f"the history database {self.path} is read-only and needs an upgrade "
                               f"({pending[0]}) it cannot be given here; copy it somewhere writable") from None
        self.conn, self.db = conn, sqlite_utils.Database(conn)
        self._file = _identity(self.path, inode_only=True)
        self._search_column = "search_text" in self.db.table("messages").columns_dict
        self.notice = f"The history database {self.path} is read-only: it can be read, but nothing new is saved."
        if self.log_unread:
            self.notice = (f"The history database {self.path} is read-only and its log holds {self.log_unread:,} "
                           "committed changes that cannot be read without its index (-shm): what is shown may miss "
                           "recent messages. Copy the folder somewhere writable to read them all.")

    def _short_of(self, problem: str) -> str:
        """A full disk in words with the room a recovery of the database takes ('the disk is full (need 3 MB)')."""
        if problem != "the disk is full":
            return problem
        need = RECOVERY_MARGIN
        for side in ("", "-wal"):
            with contextlib.suppress(OSError):
                need += os.stat(f"{self.path}{side}").st_size
        return f"the disk is full (need {-(-need // 1_000_000):,} MB)"

    def _not_sqlite(self) -> HistoryError:
        return HistoryError(f"{self.path} is not a GPU Advisor history database (it does not start with the "
                            "SQLite header); it was left untouched. Give --db a new file name or an existing "
                            "history database")

    def _refuse_foreign(self) -> None:
        """Refuse, untouched, an SQLite database another application wrote: only an empty one, or one
        carrying this application's marker (its application_id, or the `_migrations` table of a
        history written before the id was set), is opened. A file SQLite cannot read is left to the
        damage checks (it may be a damaged history)."""
        try:
            with self.path.open("rb") as f:
                header = f.read(100)
        except OSError:
            return
        if len(header) < 100:
            return  # too short to be anyone's database: the checks that follow say so
        app_id = int.from_bytes(header[68:72], "big")
        if _header_damage(self.path):
            self._refuse_unless_ours_by_bytes(app_id, "its header is damaged")
            return  # a damaged history: the checks that follow move it aside and recover it
        if app_id == APPLICATION_ID:
            return
        if app_id == 0:
            wal = Path(f"{self.path}-wal")
            # immutable: nothing is written, no -shm is made. Only when the file alone shows no history
            # and it has a log is it read through the log (read-only): its tables may be there.
            modes = ["immutable=1"] + (["mode=ro"] if header[18] == 2 and wal.is_file() and wal.stat().st_size else [])
            for mode in modes:
                shm = Path(f"{self.path}-shm")
                if mode == "mode=ro" and shm.is_file():  # reading through the log may rebuild its index
                    with contextlib.suppress(OSError):
                        self._shm = shm.read_bytes()
                try:
                    conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?{mode}", uri=True)
                    try:
                        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
                        ours = "_migrations" in names and _our_migrations(conn)
                    finally:
                        conn.close()
                except (OSError, ValueError):
                    return  # unreadable: the checks that follow say why
                except sqlite3.Error as exc:
                    self._refuse_unless_ours_by_bytes(app_id, f"SQLite cannot read it: {exc}")
                    return  # a damaged history: the checks that follow move it aside and recover it
                if ours:
                    return
            if not names:
                return  # an empty database: a new history starts in it
        what = f"its application id is {app_id:#x}" if app_id else "it has no GPU Advisor tables"
        raise HistoryError(f"{self.path} is an SQLite database of another application ({what}); it was left "
                           "untouched. Give --db a new file name or an existing history database")

    def _refuse_unless_ours_by_bytes(self, app_id: int, why: str) -> None:
        """A file SQLite cannot read is refused, untouched, when its bytes show another application's
        database: a schema (CREATE TABLE, kept in the first pages) without this application's
        `_migrations` table. Otherwise (this application's id, or bytes that show no schema: the
        header's id may be garbage too) it is taken for a damaged history, moved aside (kept) and
        recovered."""
        if app_id == APPLICATION_ID:
            return
        try:
            with self.path.open("rb") as f:
                head = f.read(OWN_MARK_SCAN_BYTES)
        except OSError:
            return
        ours = re.search(rb'(?i)create\s+table\s+(?:if\s+not\s+exists\s+)?"?_migrations\b', head) is not None
        if ours or re.search(rb"(?i)create\s+table\b", head) is None:  # (SQLite keeps the statement as typed)
            return  # a history, or bytes that show nobody's schema: a damaged file, kept when moved aside
        what = f"its application id is {app_id:#x}" if app_id else "its tables are not GPU Advisor's"
        raise HistoryError(f"{self.path} is not a GPU Advisor history database ({what}, and {why}); it was "
                           "left untouched. Give --db a new file name or an existing history database")

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

        # filelock retries a lock file it cannot create until its timeout ('/proc/x.db': 30 s, then 'busy').
        # Named after the database's real file: a symbolic link to it takes the same lock.
        name = f"{os.path.realpath(self.path)}.lock"
        fd = _open_lock_file(name, os.O_WRONLY)
        if fd is None:
            yield
            return
        os.close(fd)
        lock = FileLock(name, timeout=BUSY_TIMEOUT_MS / 1000)
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
            kept, recovered = self._recover_wal_aside(conn) if wal_damage else (None, "")
            if kept:
                conn = self._connect()
            self._check_readable(conn)
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
            skipped = (f" ({', '.join(self._not_copied)} {'is' if len(self._not_copied) == 1 else 'are'} not a "
                       "regular file (a link, device or FIFO) and was not copied)") if self._not_copied else ""
            self.notice = (f"The history database's write-ahead log was damaged ({wal_damage}); copies of the "
                           f"original files are in {_names(kept)}{skipped}; {recovered}.")

    def _check_readable(self, conn: sqlite3.Connection) -> None:
        """Read the schema, and run quick_check (on every file up to QUICK_CHECK_MAX_BYTES, on a larger one after
        damage was met in it): raises sqlite3.DatabaseError when the file is damaged. With a log beside the file
        the reads go through a read-only connection: `conn` closing after a failed check would copy the log into
        the database (SQLite checkpoints when its last connection closes), and the copy kept of a damaged file
        would no longer be the file that was found (a log of another file, written in, leaves nothing readable)."""
        wal = Path(f"{self.path}-wal")
        logged = wal.is_file() and wal.stat().st_size > 0
        probe = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True,
                                timeout=BUSY_TIMEOUT_MS / 1000) if logged else conn
        try:
            probe.execute("SELECT count(*) FROM sqlite_master").fetchone()
            mark = Path(f"{self.path}{CHECK_MARK}")
            checked = self.path.stat().st_size <= QUICK_CHECK_MAX_BYTES or mark.exists()
            if checked and probe.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            if checked:
                mark.unlink(missing_ok=True)
        finally:
            if probe is not conn:
                probe.close()

    def _recover_wal_aside(self, conn: sqlite3.Connection) -> tuple[Path, str]:
        """A damaged log: keep a full copy of the files (NAME.damaged-N, before anything writes or
        checkpoints), build the recovered database beside it from that copy (every sound committed frame,
        also those after the damage), make it durable, and only then close `conn` (which may checkpoint the
        live log) and rename the new database into place. Killed before the rename, the live files are as
        they were and the next start does it again (reusing the same copy); killed after, the next start
        finishes the swap (_finish_interrupted_recovery). Returns the copy and what was recovered."""
        kept = self._keep_damaged()
        _kill_point("kept copy")
        n = int(kept.name.rsplit("-", 1)[1])
        new, recovered = self._build_beside(n, kept)
        conn.close()
        self._swap_in(new, n)
        self._shm = None
        return kept, recovered

    def _wal_damage(self, conn: sqlite3.Connection) -> str | None:
        """What is wrong with the write-ahead log, if anything. SQLite itself would silently ignore
        every frame from the first damaged one on, and a log cut short at a frame boundary."""
        wal_path, shm_path = Path(f"{self.path}-wal"), Path(f"{self.path}-shm")
        # The index first: a writer appends frames before it counts them there, so a log with fewer
        # committed frames than its index counts lost some (and taking a lock would rebuild the index).
        if self._shm is None and shm_path.is_file():
            self._shm = shm_path.read_bytes()  # kept as it was, if damaged
        indexed = _indexed_frames(self._shm[:96]) if self._shm else None
        if not wal_path.is_file() or not wal_path.stat().st_size:
            unsaved = _unbackfilled_frames(self._shm) if self._shm else 0
            if unsaved:  # read again: a process closing the database checkpoints before deleting its log
                try:
                    unsaved = min(unsaved, _unbackfilled_frames(shm_path.read_bytes()))
                except OSError:
                    unsaved = 0
            if unsaved:  # the log was deleted while its index shows frames not yet in the database
                return (f"the log is missing while its index counts {unsaved} frame{'s' if unsaved != 1 else ''} "
                        "not yet copied into the database: what they held was lost")
            return None
        wal = _read_wal(wal_path.read_bytes())
        if wal.damage is None:
            if indexed and indexed[1] == wal.salts and indexed[0] > wal.committed:
                return f"it holds {wal.committed} committed frames where its index counts {indexed[0]}: it was cut short"
            return None
        if self._shm and _only_uncommitted(wal, self._shm):
            return None  # a write killed before its commit: SQLite rightly drops it, nothing committed is lost
        # Another instance may be appending a frame right now: look again holding the write lock.
        self._retry(lambda: conn.execute("BEGIN IMMEDIATE"))
        try:
            return _read_wal(wal_path.read_bytes()).damage if wal_path.is_file() else None
        finally:
            conn.execute("ROLLBACK")

    def _free_slot(self) -> int:
        """The first N with no copy of a database kept (NAME.damaged-N) and no recovery under way there (a
        -wal or -shm copy left there alone, by a kill before the database was copied, is replaced)."""
        n = 1
        while any(Path(f"{self.path}.damaged-{n}{side}").exists() for side in ("", ".new")):
            n += 1
        return n

    def _same_copy(self) -> Path | None:
        """The last kept copy, when it holds exactly the database and log there are now (a recovery killed
        after copying them: it is done again from the same copy, not copied twice)."""
        import filecmp

        kept = self.kept_copies
        if not kept:
            return None
        last = kept[-1]
        for side in ("", "-wal"):
            here, there = Path(f"{self.path}{side}"), Path(f"{last}{side}")
            if here.is_file() != there.is_file():
                return None
            if here.is_file() and not filecmp.cmp(here, there, shallow=False):
                return None
        return last

    def _keep_damaged(self) -> Path:
        """Copy the database and its -wal and -shm files to the first free `NAME.damaged-N`, side by
        side with it, each copy written whole and then renamed (the database last, so a copy that
        exists is complete). Returns the name of the copy of the database file."""
        self._not_copied: list[str] = []
        same = self._same_copy()
        if same is not None:
            return same
        target = Path(f"{self.path}.damaged-{self._free_slot()}")
        for side in ("-shm", "-wal", ""):
            source = Path(f"{self.path}{side}")
            if not source.exists() and not source.is_symlink():
                continue
            part = Path(f"{target}{side}.part")
            if side == "-shm" and self._shm is not None:
                part.write_bytes(self._shm)  # as it was before SQLite rebuilt it
            elif not common.copy_regular(source, part, follow=not side):  # a link, device or FIFO: never copied
                self._not_copied.append(source.name)
                continue
            _fsync(part)
            _kill_point(f"writing{side or ' db'}")
            os.replace(part, f"{target}{side}")
        _fsync(self.path.parent)
        return target

    def _recover_aside(self) -> tuple[Path, str]:
        """Recover a damaged database so that a crash at any moment loses nothing: the rows that can
        be read are copied into a new database built beside it (NAME.damaged-N.new.part, renamed to
        NAME.damaged-N.new once complete), and only then is the original moved to NAME.damaged-N and
        the new one renamed into its place. Until the rename the original stays where it was; after
        it, the next start finishes the move (see _finish_interrupted_recovery)."""
        self._room_to_recover()
        n = self._free_slot()
        new, recovered = self._build_beside(n, self.path)
        return self._swap_in(new, n), recovered

    def _room_to_recover(self) -> None:
        """Refuse to start a recovery the disk has no room for (the new database takes up to the damaged
        one's size, its log included): the original stays in place, untouched, and the next start tries
        again. Without this a full disk would end the copy early and the rows would look unreadable."""
        need = 0
        for side in ("", "-wal"):
            with contextlib.suppress(OSError):
                need += os.stat(f"{self.path}{side}").st_size
        try:
            free = _free_bytes(self.path.parent)
        except OSError:
            return
        if free < need + RECOVERY_MARGIN:
            raise StorageError(f"not enough disk space to recover the damaged history database {self.path} (need "
                               f"{-(-(need + RECOVERY_MARGIN) // 1_000_000):,} MB, {free // 1_000_000:,} MB free); "
                               "it was left in place untouched. Free some space: the next start recovers it")

    def _build_beside(self, n: int, source: Path) -> tuple[Path, str]:
        """Build NAME.damaged-N.new from the rows readable in `source` (and its -wal): written as .part,
        made durable, then renamed. Returns its name and what was recovered, in words."""
        new = Path(f"{self.path}.damaged-{n}.new")
        part = Path(f"{new}.part")
        fresh = HistoryStore.__new__(HistoryStore)
        fresh.path, fresh.notice, fresh._shm, fresh._claimed = part, None, None, set()
        fresh._open()
        _say_recovering(source)
        try:
            recovered = fresh._recover_from(source)
            fresh.conn.execute("PRAGMA journal_mode = DELETE")  # everything in the one file
        finally:
            fresh.close()
        _fsync(part)
        _kill_point("built")
        os.replace(part, new)
        _fsync(self.path.parent)
        _kill_point("renamed")
        return new, recovered

    def _swap_in(self, new: Path, n: int) -> Path:
        """Move the damaged database to NAME.damaged-N (its -wal and -shm first) and the recovered one
        `new` into its place. Every step can be repeated: an interrupted swap is finished by the next."""
        target = Path(f"{self.path}.damaged-{n}")
        for side in ("-shm", "-wal"):
            source, kept = Path(f"{self.path}{side}"), Path(f"{target}{side}")
            if source.exists() and not target.exists():  # (a complete copy keeps its own -wal and -shm)
                os.replace(source, kept)
                _kill_point(f"moved{side}")
        if self.path.exists() and not target.exists():
            try:
                os.link(self.path, target)
            except OSError:  # a file system without hard links
                if not common.copy_regular(self.path, Path(f"{target}.part"), follow=True):
                    raise HistoryError(f"the history database {self.path} is not a regular file") from None
                _fsync(Path(f"{target}.part"))
                os.replace(f"{target}.part", target)
            _kill_point("kept")
        for side in ("-shm", "-wal"):  # the log of the damaged file must never meet the new one
            Path(f"{self.path}{side}").unlink(missing_ok=True)
        os.replace(new, self.path)
        _fsync(self.path.parent)
        return target

    def _finish_interrupted_recovery(self) -> Path | None:
        """At every start, before anything reads the database: remove what an interrupted recovery,
        copy or backup left half-written (NAME.*.part), and finish a recovery whose new database was
        complete (NAME.damaged-N.new). Returns the copy of the damaged original, if one was finished."""
        prefix = f"{self.path.name}."
        finished = None
        try:
            leftovers = [p for p in self.path.parent.iterdir() if p.name.startswith(prefix)]
        except OSError:
            return None
        export.clean_stale_parts(self.path.parent)  # a killed backup's hidden .part beside the database
        export.clean_recorded_parts()  # and one in any other folder a killed backup or export was writing to
        for p in leftovers:
            if OWN_PARTS.fullmatch(p.name[len(prefix):]) and p.is_file() and not p.is_symlink():
                with contextlib.suppress(OSError):
                    p.unlink()  # only the names this store writes: 'chats.notes.part' is someone else's
        for p in sorted(leftovers):
            rest = p.name[len(prefix):]
            if rest.startswith("damaged-") and rest.endswith(".new") and rest[8:-4].isdigit() and p.is_file() \
                    and not p.is_symlink() and _built_here(p):
                finished = self._swap_in(p, int(rest[8:-4]))
        return finished

    @property
    def kept_copies(self) -> list[Path]:
        """Copies of damaged databases kept beside this one (NAME.damaged-N), oldest first."""
        prefix = f"{self.path.name}.damaged-"
        try:
            found = [p for p in self.path.parent.iterdir()
                     if p.name.startswith(prefix) and p.name[len(prefix):].isdigit()]
        except OSError:
            return []
        return sorted(found, key=lambda p: int(p.name[len(prefix):]))

    @property
    def reminder(self) -> str | None:
        """One line naming the kept copies of damaged databases, shown at every start until they are
        deleted (what was recovered from them is in this database)."""
        kept = self.kept_copies
        if not kept:
            return None
        names = ", ".join(_names(p) for p in kept[:REMINDER_NAMES])
        if len(kept) > REMINDER_NAMES:
            names += f" and {len(kept) - REMINDER_NAMES:,} more"
        return (f"Copies of a damaged history database are kept in {names}; what could be read from them is "
                "in the history. Delete them once you have checked nothing is missing (this note shows until then).")

    def _recover_from(self, kept: Path) -> str:
        """Copy into this store every session, message and tool call that can still be read from the
        damaged files (a message already here is not copied twice). Returns what was recovered, in words."""
        counts = {"sessions": 0, "messages": 0, "tool_calls": 0}
        wal = Path(f"{kept}-wal")
        logs = [wal.read_bytes()] if wal.is_file() and wal.stat().st_size else []
        # Through its log first (the newest rows), then the file alone: a log that is not the file's own (a copy
        # restored over the database) makes the first image unreadable, and the file alone still holds every row.
        # A message already copied is not copied twice; a session deleted in the log may come back (nothing is lost).
        for log in [*logs, b""]:
            self._copy_image(kept, log, counts)
        if not counts["messages"] and not counts["sessions"]:
            return "no further message could be recovered from them"
        sessions = f" in {counts['sessions']} session{'s' if counts['sessions'] != 1 else ''}" if counts["sessions"] else ""
        return (f"{counts['messages']} message{'s' if counts['messages'] != 1 else ''}{sessions} "
                f"{'were' if counts['messages'] != 1 else 'was'} recovered from them")

    def _copy_image(self, kept: Path, log: bytes, counts: dict[str, int]) -> None:
        """Copy the rows readable in `kept` with `log` applied (b"": none) into this store, adding to `counts`."""
        image = Path(f"{self.path}.image.part")
        try:
            image.write_bytes(_database_image(kept.read_bytes(), log))
            source = sqlite3.connect(f"file:{image}?immutable=1", uri=True)
            source.text_factory = _decode
            try:
                with self._write("the recovered messages"):
                    for table, columns in RECOVERED_COLUMNS.items():
                        counts[table] += self._copy_rows(source, table, columns)
                        _kill_point(f"copied {table}")
            finally:
                source.close()
        except (OSError, sqlite3.Error, ValueError):
            pass
        finally:
            image.unlink(missing_ok=True)

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
            if self.conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                self.conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            for name, migration in migrations.pending(self.conn, migrations.MIGRATIONS):
                migration(self.db)
                self.conn.execute("INSERT INTO _migrations (name, applied) VALUES (?, ?)", (name, common.now()))

    @contextmanager
    def _write(self, what: str = "this change") -> Iterator[None]:
        """One write transaction: BEGIN IMMEDIATE takes the write lock up front (waiting up to the
        busy timeout), so a second writer waits instead of failing on a read-to-write upgrade. A
        failure the disk causes is NotSaved, naming `what` was not saved."""
        if getattr(self, "read_only", False):
            raise NotSaved(self.path, what, getattr(self, "unwritable", "the database is read-only"))
        if self.file_replaced():
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
        if problem is None:  # (a constraint, say): still the store's own error, saying what was not saved
            return HistoryError(f"could not save {what} to {self.path} ({exc}); {what} was not saved; "
                                "everything saved before it is kept")
        return NotSaved(self.path, what, problem)

    def _unreadable(self, exc: sqlite3.Error) -> HistoryError:
        """The store's error for a failed read (or a write's failure outside its transaction)."""
        if _is_damage(exc):
            with contextlib.suppress(OSError):
                Path(f"{self.path}{CHECK_MARK}").touch()
            return HistoryError(f"the history database {self.path} is damaged ({exc}); restart GPU Advisor to "
                                "recover what can be read")
        problem = _storage_problem(exc) or ("the database is busy" if "locked" in str(exc) else None)
        if problem:
            return StorageError(f"cannot read the history database {self.path}: {problem}")
        return HistoryError(f"cannot use the history database {self.path}: {exc}")

    def close(self) -> None:
        self.conn.close()
        _release_sessions(self.path, self._claimed)
        self._claimed = set()

    def claim(self, session_id: str) -> None:
        """Make this process the one writer of a session: a second process continuing it at the same
        time would interleave the two transcripts and break replay. Raises HistoryError when another
        process holds it (the claim goes with the process: closing or being killed releases it)."""
        if session_id in self._claimed:
            return
        if not _claim_session(self.path, session_id):
            raise HistoryError(f"session {session_id} is open in another GPU Advisor; continue it there, or "
                               "close that one first (nothing was sent or saved here)")
        self._claimed.add(session_id)

    def file_replaced(self) -> bool:
        """Whether the database file was deleted or replaced since this store opened it (every later write is
        refused: a front-end that goes on opens the path again)."""
        opened = getattr(self, "_file", None)
        return opened is not None and _identity(self.path, inode_only=True) != opened

    def release(self, session_id: str) -> None:
        """Give up this process's claim on a session (the app left it): another process may continue or
        delete it again. Nothing happens for a session this store does not hold."""
        if session_id in self._claimed:
            self._claimed.discard(session_id)
            _release_sessions(self.path, {session_id})

    @_reads
    def applied_migrations(self) -> list[str]:
        return [r[0] for r in self.conn.execute("SELECT name FROM _migrations ORDER BY name")]

    # -- sessions

    @_reads
    def create_session(self, title: str = "New conversation") -> str:
        session_id = new_id()
        stamp = common.now()
        with self._write("the new conversation"):
            self.db.table("sessions").insert({"id": session_id, "title": title, "created": stamp, "updated": stamp,
                                        "profile": "{}", "state": "{}"})
        with contextlib.suppress(HistoryError):  # (a new id: nobody else can hold it)
            self.claim(session_id)
        return session_id

    @_reads
    def session(self, session_id: str) -> dict[str, Any]:
        session_id = self.resolve_id(session_id)
        cursor = self.conn.execute("SELECT * FROM sessions WHERE id = ?", (session_id,))
        found = cursor.fetchone()
        if found is None:  # deleted between the two reads
            raise SessionGone(session_id, "nothing")
        row = dict(zip([c[0] for c in cursor.description], found, strict=True))
        return {**row, "title": row["title"] or "", "profile": _json(row["profile"], {}),
                "state": _json(row["state"], {})}

    @_reads
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

    @_reads
    def rename(self, session_id: str, title: str) -> None:
        title = " ".join(title.split())[:200]
        if not title:
            raise HistoryError("a title cannot be empty")
        session_id = self.resolve_id(session_id)
        with self._write("the new title"):
            mine = {"title_by_user": 1} if self._has_column("sessions", "title_by_user") else {}
            self.db.table("sessions").update(session_id, {"title": title, "updated": common.now(), **mine})

    @_reads
    def delete(self, session_id: str) -> None:
        """Delete a session, unless another process holds it open (see claim): its later messages would go
        nowhere, unsaved and unsaid. This process's own open session may be deleted (the app's sessions screen)."""
        session_id = self.resolve_id(session_id)
        mine = session_id in self._claimed
        if not mine and not _claim_session(self.path, session_id):
            raise HistoryError(f"session {session_id} is open in another GPU Advisor; close it there first, "
                               "then delete it (nothing was deleted)")
        try:
            with self._write("the deletion"):
                self.conn.execute("DELETE FROM tool_calls WHERE session_id = ?", (session_id,))
                self.conn.execute("DELETE FROM messages WHERE session_id = ?", (session_id,))
                self.conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
        finally:
            if not mine:
                _release_sessions(self.path, {session_id})

    @_reads
    def list_sessions(self, limit: int = 200, offset: int = 0) -> list[SessionRow]:
        """A page of sessions, newest first. The page is found in the (updated, id) index alone, so a
        deep page costs a walk over index entries, not over sessions."""
        sql = ("SELECT s.id, s.title, s.created, s.updated, "
               "(SELECT count(*) FROM messages m WHERE m.session_id = s.id) FROM sessions s "
               "JOIN (SELECT rowid AS r FROM sessions ORDER BY updated DESC, id DESC LIMIT ? OFFSET ?) p "
               "ON s.rowid = p.r ORDER BY s.updated DESC, s.id DESC")
        return [SessionRow(*r) for r in self.conn.execute(sql, (limit, offset))]

    @_reads
    def short_ids(self, ids: list[str]) -> dict[str, str]:
        """Each id's shortest start that names only that session among all saved ones (8 characters at
        least): what lists show, and what every command taking an id accepts (resolve_id)."""
        shown = {}
        for session_id in ids:
            neighbours = [r[0] for r in self.conn.execute(
                "SELECT * FROM (SELECT id FROM sessions WHERE id < ? ORDER BY id DESC LIMIT 1) "
                "UNION ALL SELECT * FROM (SELECT id FROM sessions WHERE id > ? ORDER BY id LIMIT 1)",
                (session_id, session_id))]
            shown[session_id] = common.short_id(session_id, neighbours)
        return shown

    @_reads
    def count_sessions(self) -> int:
        return self.conn.execute("SELECT count(*) FROM sessions").fetchone()[0]

    @_reads
    def search(self, query: str, limit: int = 100) -> list[SessionRow]:
        """Sessions matching every word typed (see assistant.history.search.search_sessions)."""
        return search_sessions(self, query, limit)

    def _search(self, role: str, text: str) -> dict[str, str]:
        return {"search_text": search_text(role, text)} if self._search_column else {}

    def _has_column(self, table: str, column: str) -> bool:
        """(False only while a test holds the migrations back to an earlier schema.)"""
        return any(row[1] == column for row in self.conn.execute(f"PRAGMA table_info({table})"))

    def _has_table(self, name: str) -> bool:
        return bool(self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone())

    # -- messages

    @_reads
    def add_message(self, session_id: str, role: str, text: str, payload: dict[str, Any] | None = None) -> str:
        """Append a message and commit it. Returns its id."""
        message_id = new_id()
        stamp = common.now()
        with self._write("your message"):
            self._still_there(session_id, "your message")
            seq = self.conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE session_id = ?",
                                    (session_id,)).fetchone()[0]
            self.db.table("messages").insert({"id": message_id, "session_id": session_id, "seq": seq, "role": role,
                                        "text": text, "payload": json.dumps(payload or {}, sort_keys=True),
                                        "created": stamp, **self._search(role, text)})
            self.conn.execute("UPDATE sessions SET updated = ? WHERE id = ?", (stamp, session_id))
        return message_id

    @_reads
    def save_reply(self, session_id: str, text: str, payload: dict[str, Any], state: dict[str, Any],
                   tool_calls: list[dict[str, Any]], title: str | None = None) -> str:
        """The assistant's reply, the tool calls behind it and the engine state, in one commit."""
        message_id = new_id()
        stamp = common.now()
        with self._write("the reply"):
            self._still_there(session_id, "the reply")
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
            self.db.table("sessions").update(session_id, update)
            title = " ".join((title or "").split())[:200]
            if title and self._has_column("sessions", "title_by_user"):  # what was understood, as it settles;
                self.conn.execute(  # a title the user gave is kept
                    "UPDATE sessions SET title = ? WHERE id = ? AND NOT title_by_user AND title != ?",
                    (title, session_id, title))
        return message_id

    @_reads
    def _still_there(self, session_id: str, what: str) -> None:
        """Inside a write: refuse to add to a session deleted meanwhile (by this app's sessions screen or
        another process), with SessionGone rather than a foreign-key failure."""
        if not self.conn.execute("SELECT 1 FROM sessions WHERE id = ?", (session_id,)).fetchone():
            raise SessionGone(session_id, what)

    @_reads
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

    @_reads
    def messages(self, session_id: str) -> list[dict[str, Any]]:
        session_id = self.resolve_id(session_id)
        rows = self.conn.execute("SELECT id, seq, role, text, payload, created FROM messages WHERE session_id = ? "
                                 "ORDER BY seq", (session_id,))
        return [{"id": r[0], "seq": r[1], "role": r[2], "text": r[3] or "", "payload": _json(r[4], {}),
                 "created": r[5] or ""} for r in rows]

    @_reads
    def recent_user_texts(self, limit: int = 200) -> list[str]:
        """The last `limit` messages the user sent, in any session, oldest first (the message box's
        ↑/↓ recall, as a shell keeps its history across sessions). Found by walking the rowid from
        the end, so a long history costs no more than the messages returned."""
        rows = self.conn.execute("SELECT text FROM messages WHERE role = 'user' ORDER BY rowid DESC LIMIT ?",
                                 (max(0, limit),)).fetchall()
        return [r[0] or "" for r in reversed(rows)]

    @_reads
    def tool_calls(self, session_id: str) -> list[dict[str, Any]]:
        session_id = self.resolve_id(session_id)
        rows = self.conn.execute("SELECT message_id, tool, arguments, result, duration_ms FROM tool_calls "
                                 "WHERE session_id = ? ORDER BY rowid", (session_id,))
        return [{"message_id": r[0], "tool": r[1], "arguments": _json(r[2], {}), "result": _json(r[3], None),
                 "duration_ms": r[4]} for r in rows]

    # -- export, import, backup

    @_reads
    def export_json(self, session_id: str) -> dict[str, Any]:
        return export.export_json(self, session_id)

    @_reads
    def export_markdown(self, session_id: str) -> str:
        return export.export_markdown(self, session_id)

    @_reads
    def export_text(self, session_id: str, fmt: str = "markdown") -> str:
        """A session as a Markdown report or as JSON text."""
        return export.export_text(self, session_id, fmt)

    @_reads
    def export_to(self, session_id: str, target: str | Path, overwrite: bool = False,
                  fmt: str | None = None) -> Path:
        """Write an export (JSON for a .json file unless `fmt` says, Markdown otherwise); an existing
        file is never replaced unless `overwrite` is given."""
        return export.export_to(self, session_id, target, overwrite, fmt)

    @_reads
    def import_json(self, data: Any) -> str:
        """Add an exported session as a new session (never overwriting one that exists)."""
        return export.import_json(self, data)

    @_reads
    def imported_before(self, data: Any) -> str | None:
        """The session already holding the conversation of an export (importing it twice), or None."""
        return export.imported_before(self, data)

    @_reads
    def backup(self, target: str | Path) -> Path:
        """A consistent copy of the database, renamed into place; an existing file is never replaced. Refused
        while the log holds changes a read-only open cannot read: the copy would silently miss them."""
        if getattr(self, "log_unread", 0):
            raise StorageError(f"the log of the history database {self.path} holds {self.log_unread:,} committed "
                               "changes that cannot be read on read-only media without its index (-shm), so a "
                               "backup would miss them; no backup was written. Copy the folder (the database and "
                               "its -wal) somewhere writable and back up that copy")
        return export.backup(self, target)


def _committed_frames(wal: Path, most: int = 1 << 30) -> int:
    """The committed frames in a database's log (its sound prefix up to the last commit); 0 when unreadable."""
    try:
        with wal.open("rb") as f:
            return _read_wal(f.read(most)).committed
    except OSError:
        return 0
