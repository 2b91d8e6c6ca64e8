"""Issue 12, constant-cost turns: a thread keeps its last WINDOW_TURNS turns and only the newest answer
carries its tool results, so a checkpoint stays the same size however long the conversation; the
transcript a front-end shows (assistant.session) stays whole."""

from __future__ import annotations

import pickle

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from gpu_advisor.assistant import build_graph
from gpu_advisor.assistant.engine import WINDOW_TURNS, window_of, windowed_messages
from gpu_advisor.assistant.session import Conversation

TURNS = ["serve llama 3.1 70b to 50 users", "make it 32k context", "what about int4?", "show the math",
         "100 users", "rent or buy?"]


def _carrying(messages) -> list[int]:
    return [i for i, m in enumerate(messages) if "results" in (m.additional_kwargs.get("gpu_advisor") or {})]


def test_a_long_thread_keeps_its_window_and_one_set_of_results():
    app = build_graph(front_end=True).compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "long"}}
    sizes = {}
    late = (WINDOW_TURNS + 10, WINDOW_TURNS + 10 + 3 * len(TURNS))  # past the window, at the same message
    for n in range(1, late[1] + 1):
        app.invoke({"messages": [HumanMessage(TURNS[(n - 1) % len(TURNS)])]}, config)
        if n in late:
            sizes[n] = len(pickle.dumps(app.get_state(config).values))
    messages = app.get_state(config).values["messages"]
    assert sum(isinstance(m, HumanMessage) for m in messages) == WINDOW_TURNS
    assert isinstance(messages[0], HumanMessage) and isinstance(messages[-1], AIMessage)
    answers = _carrying(messages)
    assert len(answers) == 1  # the newest answer; the state's `results` holds the same figures
    a, b = sizes.values()  # eighteen turns later (the same six messages in turn) the state is no bigger
    assert abs(b - a) / a < 0.05, sizes


def test_the_window_keeps_every_message_of_a_short_thread():
    msgs = [HumanMessage("hi", id="1"), AIMessage("hello", id="2")]
    assert windowed_messages([], msgs) == msgs
    assert window_of(msgs) == msgs


def test_a_session_keeps_the_whole_transcript_while_the_engine_sees_its_window():
    conv = Conversation()
    for n in range(WINDOW_TURNS + 5):
        conv.send(TURNS[n % len(TURNS)])
    assert len(conv.messages) == 2 * (WINDOW_TURNS + 5)
    assert len(_carrying(conv.messages)) > 1  # every answer keeps its payload in the transcript
    humans = [m for m in window_of(conv.messages) if isinstance(m, HumanMessage)]
    assert len(humans) == WINDOW_TURNS - 1


def test_start_over_still_clears_the_transcript():
    conv = Conversation()
    conv.send("serve llama 3.1 8b to 5 users")
    conv.send("start over")
    assert len(conv.messages) == 2 and conv.messages[0].content == "start over"
