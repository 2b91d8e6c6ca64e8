"""002: a full-text index over the message text (unicode61 words), kept up to date by triggers."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils

NAME = "002_message_fts"


def apply(db: sqlite_utils.Database) -> None:
    db.table("messages").enable_fts(["text"], create_triggers=True, tokenize="unicode61")
