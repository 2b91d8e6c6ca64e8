"""004: search the words people wrote, in any script.

A `search_text` column (the text without the suggestion line every answer ends with, so "int4" no
longer matches every session), indexed twice: by words (unicode61) and by trigrams (Chinese and
Japanese have no spaces between words, so unicode61 sees a whole sentence as one token). Existing
rows are filled and indexed.
"""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from gpu_advisor.assistant.history.search import search_text

if TYPE_CHECKING:
    import sqlite_utils

NAME = "004_search_text_and_trigram_fts"


def apply(db: sqlite_utils.Database) -> None:
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
