"""Issue 24, start-up: a conversation's turns run without langgraph (assistant.driver), the same as on the graph.

`gpu-advisor ask` (every assistant.session conversation) runs assistant.turn_flow's nodes with assistant.driver,
which imports no langgraph; the LangGraph graph (assistant.graph_builder) is built from the same table. Every
golden conversation, and conversations that reset, split a compound follow-up and answer at once, give the same
replies, payloads, tool calls and state both ways. The driver merges messages with assistant.message_merge,
checked here against LangGraph's own add_messages. `ask` is checked, in a fresh interpreter, to load no langgraph.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage, RemoveMessage, ToolMessage

from gpu_advisor.assistant import driver, session, turn_flow
from gpu_advisor.assistant.message_merge import REMOVE_ALL_MESSAGES, add_messages
from gpu_advisor.assistant.session import STATE_KEYS, Conversation
from tests.conversation import dump, run_conversation
from tests.test_startup import _loaded

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.yaml"))
# conversations that take the paths the golden ones may not: a reset (RemoveMessage of every message), compound
# follow-ups answered part by part (parts_node runs the reply nodes through turn_flow), Chinese, a one-shot answer
MORE = {
    "reset_and_parts": (False, ["serve qwen3 32b for 50 users, around the clock",
                                "how many gpu hours is that and why not sglang", "start over",
                                "部署qwen3 32b给50个人用，全天", "一共多少卡时，还有租还是买"]),
    "oneshot_follow_up": (True, ["serve llama 3.1 8b to 10 users", "what about int4?", "rent or buy?"]),
    "questions_first": (False, ["fine-tune a 27B model", "not sure", "LoRA", "什么是KV cache"]),
}
CONVERSATIONS = {**{p.stem: (False, [t["user"] for t in yaml.safe_load(p.read_text(encoding="utf-8"))["turns"]])
                    for p in GOLDEN}, **MORE}


def _run(turns: list[str], oneshot: bool) -> list[tuple[str, str, str]]:
    """Each turn's reply (text and payload), its tool calls (without their timings) and the state after it."""
    conv = Conversation()
    conv.oneshot = oneshot
    out = []
    for text in turns:
        reply = conv.send(text)
        calls = [{k: v for k, v in call.items() if k != "duration_ms"} for call in conv.tool_calls]
        out.append((dump([reply]), json.dumps(calls, sort_keys=True, default=str),
                    json.dumps({k: conv.state.get(k) for k in STATE_KEYS}, sort_keys=True, default=str)))
    return out


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
def test_the_driver_and_the_graph_give_the_same_turns(name, monkeypatch):
    oneshot, turns = CONVERSATIONS[name]
    assert session._graph() is driver.engine_driver  # conversations run on the driver
    on_driver = _run(turns, oneshot)
    from gpu_advisor.assistant.graph_builder import engine_graph

    monkeypatch.setattr(session, "_graph", lambda: engine_graph)
    on_graph = _run(turns, oneshot)
    for n, (ours, theirs) in enumerate(zip(on_driver, on_graph, strict=True), start=1):
        assert ours == theirs, f"{name}, turn {n}: {turns[n - 1]!r}"
    if not oneshot:  # the graph with a checkpointer (tests.conversation, test_golden) keeps its own state
        assert [json.loads(r)[0] for r, _, _ in on_driver] == json.loads(dump(run_conversation(turns)))


def _states(invoke, turns: list[str], oneshot: bool) -> list[str]:
    """The whole state after each turn, the thread's messages (the window, a reset's removal) included."""
    state: dict = {"oneshot": True} if oneshot else {}
    out = []
    for text in turns:
        state = invoke({**state, "messages": [*state.get("messages", []), HumanMessage(text)]},
                       {"configurable": {"tool_recorder": lambda *_: None}})
        messages = [(m.type, m.content, m.additional_kwargs) for m in state["messages"]]
        out.append(json.dumps({**state, "messages": messages}, sort_keys=True, default=str))
    return out


@pytest.mark.parametrize("name", sorted(MORE))
def test_the_driver_and_the_graph_keep_the_same_thread(name):
    """Invoked directly with the messages carried from turn to turn (as tests and notebooks do)."""
    from gpu_advisor.assistant.graph_builder import engine_graph

    oneshot, turns = MORE[name]
    assert _states(driver.invoke, turns, oneshot) == _states(engine_graph.invoke, turns, oneshot)


def test_the_graph_is_built_from_the_turn_table():
    from gpu_advisor.assistant.graph_builder import build_graph

    for front_end in (False, True):
        g = build_graph(front_end=front_end)
        assert list(g.nodes) == list(turn_flow.nodes())
        assert set(g.branches[turn_flow.ENTRY]["route"].ends.values()) == set(turn_flow.REPLIES)
    assert turn_flow.ENTRY not in turn_flow.REPLIES and set(turn_flow.TOOL_REPLIES) <= set(turn_flow.REPLIES)


def test_the_graph_is_where_front_ends_look_for_it():
    """langgraph.json names a module attribute (LangGraph Server reads the module's __dict__); the old import paths work."""
    import importlib

    import gpu_advisor
    from gpu_advisor import assistant
    from gpu_advisor.assistant import engine, graph_builder

    spec = json.loads((Path(__file__).parent.parent / "langgraph.json").read_text())["graphs"]["gpu_advisor"]
    module, name = spec.split(":")
    assert importlib.import_module(module).__dict__[name] is graph_builder.graph
    assert engine.graph is assistant.graph is gpu_advisor.graph is graph_builder.graph
    assert engine.engine_graph is graph_builder.engine_graph and engine.build_graph is graph_builder.build_graph
    with pytest.raises(AttributeError):
        engine.no_such_name  # noqa: B018


def test_a_node_update_merges_as_langgraph_merges():
    """Messages through the schema's reducer, other keys replaced, keys the schema lacks dropped; the input too."""
    first = HumanMessage("a", id="1")
    state = driver.merged({"messages": [first], "profile": {"model": "x"}, "lang": "en"},
                          {"messages": [AIMessage("b", id="2")], "profile": {}, "not_a_key": 1})
    assert state == {"messages": [first, AIMessage("b", id="2")], "profile": {}, "lang": "en"}
    assert driver.merged(state, None) == state
    with pytest.raises(TypeError):
        driver.merged(state, ["messages"])  # type: ignore[arg-type]


IDS = st.one_of(st.none(), st.sampled_from(["a", "b", "c", "d"]))
MESSAGE = st.one_of(
    st.builds(lambda t, i: HumanMessage(t, id=i), st.text(max_size=3), IDS),
    st.builds(lambda t, i: AIMessage(t, id=i), st.text(max_size=3), IDS),
    st.builds(lambda t, i: ToolMessage(t, id=i, tool_call_id="x"), st.text(max_size=3), IDS),
    st.builds(lambda i: RemoveMessage(id=i), st.sampled_from(["a", "b", "c", "d"])),
    st.just(RemoveMessage(id=REMOVE_ALL_MESSAGES)),
    st.builds(lambda t: {"role": "user", "content": t}, st.text(max_size=3)),
    st.builds(lambda t: ("assistant", t), st.text(max_size=3)),
)
LEFT = st.lists(st.one_of(st.builds(lambda t, i: HumanMessage(t, id=i), st.text(max_size=3), IDS),
                          st.builds(lambda t, i: AIMessage(t, id=i), st.text(max_size=3), IDS)), max_size=5)


def _merge(merge, left, right):
    """What a merge gives, with the ids it made up written as 'new' (they are random both ways)."""
    left, right = copy.deepcopy(left), copy.deepcopy(right)
    given_ids = {m.id for m in [*left, *(right if isinstance(right, list) else [right])] if hasattr(m, "id") and m.id}
    try:
        out = merge(left, right)
    except ValueError as e:
        return "ValueError", str(e)
    made = [m.id for m in out if m.id not in given_ids]
    assert all(isinstance(i, str) for i in made) and len(set(made)) == len(made)  # each a new id of its own
    return [(type(m).__name__, m.content, m.id if m.id in given_ids else "new") for m in out]


@settings(max_examples=300, deadline=None)
@given(LEFT, st.one_of(st.lists(MESSAGE, max_size=6), MESSAGE))
def test_the_message_merge_is_langgraphs(left, right):
    from langgraph.graph.message import REMOVE_ALL_MESSAGES as THEIRS
    from langgraph.graph.message import add_messages as langgraph_add_messages

    assert REMOVE_ALL_MESSAGES == THEIRS
    assert _merge(add_messages, left, right) == _merge(langgraph_add_messages, left, right)


GRAPH_LIBRARIES = ("langgraph", "langgraph_sdk", "langsmith", "langchain_core.runnables", "langchain_core.tracers")


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["ask", "serve llama 3.1 8b to 10 users"],
    ["ask", "--no-save", "--json", "部署qwen3 32b给50个人用"],
])
def test_ask_loads_no_langgraph(tmp_path, argv):
    """A question answered, saved and continued (`ask`, then `ask -c` and `ask --cid`) in one fresh interpreter."""
    code = ("import contextlib, io, json\n"
            "from gpu_advisor.tui.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    assert main({argv!r}) == 0\n"
            "assert out.getvalue().strip()\n")
    if "--no-save" not in argv:
        code += ("with contextlib.redirect_stdout(io.StringIO()) as out:\n"
                 "    assert main(['ask', '-c', '--json', 'what about int4?']) == 0\n"
                 "sid = json.loads(out.getvalue())['session_id']\n"
                 "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
                 "    assert main(['ask', '--cid', sid[:10], 'rent or buy?']) == 0\n"
                 "assert out.getvalue().strip()\n")
    assert _loaded(code, tmp_path, GRAPH_LIBRARIES) == []
