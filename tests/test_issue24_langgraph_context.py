"""Issue 24, LangGraph: a run's settings come through the runtime context (`context=`), and front-ends that
ask for it (`interrupts: true`) get each clarifying question as a LangGraph interrupt with its choices; plain
messages stay the default. In process, and through a real LangGraph Server with the langgraph-sdk client."""

from __future__ import annotations

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from test_langgraph_server import server_url  # noqa: F401 - the fixture: a `langgraph dev` for this module

from gpu_advisor import build_graph


def _app():
    return build_graph(front_end=True).compile(checkpointer=InMemorySaver())


def _reply(app, text: str, thread: str, **kw) -> AIMessage:
    out = app.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": thread}}, **kw)
    assert "__interrupt__" not in out
    return out["messages"][-1]


WHOLE = ["serve llama 3.1 8b to 20 users in bf16 during working hours",
         "给20个人用llama 3.1 8b，bf16，工作时间",
         "fine-tune qwen3 8b with qlora on 10m tokens"]


@pytest.mark.parametrize("text", WHOLE)
@pytest.mark.parametrize("settings", [{"region": "china", "currency": "CNY"}, {"currency": "CNY"}, {"currency": "USD"}])
def test_settings_in_the_runtime_context_answer_as_settings_in_the_input(text, settings):
    by_context = _reply(_app(), text, "c", context={"settings": settings})
    by_input = _app().invoke({"messages": [HumanMessage(text)], "settings": settings},
                             {"configurable": {"thread_id": "i"}})["messages"][-1]
    plain = _reply(_app(), text, "p")
    assert by_context.content == by_input.content
    assert by_context.additional_kwargs["gpu_advisor"]["kind"] == "answer"
    if settings["currency"] == "CNY":
        assert "¥" in by_context.content
        if text.isascii():  # not the English default: the context's settings changed the answer
            assert "¥" not in plain.content


@pytest.mark.parametrize("settings", [{"region": "mars"}, {"colour": "blue"}, "china", 7, None])
def test_settings_the_engine_cannot_use_are_dropped_as_from_the_input(settings):
    text = WHOLE[0]
    assert _reply(_app(), text, "b", context={"settings": settings}).content == _reply(_app(), text, "p").content


@pytest.mark.parametrize("text", ["serve llama 3.1 8b to 20 users", "给20个人部署qwen3 32b"])
def test_oneshot_in_the_runtime_context_answers_at_once(text):
    asked = _reply(_app(), text, "q")
    assert asked.additional_kwargs["gpu_advisor"]["kind"] == "question"
    at_once = _reply(_app(), text, "o", context={"oneshot": True})
    assert at_once.additional_kwargs["gpu_advisor"]["kind"] == "answer"
    assert at_once.content == _app().invoke({"messages": [HumanMessage(text)], "oneshot": True},
                                            {"configurable": {"thread_id": "x"}})["messages"][-1].content


CONVERSATIONS = [
    ["fine-tune a 27B model and then let my team chat with it", "qlora", "15 users", "working hours"],
    ["serve llama 3.1 8b to 20 users", "around the clock"],
    ["给20个人部署qwen3 32b", "工作时间"],
]


def _resume_forms(answer: str) -> list:
    return [answer, {"value": answer}, [{"type": "response", "args": answer}]]


@pytest.mark.parametrize("form", [0, 1, 2], ids=["words", "choice", "agent-chat-ui-response"])
@pytest.mark.parametrize("turns", CONVERSATIONS, ids=["two-jobs", "serve", "zh"])
def test_questions_as_interrupts_reach_the_answer_the_plain_conversation_reaches(turns, form):
    plain = _app()
    for t in turns:
        last_plain = _reply(plain, t, "plain")
    app, config, ctx = _app(), {"configurable": {"thread_id": "int"}}, {"interrupts": True}
    out = app.invoke({"messages": [HumanMessage(turns[0])]}, config, context=ctx)
    for answer in turns[1:]:
        (pending,) = out["__interrupt__"]
        value = pending.value
        asked = value["gpu_advisor"]
        assert asked["kind"] == "question" and asked["slot"] == value["action_request"]["action"]
        assert value["config"]["allow_respond"] is True and value["description"]
        assert asked["choices"] == value["action_request"]["args"]["choices"]
        out = app.invoke(Command(resume=_resume_forms(answer)[form]), config, context=ctx)
    assert "__interrupt__" not in out
    assert out["messages"][-1].content == last_plain.content
    humans = [m.content for m in out["messages"] if isinstance(m, HumanMessage)]
    assert humans == turns  # each answer is in the thread as the user's message
    ids = [c["id"] for m in out["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("ctx", [None, {}, {"interrupts": False}, {"interrupts": "yes"}])
def test_plain_messages_stay_the_default(ctx):
    kw = {} if ctx is None else {"context": ctx}
    reply = _reply(_app(), CONVERSATIONS[1][0], "d", **kw)
    assert reply.additional_kwargs["gpu_advisor"]["kind"] == "question"


@pytest.mark.slow
def test_context_and_interrupts_through_the_langgraph_sdk(server_url):  # noqa: F811
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server_url)
    thread = client.threads.create()["thread_id"]
    say = {"messages": [{"role": "user", "content": "serve llama 3.1 8b to 20 users"}]}
    client.runs.wait(thread, "gpu_advisor", input=say, context={"interrupts": True})
    (pending,) = client.threads.get_state(thread)["interrupts"]
    assert pending["value"]["gpu_advisor"]["slot"] == "utilisation"
    assert {"label": "Working hours", "value": "working hours"} in pending["value"]["action_request"]["args"]["choices"]
    state = client.runs.wait(thread, "gpu_advisor", command={"resume": [{"type": "response", "args": "working hours"}]},
                             context={"interrupts": True, "settings": {"region": "china", "currency": "CNY"}})
    answer = state["messages"][-1]
    assert answer["additional_kwargs"]["gpu_advisor"]["kind"] == "answer" and "¥" in answer["content"]
    plain = client.threads.create()["thread_id"]
    asked = client.runs.wait(plain, "gpu_advisor", input=say)["messages"][-1]
    assert asked["additional_kwargs"]["gpu_advisor"]["kind"] == "question"
    assert not client.threads.get_state(plain)["interrupts"]
