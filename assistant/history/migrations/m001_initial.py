"""001: the three tables (sessions, messages, tool_calls) and the indexes of the first schema."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite_utils

NAME = "001_initial"


def apply(db: sqlite_utils.Database) -> None:
    db.table("sessions").create({"id": str, "title": str, "created": str, "updated": str, "profile": str, "state": str},
                          pk="id", not_null={"title", "created", "updated"}, defaults={"profile": "{}", "state": "{}"})
    db.table("messages").create({"id": str, "session_id": str, "seq": int, "role": str, "text": str, "payload": str,
                           "created": str}, pk="id", foreign_keys=[("session_id", "sessions", "id")],
                          not_null={"session_id", "seq", "role", "text", "created"})
    db.table("messages").create_index(["session_id", "seq"], unique=True)
    db.table("tool_calls").create({"id": str, "session_id": str, "message_id": str, "tool": str, "arguments": str,
                             "result": str, "duration_ms": float, "created": str}, pk="id",
                            foreign_keys=[("session_id", "sessions", "id"), ("message_id", "messages", "id")])
    db.table("tool_calls").create_index(["session_id"])
    db.table("sessions").create_index(["updated"])
