"""005: what a history of 100,000 sessions needs.

- sessions(updated, id): the session list's order, so any page is read from the index;
- tool_calls(message_id): withdrawing a cancelled message finds its tool calls without a scan;
- the trigram index rebuilt over each text with two spaces appended, and a vocabulary table over it:
  a two-character Chinese word (微调) is then found through the index as the prefix of the trigrams
  that start with it (微调一, '微调 ', ...), also at the very end of a text, instead of by reading
  every message.
"""

from __future__ import annotations

import contextlib
import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils

NAME = "005_indexes_for_scale"


def apply(db: sqlite_utils.Database) -> None:
    conn = db.conn
    conn.execute("CREATE INDEX IF NOT EXISTS idx_sessions_updated_id ON sessions (updated, id)")
    conn.execute("CREATE INDEX IF NOT EXISTS idx_tool_calls_message_id ON tool_calls (message_id)")
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'messages_trigram'").fetchone():
        return  # SQLite before 3.34: no trigram index to rebuild
    for trigger in ("messages_trigram_ai", "messages_trigram_ad", "messages_trigram_au"):
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    conn.execute("DROP TABLE messages_trigram")
    conn.execute("CREATE VIEW messages_trigram_source AS SELECT rowid, search_text || '  ' AS search_text FROM messages")
    conn.execute("CREATE VIRTUAL TABLE messages_trigram USING fts5(search_text, content='messages_trigram_source', "
                 "content_rowid='rowid', tokenize='trigram')")
    for trigger in (
            "messages_trigram_ai AFTER INSERT ON messages BEGIN "
            "INSERT INTO messages_trigram (rowid, search_text) VALUES (new.rowid, new.search_text || '  '); END",
            "messages_trigram_ad AFTER DELETE ON messages BEGIN "
            "INSERT INTO messages_trigram (messages_trigram, rowid, search_text) "
            "VALUES ('delete', old.rowid, old.search_text || '  '); END",
            "messages_trigram_au AFTER UPDATE ON messages BEGIN "
            "INSERT INTO messages_trigram (messages_trigram, rowid, search_text) "
            "VALUES ('delete', old.rowid, old.search_text || '  '); "
            "INSERT INTO messages_trigram (rowid, search_text) VALUES (new.rowid, new.search_text || '  '); END"):
        conn.execute(f"CREATE TRIGGER {trigger}")
    conn.execute("INSERT INTO messages_trigram (messages_trigram) VALUES ('rebuild')")
    with contextlib.suppress(sqlite3.OperationalError):  # no fts5vocab module: short words are then scanned for
        conn.execute("CREATE VIRTUAL TABLE messages_trigram_vocab USING fts5vocab(messages_trigram, 'row')")
