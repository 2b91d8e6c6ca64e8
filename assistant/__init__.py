"""The conversation engine: a state machine that asks, computes with the sizing tools, and explains.

`build_graph()` returns it as an uncompiled LangGraph StateGraph; `graph` is compiled without a checkpointer
(for LangGraph Server). Both come from assistant.graph_builder, loaded (with langgraph) on first use, so
importing `assistant.reading`, the history store or a conversation (assistant.driver runs its turns) stays cheap.
"""

from __future__ import annotations

from typing import Any

__all__ = ["build_graph", "graph"]


def __getattr__(name: str) -> Any:
    if name in ("build_graph", "graph"):
        from gpu_advisor.assistant import graph_builder

        return getattr(graph_builder, name)
    if name == "AdvisorState":
        from gpu_advisor.assistant import engine

        return engine.AdvisorState
    raise AttributeError(name)
