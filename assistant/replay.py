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
# The most characters of user turns replayed (the last turn whole, whatever its length): two messages of the longest
# a new message may be. Typed conversations stay far under it; a crafted one is cut to a bounded cost.
MAX_REPLAYED_CHARS = 16_000
# `sessions replay` (session.rerun) compares every turn in order, so it cannot skip the middle: it re-runs the turns
# from the first, at most MAX_RERUN_TURNS of them and MAX_REPLAYED_CHARS characters (the first turn whatever its
# length, cut to a message's limit), and says how many of the last turns it did not compare.
MAX_RERUN_TURNS = 100


def first_turns(texts: Sequence[str]) -> int:
    """How many of the user turns, from the first, `sessions replay` re-runs (see MAX_RERUN_TURNS)."""
    used = 0
    for n, text in enumerate(texts):
        used += len(text)
        if n and (n >= MAX_RERUN_TURNS or used > MAX_REPLAYED_CHARS):
            return n
    return len(texts)


class Cancelled(RuntimeError):
    """The work was stopped between turns (the client left, the server is shutting down)."""


def bounded(texts: Sequence[str]) -> tuple[list[str], int]:
    """The user turns to replay and how many between them are skipped: the first HEAD_TURNS and the last ones,
    MAX_REPLAYED_TURNS in all, and no more than MAX_REPLAYED_CHARS characters of them (reading costs time by the
    character: 24 crafted 8,000-character turns once took 16 s). The last turn is always kept; then the first
    turns (they usually say the job), then the latest, each while the characters allow."""
    texts = list(texts)
    picked = list(range(len(texts))) if len(texts) <= MAX_REPLAYED_TURNS else [
        *range(HEAD_TURNS), *range(len(texts) - (MAX_REPLAYED_TURNS - HEAD_TURNS), len(texts))]
    if sum(len(texts[i]) for i in picked) > MAX_REPLAYED_CHARS:
        last, room, kept = picked[-1], MAX_REPLAYED_CHARS - len(texts[picked[-1]]), set()
        head, tail = [i for i in picked[:-1] if i < HEAD_TURNS], [i for i in reversed(picked[:-1]) if i >= HEAD_TURNS]
        for i in [*head, *tail]:
            if len(texts[i]) <= room:
                kept.add(i)
                room -= len(texts[i])
        picked = [i for i in picked if i in kept or i == last]
    return [texts[i] for i in picked], len(texts) - len(picked)


def check(cancel: threading.Event | None) -> None:
    """Raise Cancelled when `cancel` is set (called between replayed turns)."""
    if cancel is not None and cancel.is_set():
        raise Cancelled("stopped between turns")


def noted(reply: Any, skipped: int, lang: str | None) -> Any:
    """The reply with a line saying how many earlier turns were skipped when the conversation was rebuilt."""
    if not skipped:
        return reply
    from langchain_core.messages import AIMessage

    from gpu_advisor.assistant.catalog import say

    note = say(lang or "en", "replay.skipped", n=skipped, head=HEAD_TURNS, most=MAX_REPLAYED_TURNS,
               chars=f"{MAX_REPLAYED_CHARS:,}")
    kwargs = dict(reply.additional_kwargs)
    kwargs["gpu_advisor"] = {**dict(kwargs.get("gpu_advisor") or {}), "skipped_turns": skipped}
    return AIMessage(content=f"{reply.content}\n\n{note}", additional_kwargs=kwargs)
