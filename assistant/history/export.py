"""Export (JSON and Markdown), import of an export as a new session, and backups; every file is
written atomically and never over an existing one unless asked."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpu_advisor.assistant.history import common
from gpu_advisor.assistant.history.common import HistoryError, StorageError, _storage_problem, new_id
from gpu_advisor.assistant.history.damage import SQLITE_MAGIC
from gpu_advisor.assistant.terminal import printable

if TYPE_CHECKING:
    from gpu_advisor.assistant.history.store import HistoryStore

EXPORT_FORMAT = "gpu-advisor-session"
EXPORT_VERSION = 1

MAX_TEXT_CHARS = 200_000  # one stored message; user input is capped far lower (assistant.session)
MAX_MESSAGES = 10_000  # in one imported session
MAX_IMPORT_BYTES = 64 * 1024 * 1024


def _a_date(value: str | None) -> str | None:
    """An export's time stamp: a date and time as an export writes it (ISO 8601), else refused."""
    from datetime import datetime

    if value is None:
        return None
    try:
        datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("not a date and time (ISO 8601, as an export writes it)") from None
    return value


def _export_models():
    """Pydantic models of the JSON export (built on first import, not at start-up)."""
    from typing import Annotated, Literal

    from pydantic import AfterValidator, BaseModel, ConfigDict, Field

    class Loose(BaseModel):
        model_config = ConfigDict(extra="ignore")

    Stamp = Annotated[str | None, Field(max_length=64), AfterValidator(_a_date)]

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
        created: Stamp = None
        profile: dict[str, Any] = {}
        state: State = State()

    class Msg(Loose):
        seq: int | None = Field(None, ge=0, le=10 * MAX_MESSAGES)
        role: Literal["user", "assistant"]
        text: str = Field(max_length=MAX_TEXT_CHARS)
        payload: dict[str, Any] = {}
        created: Stamp = None

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


def export_json(store: HistoryStore, session_id: str) -> dict[str, Any]:
    s = store.session(session_id)
    messages = store.messages(s["id"])
    seq_of = {m["id"]: m["seq"] for m in messages}
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "session": {
        "id": s["id"], "title": s["title"], "created": s["created"], "updated": s["updated"],
        "profile": s["profile"], "state": s["state"]},
        "messages": [{k: m[k] for k in ("seq", "role", "text", "payload", "created")} for m in messages],
        "tool_calls": [{"message_seq": seq_of.get(c["message_id"]), **{k: c[k] for k in
                        ("tool", "arguments", "result", "duration_ms")}} for c in store.tool_calls(s["id"])]}


def export_markdown(store: HistoryStore, session_id: str) -> str:
    """A session as a Markdown report; stored text without terminal control sequences (a report is
    read in terminals too; the database keeps the original)."""
    s = store.session(session_id)
    title = " ".join(printable(s["title"]).split())
    lines = [f"# {title}", "", f"_GPU Advisor session {s['id']}, started {printable(s['created'][:16])} UTC._", ""]
    for m in store.messages(s["id"]):
        who = "You" if m["role"] == "user" else "Advisor"
        lines += [f"**{who}:**", "", printable(m["text"]), ""]
    return "\n".join(lines).rstrip() + "\n"


def export_text(store: HistoryStore, session_id: str, fmt: str = "markdown") -> str:
    """A session as a Markdown report or as JSON text."""
    if fmt == "json":
        data = export_json(store, session_id)
        try:
            return json.dumps(data, indent=2, allow_nan=False) + "\n"
        except ValueError:  # NaN or Infinity stored by an older import: null in the export, which stays valid JSON
            return json.dumps(json.loads(json.dumps(data), parse_constant=lambda _name: None), indent=2) + "\n"
    return export_markdown(store, session_id)


def export_to(store: HistoryStore, session_id: str, target: str | Path, overwrite: bool = False,
              fmt: str | None = None) -> Path:
    """Write an export (JSON for a .json file unless `fmt` says, Markdown otherwise). An existing
    file is never replaced unless `overwrite` is given."""
    target = Path(target).expanduser()
    _refuse_database_files(store, target)
    text = export_text(store, session_id, fmt or ("json" if target.suffix.lower() == ".json" else "markdown"))
    return write_new_file(target, lambda tmp: tmp.write_text(text, encoding="utf-8"), overwrite, "export")


# The names a history keeps beside its database NAME (NAME + one of these): its log, index and rollback journal, its
# locks, the check mark, and every kept copy of a damaged database with what a recovery builds next to it
# (NAME.damaged-N, -wal, -shm, .new, .part ...). A start takes NAME.damaged-N.new for a finished recovery and swaps it
# in as the database, and SQLite deletes a NAME-journal it cannot use: no export or backup may be written there.
SIDE_NAME = re.compile(r"-wal|-shm|-journal|\.lock|\.sessions\.lock|\.check|\.damaged-\d+(?:[-.].*)?")


def _an(what: str) -> str:
    return f"{'an' if what[:1] in 'aeiou' else 'a'} {what}"


def _side_name(store: HistoryStore, target: Path) -> str | None:
    """The name of the database file `target` would sit beside as one of its side files, if it would."""
    try:
        where = target.resolve().parent
    except (OSError, RuntimeError):
        return None
    for db in {store.path, Path(os.path.realpath(store.path))}:
        try:
            same_folder = where == db.resolve().parent
        except (OSError, RuntimeError):
            continue
        rest = target.name[len(db.name):] if target.name.startswith(db.name) else ""
        if same_folder and rest and SIDE_NAME.fullmatch(rest):
            return db.name
    return None


def _refuse_database_files(store: HistoryStore, target: Path, what: str = "export") -> None:
    """An export or backup never replaces the history database, its -wal, -shm or lock files (NAME.lock and the
    session claims, NAME.sessions.lock), a kept damaged copy, or any other SQLite database (a backup), and is
    never written under a name the store keeps beside the database (SIDE_NAME): --force overwrites documents,
    not databases."""
    own = [Path(f"{store.path}{side}") for side in ("", "-wal", "-shm", "-journal", ".lock",
                                                                  ".sessions.lock", ".check")] + store.kept_copies
    for path in own:
        try:
            same = target.resolve() == path.resolve() or (target.exists() and path.exists()
                                                            and os.path.samefile(target, path))
        except OSError:
            same = False
        if same:
            raise HistoryError(f"{target} is a file of the history database ({path.name}); {_an(what)} never "
                               "replaces it; choose another file name (nothing was written)")
    beside = _side_name(store, target)
    if beside is not None:
        raise HistoryError(f"{target} is a name the history keeps beside its database {beside} (its log, locks or "
                           f"a copy of a damaged database); {_an(what)} is never written there; choose another file "
                           "name (nothing was written)")
    is_database = False
    if target.is_file():  # (never opened otherwise: a FIFO would block)
        with contextlib.suppress(OSError), target.open("rb") as f:
            is_database = f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    if is_database:
        raise HistoryError(f"{target} is an SQLite database (a history or a backup); {_an(what)} never replaces "
                           "one; choose another file name (nothing was written)")


def imported_before(store: HistoryStore, data: Any) -> str | None:
    """The session an earlier import of this export made (the same title and messages, in order, under another
    id than the exported session's own, which a copy is made of once), if any: importing the same file twice is
    said, not saved twice. None for none (or not an export)."""
    try:
        title = (data["session"].get("title") or "Imported conversation")[:200]
        own = str(data["session"].get("id") or "")
        said = [(m["role"], m["text"]) for m in data["messages"]]
    except (KeyError, TypeError, AttributeError):
        return None
    candidates = store.conn.execute(
        "SELECT s.id FROM sessions s WHERE s.title = ? AND s.id != ? AND (SELECT count(*) FROM messages m "
        "WHERE m.session_id = s.id) = ? ORDER BY s.rowid", (title, own, len(said))).fetchall()
    for (session_id,) in candidates:
        rows = store.conn.execute("SELECT role, text FROM messages WHERE session_id = ? ORDER BY seq",
                                  (session_id,)).fetchall()
        if [tuple(r) for r in rows] == said:
            return str(session_id)
    return None


def import_json(store: HistoryStore, data: Any) -> str:
    """Add an exported session as a new session (never overwriting one that exists)."""
    from pydantic import ValidationError

    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise HistoryError(f"not a GPU Advisor session export (missing format: {EXPORT_FORMAT})")
    if isinstance(data.get("version"), int) and data["version"] > EXPORT_VERSION:
        raise HistoryError("this export was made by a newer GPU Advisor")
    try:
        json.dumps(data, allow_nan=False)
    except (ValueError, RecursionError):  # an export written by hand: NaN or Infinity would make every export invalid
        raise HistoryError("the export holds a number that is not finite (NaN or Infinity), which JSON does not "
                           "allow; nothing was imported") from None
    try:
        export = _Export.model_validate(data)
        from gpu_advisor.assistant.policy import Profile  # the profile must be one the engine can continue

        for profile in (export.session.profile, export.session.state.profile):
            Profile.model_validate(profile)
    except ValidationError as e:
        from gpu_advisor.knowledge.loader import (
            error_words,  # here only: the app's first screen imports this module
        )

        where = "; ".join(".".join(str(x) for x in err["loc"]) + f": {error_words(err)}" for err in e.errors()[:3])
        raise HistoryError(f"the export is malformed ({where}); nothing was imported") from None
    state = export.session.state.model_dump(exclude_unset=True)
    session_id = new_id()
    stamp = common.now()
    with store._write("the imported session"):
        store.db.table("sessions").insert({
            "id": session_id, "title": (export.session.title or "Imported conversation")[:200],
            "created": export.session.created or stamp, "updated": stamp,
            "profile": json.dumps(export.session.profile), "state": json.dumps(state, sort_keys=True)})
        ids: dict[int, str] = {}
        rows = []
        for seq, m in enumerate(export.messages, start=1):
            ids[m.seq if m.seq is not None else seq] = message_id = new_id()
            rows.append({"id": message_id, "session_id": session_id, "seq": seq, "role": m.role, "text": m.text,
                         "payload": json.dumps(m.payload, sort_keys=True), "created": m.created or stamp,
                         **store._search(m.role, m.text)})
        store.db.table("messages").insert_all(rows, batch_size=500)  # one statement per 500 rows, not per message
        store.db.table("tool_calls").insert_all(({
            "id": new_id(), "session_id": session_id, "message_id": ids.get(call.message_seq),
            "tool": call.tool, "arguments": json.dumps(call.arguments, sort_keys=True),
            "result": json.dumps(call.result, sort_keys=True), "duration_ms": call.duration_ms,
            "created": stamp} for call in export.tool_calls), batch_size=500)
    return session_id


def backup(store: HistoryStore, target: str | Path) -> Path:
    """A consistent copy of the database (VACUUM INTO), written beside the target and renamed into
    place: an interrupted backup leaves no partial file, and an existing file is never replaced."""
    target = Path(target).expanduser()
    if not target.is_symlink() and not target.exists():  # (an existing file: refused below, backups never overwrite)
        _refuse_database_files(store, target, "backup")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot create {target.parent}: {e.strerror or e}; no backup was written") from None

    def vacuum_into(tmp: Path) -> None:
        tmp.unlink()  # VACUUM INTO makes the file itself
        store.conn.execute("VACUUM INTO ?", (str(tmp),))

    return write_new_file(target, vacuum_into, False, "backup")


# The hidden temporary file an export or backup writes beside its target: `.NAME.gpu-advisor.PID.XXXXXXXX.part`
# (XXXXXXXX: mkstemp's eight characters), and the rollback journal VACUUM INTO keeps beside it (`...part-journal`).
# Only names of exactly this shape are ever cleaned up: a user's own `.notes.2024.draft.part` is not ours.
PART_MARK = "gpu-advisor"
OWN_PART = re.compile(rf"\.(?P<name>.+)\.{PART_MARK}\.(?P<pid>\d{{1,10}})\.[a-z0-9_]{{8}}\.part(?:-journal)?")


def clean_stale_parts(folder: Path) -> list[Path]:
    """Remove the hidden temporary files a killed export or backup of this program left in `folder` (as large
    as the database): those whose process is gone. Returns what was removed."""
    removed: list[Path] = []
    try:
        candidates = [(p, x) for p in folder.iterdir() if (x := OWN_PART.fullmatch(p.name))]
    except OSError:
        return removed
    for part, x in candidates:
        if not _process_gone(int(x["pid"])):
            continue
        with contextlib.suppress(OSError):
            if part.is_file() and not part.is_symlink():
                part.unlink()
                removed.append(part)
    return removed


# Where a backup or export is being written, one small record per write in the app's cache folder
# (pending-parts/PID.XXXXXXXX: the target's folder): a write killed before it could remove its hidden .part leaves
# its record, and the next start, backup or export of any history cleans that folder (only OWN_PART names there).
PENDING = "pending-parts"


def _pending_folder() -> Path | None:
    from gpu_advisor.knowledge.loader import cache_dir

    base = cache_dir()
    return base / PENDING if base is not None else None


def _record_part(folder: Path) -> Path | None:
    records = _pending_folder()
    if records is None:
        return None
    try:
        records.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f"{os.getpid()}.", dir=records)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(str(folder.resolve()))
        return Path(name)
    except (OSError, ValueError):
        return None  # nowhere to record it: the folder is still cleaned by the next write there


def clean_recorded_parts() -> list[Path]:
    """Clean the folders of writes that were killed (their records' processes are gone); returns what was removed."""
    records = _pending_folder()
    removed: list[Path] = []
    try:
        found = [p for p in records.iterdir() if re.fullmatch(r"\d{1,10}\.[a-z0-9_]{8}", p.name)] if records else []
    except OSError:
        return removed
    for record in found[:100]:
        if not _process_gone(int(record.name.split(".")[0])):
            continue
        with contextlib.suppress(OSError, UnicodeDecodeError):
            if record.is_file() and not record.is_symlink() and record.stat().st_size <= 4096:
                removed += clean_stale_parts(Path(record.read_text(encoding="utf-8")))
            record.unlink()
    return removed


def _process_gone(pid: int) -> bool:
    if pid == os.getpid() or os.name != "posix":
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except OSError:  # it exists, as another user's
        return False
    return False


def write_new_file(target: Path, write: Callable[[Path], object], overwrite: bool, what: str) -> Path:
    """Write `target` atomically: `write` fills a temporary file in the same folder, which is then
    renamed into place. Never through a symbolic link; never over an existing file unless `overwrite`;
    a failure leaves nothing behind."""
    if target.is_symlink():
        raise HistoryError(f"{target} is a symbolic link; give the path of a new file (no {what} was written)")
    if target.exists() and not target.is_file():  # a folder, FIFO or device: no --force makes it one
        raise HistoryError(f"{target} is not a regular file (a folder, FIFO or device); choose a file path "
                           f"(no {what} was written)")
    if target.exists() and not overwrite:
        raise HistoryError(f"{target} exists; choose another name ({what}s never overwrite)")
    if not target.parent.is_dir():
        raise StorageError(f"cannot write {target}: the folder {target.parent} does not exist; no {what} was written")
    clean_stale_parts(target.parent)
    clean_recorded_parts()
    record = _record_part(target.parent)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.{PART_MARK}.{os.getpid()}.", suffix=".part",
                                    dir=target.parent)
    except OSError as e:
        if record is not None:
            record.unlink(missing_ok=True)
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
        Path(f"{tmp}-journal").unlink(missing_ok=True)
        if record is not None:
            record.unlink(missing_ok=True)
    return target
