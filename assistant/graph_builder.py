"""The engine as a LangGraph graph, built from assistant.turn_flow's table: for LangGraph Server, langgraph-sdk,
notebooks and anyone compiling it their own way. assistant.session's conversations run the same table with
assistant.driver, which loads no langgraph; importing this module loads it.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from gpu_advisor.assistant import turn_flow
from gpu_advisor.assistant.engine import AdvisorInput, AdvisorOutput, AdvisorState, _showing_tool_calls


def build_graph(front_end: bool = False) -> StateGraph[Any, Any, Any, Any]:
    """The uncompiled graph: compile it with the checkpointer your front-end uses.

    front_end=True is the graph chat front-ends see (LangGraph Server, langgraph-sdk): messages in;
    messages and the advisor's payload out (AdvisorInput, AdvisorOutput), and the tool calls behind
    an answer as an AIMessage with tool_calls and ToolMessages before the reply, which stays the
    last message. Without it, the whole state goes in and out and each turn adds only the human
    message and the reply: for drivers that keep the state themselves (assistant.driver does the same
    without langgraph)."""
    from gpu_advisor.assistant import front_end as fe

    g = (StateGraph(AdvisorState, context_schema=fe.AdvisorContext, input_schema=AdvisorInput,
                    output_schema=AdvisorOutput) if front_end else StateGraph(AdvisorState))

    def wrapped(name: str, node: Any) -> Any:
        """Front-ends: the context read first, the tool calls before the reply, a question as an interrupt when asked for."""
        if not front_end:
            return node
        if name == turn_flow.ENTRY:
            return fe.with_context(node)
        return fe.asking_by_interrupt(_showing_tool_calls(node) if name in turn_flow.TOOL_REPLIES else node)

    for name, node in turn_flow.nodes().items():
        g.add_node(name, wrapped(name, node))
    g.add_edge(START, turn_flow.ENTRY)
    g.add_conditional_edges(turn_flow.ENTRY, turn_flow.route, {name: name for name in turn_flow.REPLIES})
    for name in turn_flow.REPLIES:
        if front_end:
            g.add_conditional_edges(name, fe.after_reply, {"understand": turn_flow.ENTRY, "end": END})
        else:
            g.add_edge(name, END)
    return g


graph = build_graph(front_end=True).compile()  # for langgraph.json and other front-ends
engine_graph = build_graph().compile()  # the whole state in and out: what assistant.driver does without langgraph
