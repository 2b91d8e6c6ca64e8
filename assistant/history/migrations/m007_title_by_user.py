"""007: whether a session's title is the user's own.

Titles are written from what the advisor understood ("Serve Llama 3.1 70B to 200 users") and follow the
conversation as it settles; a title the user gave (rename) is kept from then on. Sessions saved before
this migration keep their titles, as if chosen: nothing is renamed behind the user's back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils

NAME = "007_title_by_user"


def apply(db: sqlite_utils.Database) -> None:
    db.conn.execute("ALTER TABLE sessions ADD COLUMN title_by_user INTEGER NOT NULL DEFAULT 0")
    db.conn.execute("UPDATE sessions SET title_by_user = 1")
