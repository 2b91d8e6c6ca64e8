"""006: session titles by trigrams, as 005 does messages.

A title in a script written without spaces (微调一个14B模型) was found by reading every title: about
50 ms at 100,000 sessions. The titles now have their own trigram index (over each title with two
spaces appended, so a two-character word at the end starts a trigram too) and a vocabulary table, and
are searched through them.
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils

NAME = "006_title_trigram"


def apply(db: sqlite_utils.Database) -> None:
    conn = db.conn
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'messages_trigram'").fetchone():
        return  # SQLite before 3.34: no trigram tokenizer; titles are scanned
    conn.execute("CREATE VIEW sessions_trigram_source AS SELECT rowid, title || '  ' AS title FROM sessions")
    conn.execute("CREATE VIRTUAL TABLE sessions_trigram USING fts5(title, content='sessions_trigram_source', "
                 "content_rowid='rowid', tokenize='trigram')")
    for trigger in (
            "sessions_trigram_ai AFTER INSERT ON sessions BEGIN "
            "INSERT INTO sessions_trigram (rowid, title) VALUES (new.rowid, new.title || '  '); END",
            "sessions_trigram_ad AFTER DELETE ON sessions BEGIN "
            "INSERT INTO sessions_trigram (sessions_trigram, rowid, title) "
            "VALUES ('delete', old.rowid, old.title || '  '); END",
            "sessions_trigram_au AFTER UPDATE OF title ON sessions BEGIN "
            "INSERT INTO sessions_trigram (sessions_trigram, rowid, title) "
            "VALUES ('delete', old.rowid, old.title || '  '); "
            "INSERT INTO sessions_trigram (rowid, title) VALUES (new.rowid, new.title || '  '); END"):
        conn.execute(f"CREATE TRIGGER {trigger}")
    conn.execute("INSERT INTO sessions_trigram (sessions_trigram) VALUES ('rebuild')")
    with contextlib.suppress(sqlite3.OperationalError):  # no fts5vocab module: short words are then scanned for
        conn.execute("CREATE VIRTUAL TABLE sessions_trigram_vocab USING fts5vocab(sessions_trigram, 'row')")
