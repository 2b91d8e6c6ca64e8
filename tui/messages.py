"""Custom Textual messages: results of background turns, posted back to the UI thread."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class TurnDone(Message):
    def __init__(self, turn_id: int, reply: Any) -> None:
        super().__init__()
        self.turn_id = turn_id
        self.reply = reply


class TurnFailed(Message):
    def __init__(self, turn_id: int, error: str) -> None:
        super().__init__()
        self.turn_id = turn_id
        self.error = error
