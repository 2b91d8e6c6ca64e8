"""Bounded replay of a conversation's user turns. The OpenAI-compatible endpoint (tui/openai_api.py) rebuilds a
conversation from the user messages each request carries, and a saved session whose state cannot be used is
rebuilt from its messages (Conversation.resume -> rebuilt_state): both replay user turns through the engine, and
both replay at most MAX_REPLAYED_TURNS of them, so a crafted request or an imported session with thousands of
turns costs a bounded amount of work. The first turns (which usually say the job) and the last ones (the latest
changes, which the engine's own window sees) are kept; the turns between them are skipped, and the reply says
how many (replay.skipped, in the user's language)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

# The most user turns replayed to rebuild one conversation's state (the endpoint's request, a resumed session).
MAX_REPLAYED_TURNS = 24
# Of those, the first turns kept; the rest are the last turns.
HEAD_TURNS = MAX_REPLAYED_TURNS // 4


class Cancelled(RuntimeError):
    """The work was stopped between turns (the client left, the server is shutting down)."""


def bounded(texts: Sequence[str]) -> tuple[list[str], int]:
    """The user turns to replay (the first HEAD_TURNS and the last ones, MAX_REPLAYED_TURNS in all, the last
    always kept) and how many between them are skipped."""
    texts = list(texts)
    if len(texts) <= MAX_REPLAYED_TURNS:
        return texts, 0
    return [*texts[:HEAD_TURNS], *texts[-(MAX_REPLAYED_TURNS - HEAD_TURNS):]], len(texts) - MAX_REPLAYED_TURNS


def check(cancel: threading.Event | None) -> None:
    """Raise Cancelled when `cancel` is set (called between replayed turns)."""
    if cancel is not None and cancel.is_set():
        raise Cancelled("stopped between turns")


def noted(reply: Any, skipped: int, lang: str | None) -> Any:
    """The reply with a line saying how many earlier turns were skipped when the conversation was rebuilt."""
    if not skipped:
        return reply
    from langchain_core.messages import AIMessage

    from assistant.catalog import say

    note = say(lang or "en", "replay.skipped", n=skipped, head=HEAD_TURNS, most=MAX_REPLAYED_TURNS)
    kwargs = dict(reply.additional_kwargs)
    kwargs["gpu_advisor"] = {**dict(kwargs.get("gpu_advisor") or {}), "skipped_turns": skipped}
    return AIMessage(content=f"{reply.content}\n\n{note}", additional_kwargs=kwargs)
