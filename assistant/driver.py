"""A turn run in process, without langgraph: what assistant.session drives its conversations with.

The engine's compiled LangGraph graph (assistant.graph_builder) costs seconds to import before the first turn:
`langgraph.graph` loads langchain_core's runnables and tracers, langsmith and langgraph_sdk. A conversation that
keeps its state itself needs none of that: this driver runs the nodes of assistant.turn_flow in its order (ENTRY,
then the node `route` names) and merges each node's update into the state as the graph does, by the state
schema (engine.AdvisorState): a key annotated with a reducer (the messages) is merged with it, any other key
replaced, a key the schema does not name ignored. `invoke` takes and gives what the compiled graph's does.
tests/test_issue24_graph_free.py checks the two give the same replies and states.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from gpu_advisor.assistant import turn_flow


@cache
def _schema() -> tuple[frozenset[str], dict[str, Callable[[Any, Any], Any]], dict[str, type]]:
    """The state's keys, the reducer of each annotated key, and the type its empty value is made from."""
    from gpu_advisor.assistant.engine import AdvisorState

    hints = typing.get_type_hints(AdvisorState, include_extras=True)
    reducers: dict[str, Callable[[Any, Any], Any]] = {}
    empty: dict[str, type] = {}
    for key, hint in hints.items():
        if typing.get_origin(hint) is typing.Annotated and callable(hint.__metadata__[-1]):
            reducers[key] = hint.__metadata__[-1]
            empty[key] = typing.get_origin(hint.__origin__) or hint.__origin__
    return frozenset(hints), reducers, empty


def merged(state: Mapping[str, Any], update: Mapping[str, Any] | None) -> dict[str, Any]:
    """`state` with a node's `update` (or the caller's input) applied, as LangGraph applies it."""
    if update is None:
        return dict(state)
    if not isinstance(update, Mapping):
        raise TypeError(f"a node returns a dict of state keys, not {type(update).__name__}")
    keys, reducers, _ = _schema()
    out = dict(state)
    for key, value in update.items():
        if key in reducers:
            out[key] = reducers[key](out[key], value)
        elif key in keys:
            out[key] = value
    return out


def invoke(state_in: Mapping[str, Any], config: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One turn: `state_in` (the whole state, the new message last) in, the whole state after the reply out."""
    _, _, empty = _schema()
    config = {**(config or {}), "configurable": dict((config or {}).get("configurable") or {})}
    state = merged({key: kind() for key, kind in empty.items()}, state_in)
    state = merged(state, turn_flow.run_node(turn_flow.ENTRY, dict(state), config))
    reply = turn_flow.route(state)
    if reply not in turn_flow.REPLIES:
        raise ValueError(f"the route named {reply!r}, which is no reply node")
    return merged(state, turn_flow.run_node(reply, dict(state), config))


class Driver:
    """What assistant.session calls: `invoke(state, config)`, as on the compiled graph."""

    invoke = staticmethod(invoke)


engine_driver = Driver()
