"""Named migrations: one module per schema version, applied in order on every open and recorded
by name in the `_migrations` table. A database that records a name this version does not know was
written by a newer GPU Advisor and is refused untouched.

To change the schema, add the next module (NNN_what_it_does) and append it to MIGRATIONS; never
edit one that has shipped.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

from gpu_advisor.assistant.history.migrations import (
    m001_initial,
    m002_message_fts,
    m003_session_title_fts,
    m004_search_text_and_trigram_fts,
    m005_indexes_for_scale,
    m006_title_trigram,
    m007_title_by_user,
)

if TYPE_CHECKING:
    import sqlite_utils

Migration = Callable[["sqlite_utils.Database"], None]

MIGRATIONS: list[tuple[str, Migration]] = [
    (m.NAME, m.apply) for m in (m001_initial, m002_message_fts, m003_session_title_fts,
                                m004_search_text_and_trigram_fts, m005_indexes_for_scale, m006_title_trigram,
                                m007_title_by_user)
]


def unknown_migrations(conn: sqlite3.Connection, migrations: list[tuple[str, Migration]]) -> list[str]:
    """Names recorded in the database that `migrations` does not hold (a newer version wrote them)."""
    has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").fetchone()
    if not has_table:
        return []
    known = {name for name, _ in migrations}
    return sorted({r[0] for r in conn.execute("SELECT name FROM _migrations")} - known)


def pending_read_only(conn: sqlite3.Connection, migrations: list[tuple[str, Migration]]) -> list[str]:
    """The names of the migrations not yet applied, read without writing (a read-only database)."""
    has_table = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_migrations'").fetchone()
    applied = {r[0] for r in conn.execute("SELECT name FROM _migrations")} if has_table else set()
    return [name for name, _ in migrations if name not in applied]


def pending(conn: sqlite3.Connection, migrations: list[tuple[str, Migration]]) -> list[tuple[str, Migration]]:
    """The migrations not yet applied, in order (call inside the write transaction)."""
    conn.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied TEXT)")
    applied = {r[0] for r in conn.execute("SELECT name FROM _migrations")}
    return [(name, migration) for name, migration in migrations if name not in applied]
