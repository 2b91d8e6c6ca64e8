"""003: a full-text index over session titles."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils

NAME = "003_session_title_fts"


def apply(db: sqlite_utils.Database) -> None:
    db.table("sessions").enable_fts(["title"], create_triggers=True, tokenize="unicode61")
