"""Tool-call ids are unique across a whole LangGraph thread, also past the 20-turn window (front-ends
such as agent-chat-ui key tool activity by id; a repeated id shows one call's result under another)."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from gpu_advisor.assistant import build_graph
from gpu_advisor.assistant.engine import WINDOW_TURNS

TURNS = ["serve llama 3.1 70b to 50 users", "make it 32k context", "what about int4?", "show the math",
         "100 users", "rent or buy?"]


def _thread_tool_calls(turns: int, thread: str = "ids") -> list[tuple[list[str], list[str]]]:
    """Each turn's tool-call ids as the AIMessage asks for them and as the ToolMessages answer them."""
    app = build_graph(front_end=True).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": thread}}
    out = []
    for n in range(turns):
        messages = app.invoke({"messages": [HumanMessage(TURNS[n % len(TURNS)])]}, config)["messages"]
        last_human = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        new = messages[last_human + 1:]
        asked = [c["id"] for m in new if isinstance(m, AIMessage) for c in m.tool_calls]
        answered = [m.tool_call_id for m in new if isinstance(m, ToolMessage)]
        out.append((asked, answered))
    return out


def test_tool_call_ids_never_repeat_in_a_25_turn_thread():
    turns = _thread_tool_calls(WINDOW_TURNS + 5)
    ids = [i for asked, _ in turns for i in asked]
    assert sum(bool(asked) for asked, _ in turns) > WINDOW_TURNS // 2  # most turns call tools
    assert len(ids) == len(set(ids)), [i for i in ids if ids.count(i) > 1]
    assert all(asked == answered for asked, answered in turns)  # each result answers its own call


def test_tool_call_ids_are_the_same_in_the_same_conversation():
    assert _thread_tool_calls(8, "a") == _thread_tool_calls(8, "b")
