"""What every part of the history store shares: its errors, where the database lives, ids and
timestamps, and the small readers that never let one damaged value stop a whole row from showing."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

DB_ENV = "GPU_ADVISOR_DB"
BUSY_TIMEOUT_MS = 30_000


class HistoryError(RuntimeError):
    """The history database cannot be used; the message says why and what to do."""


class DatabaseTooNew(HistoryError):
    pass


class StorageError(HistoryError):
    """The disk, not the input, is the problem (read-only file, disk full, missing folder): exit 1."""


class NotSaved(StorageError):
    """A write that the disk refused (full, read-only, the file deleted while in use). The message is
    one line saying what was not saved and that everything saved before it is kept; the database
    still opens afterwards."""

    def __init__(self, path: object, what: str, problem: str):
        self.path, self.what, self.problem = path, what, problem
        super().__init__(f"could not save {what} to {path} ({problem}): {what} was not saved; everything "
                         "saved before it is kept")


class SessionGone(HistoryError):
    """The session was deleted (from the sessions screen, or by another process: `gpu-advisor
    sessions delete`) while someone still held it open; nothing more can be saved in it."""

    def __init__(self, session_id: str, what: str = "this change"):
        self.session_id = session_id
        super().__init__(f"session {session_id} was deleted (perhaps from another terminal); {what} was not "
                         "saved in it")


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
    if override is not None and override and not override.strip():
        raise HistoryError(f"{DB_ENV} is set to blank space; set it to the path of a database file, or unset it")
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


SHORT_ID = 8  # the fewest characters of a session id shown (ULIDs: about the second it was created)


def short_id(session_id: str, neighbours: list[str], minimum: int = SHORT_ID) -> str:
    """The shortest start of `session_id` that no other id starts with, `minimum` characters at least.
    `neighbours` are the ids just before and after it in sorted order: only they can share more of it."""
    shared = 0
    for other in neighbours:
        common_start = next((i for i, (a, b) in enumerate(zip(session_id, other, strict=False)) if a != b),
                            min(len(session_id), len(other)))
        shared = max(shared, common_start)
    return session_id[:max(minimum, shared + 1)]


@dataclass
class SessionRow:
    id: str
    title: str
    created: str
    updated: str
    messages: int = 0
    snippet: str = ""


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _json(text: str | None, default: Any) -> Any:
    """A stored JSON value; a damaged one reads as the default (the rest of the row still shows)."""
    try:
        value = json.loads(text) if text else default
    except ValueError:
        return default
    return value if isinstance(value, type(default)) or default is None else default


def copy_regular(source: Path, target: Path, *, follow: bool = False) -> bool:
    """Copy `source` to `target` as it is when opened: only a regular file (never a device, FIFO or
    folder), never through a symbolic link unless `follow`, and never more than its size at open, so a
    file that grows meanwhile cannot fill the disk. False, with nothing written, when it is not such a file."""
    import stat

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    try:
        if not follow and source.is_symlink():
            return False
        fd = os.open(source, flags)
    except OSError:
        return False
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return False
        left = info.st_size
        with open(target, "wb") as out:
            while left > 0:
                chunk = os.read(fd, min(left, 1 << 20))
                if not chunk:
                    break
                out.write(chunk)
                left -= len(chunk)
        os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
        return True
    finally:
        os.close(fd)
