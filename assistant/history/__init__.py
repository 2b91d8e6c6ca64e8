"""The session history store: a readable record of every conversation, in SQLite (sqlite-utils).

Tables: sessions (title, created, updated, profile, engine state), messages (role, text, structured
payload), tool_calls (tool, arguments, result, duration), `_migrations` (named migrations, applied
in order on every open) and FTS indexes over message text and titles.

The package:
  common      errors, the database path, ids and timestamps, SessionRow
  migrations  one module per schema version (001_initial, ...), applied in order, recorded by name
  damage      header, write-ahead log and integrity checks; reading rows back from a damaged file
  search      what is searched and how (ranked, with snippets)
  export      JSON and Markdown export, import, backups, atomic file writes
  store       HistoryStore, which opens, checks, migrates, writes and reads

Everything below is importable from `assistant.history` as before the package existed.
"""

from __future__ import annotations

from gpu_advisor.assistant.history.common import (
    BUSY_TIMEOUT_MS,
    DB_ENV,
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
    now,
)
from gpu_advisor.assistant.history.damage import (
    QUICK_CHECK_MAX_BYTES,
    RECOVERED_COLUMNS,
    SQLITE_MAGIC,
    WAL_MAGIC,
    _database_image,
    _header_damage,
    _indexed_frames,
    _names,
    _read_frames,
    _read_wal,
    _readable_rows,
    _Wal,
    _wal_checksum,
    looks_like_sqlite,
)
from gpu_advisor.assistant.history.export import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    MAX_IMPORT_BYTES,
    MAX_MESSAGES,
    MAX_TEXT_CHARS,
    _Export,
    write_new_file,
)
from gpu_advisor.assistant.history.migrations import MIGRATIONS
from gpu_advisor.assistant.history.search import (
    MAX_QUERY_CHARS,
    MAX_QUERY_WORDS,
    _boilerplate,
    _snippet,
    search_text,
)
from gpu_advisor.assistant.history.store import HistoryStore

__all__ = [
    "BUSY_TIMEOUT_MS", "DB_ENV", "EXPORT_FORMAT", "EXPORT_VERSION", "MAX_IMPORT_BYTES", "MAX_MESSAGES",
    "MAX_QUERY_CHARS", "MAX_QUERY_WORDS", "MAX_TEXT_CHARS", "MIGRATIONS", "QUICK_CHECK_MAX_BYTES",
    "RECOVERED_COLUMNS", "SQLITE_MAGIC", "WAL_MAGIC", "DatabaseTooNew", "HistoryError", "HistoryStore", "NotSaved",
    "SessionGone", "SessionRow", "StorageError", "_Export", "_Wal", "_boilerplate", "_database_image", "_decode",
    "_header_damage", "_indexed_frames", "_json", "_names", "_read_frames", "_read_wal", "_readable_rows",
    "_snippet", "_storage_problem", "_wal_checksum", "default_path", "looks_like_sqlite", "new_id", "now",
    "search_text", "write_new_file",
]
