"""A turn of the conversation as data: the engine's nodes, the one a turn starts with, and the route after it.

Both ways of running a turn read this table, so they run the same nodes in the same order: the LangGraph
graph (assistant.graph_builder: LangGraph Server, langgraph-sdk, notebooks) and the in-process driver
(assistant.driver: every assistant.session conversation, so `ask`, `chat`, the app and the servers), which
loads no langgraph. A turn is ENTRY, then the one reply node `route` names; that node ends the turn.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

ENTRY = "understand"
# The nodes `route` chooses between after ENTRY; each one writes the turn's reply.
REPLIES = ("ask", "answer", "explain", "reply", "inform", "parts")
# Those that run the sizing tools: front-ends see their tool calls before the reply (engine.tool_call_messages).
TOOL_REPLIES = ("answer", "explain", "inform", "parts")


@cache
def nodes() -> dict[str, Callable[..., dict[str, Any]]]:
    """Each node's function, by name (ENTRY first)."""
    from gpu_advisor.assistant import engine

    return {ENTRY: engine.understand_node, "ask": engine.ask_node, "answer": engine.answer_node,
            "explain": engine.explain_node, "reply": engine.reply_node, "inform": engine.inform_node,
            "parts": engine.parts_node}


def route(state: Any) -> str:
    """The reply node after ENTRY: a pure function of the state (engine.next_node)."""
    from gpu_advisor.assistant.engine import next_node

    return next_node(state)


def takes_config(node: Callable[..., Any]) -> bool:
    """Whether a node is given the run's config (its tool recorder), as LangGraph decides: a `config` parameter."""
    import inspect

    return "config" in inspect.signature(node).parameters


def run_node(name: str, state: Any, config: Any) -> dict[str, Any]:
    """One node on `state`, with the config when it takes one."""
    node = nodes()[name]
    return node(state, config) if takes_config(node) else node(state)
