"""The conversation engine: a LangGraph state machine that asks, computes with the sizing tools, and explains.

`build_graph()` returns the uncompiled StateGraph; `graph` is compiled without a checkpointer (for
LangGraph Server). Both load langgraph lazily, so importing `assistant.reading` or the history store
stays cheap.
"""

from __future__ import annotations

from typing import Any

__all__ = ["build_graph", "graph"]


def __getattr__(name: str) -> Any:
    if name in ("build_graph", "graph", "AdvisorState"):
        from gpu_advisor.assistant import engine as module

        return getattr(module, name)
    raise AttributeError(name)
