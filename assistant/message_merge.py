"""How a turn's messages join the thread's: LangGraph's `add_messages`, without loading langgraph.

`langgraph.graph.message` is a module of the `langgraph.graph` package, whose import loads the whole graph
runtime and langchain_core's tracers with langsmith (seconds at start-up), so the in-process driver
(assistant.driver) and the graph share this copy of its rule instead: a message whose id the thread already
holds replaces it, a RemoveMessage with that id deletes it, RemoveMessage(id=REMOVE_ALL_MESSAGES) drops
everything before the messages after it, any other message is appended, and a message without an id gets a
new one (in place, as LangGraph does). tests/test_issue24_graph_free.py checks it against LangGraph's own.
"""

from __future__ import annotations

import uuid
from typing import Any

from langchain_core.messages import (
    AnyMessage,
    BaseMessage,
    BaseMessageChunk,
    RemoveMessage,
    convert_to_messages,
    message_chunk_to_message,
)

REMOVE_ALL_MESSAGES = "__remove_all__"  # langgraph.graph.message.REMOVE_ALL_MESSAGES


def _as_messages(items: list[Any]) -> list[Any]:
    if all(issubclass(t, BaseMessage) and not issubclass(t, BaseMessageChunk) for t in set(map(type, items))):
        return items
    return [message_chunk_to_message(m) for m in convert_to_messages(items)]


def add_messages(left: Any, right: Any) -> list[AnyMessage]:
    """`right` merged into `left` by id (see the module's docstring)."""
    left = _as_messages(left if isinstance(left, list) else [left])
    right = _as_messages(right if isinstance(right, list) else [right])
    remove_all = None
    for m in left:
        if m.id is None:
            m.id = str(uuid.uuid4())
    for i, m in enumerate(right):
        if m.id is None:
            m.id = str(uuid.uuid4())
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES:
            remove_all = i
    if remove_all is not None:
        return right[remove_all + 1:]
    merged = left.copy()
    index = {m.id: i for i, m in enumerate(merged)}
    removed: set[str | None] = set()
    for m in right:
        at = index.get(m.id)
        if at is not None:
            if isinstance(m, RemoveMessage):
                removed.add(m.id)
            else:
                removed.discard(m.id)
                merged[at] = m
        elif isinstance(m, RemoveMessage):
            raise ValueError(f"Attempting to delete a message with an ID that doesn't exist ('{m.id}')")
        else:
            index[m.id] = len(merged)
            merged.append(m)
    return [m for m in merged if m.id not in removed] if removed else merged
