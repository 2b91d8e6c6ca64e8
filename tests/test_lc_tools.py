"""The sizing tools as LangChain tools: one per registry entry, callable from an agent's tool calls."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool

from gpu_advisor.assistant.lc_tools import langchain_tools
from gpu_advisor.tools.registry import TOOLS

LLAMA_3_8B_PARAMS = 8.03e9


class ToolCallingFakeModel(FakeMessagesListChatModel):
    """A scripted chat model; the stock fake does not implement bind_tools, so binding returns the model."""

    bound: list[Any] = []

    def bind_tools(self, tools, **kwargs):  # type: ignore[override]
        self.bound = list(tools)
        return self


def _scripted_call(name: str, args: dict[str, Any], call_id: str = "call_1") -> AIMessage:
    call = {"name": name, "args": args, "id": call_id, "type": "tool_call"}
    return AIMessage(content="", tool_calls=[call])


@pytest.fixture(scope="module")
def lc_tools() -> dict[str, BaseTool]:
    return {t.name: t for t in langchain_tools()}


def test_one_tool_per_registry_entry_with_matching_names():
    tools = langchain_tools()
    names = [t.name for t in tools]
    assert len(names) == len(TOOLS)
    assert len(set(names)) == len(names)
    assert set(names) == set(TOOLS)
    for t in tools:
        assert isinstance(t, BaseTool)
        assert t.description == TOOLS[t.name].description


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_each_args_schema_is_an_object_with_properties(lc_tools, name):
    tool = lc_tools[name]
    schema = tool.args_schema.model_json_schema()
    assert schema.get("type") == "object"
    assert isinstance(schema.get("properties"), dict) and schema["properties"], schema
    # what a chat model is shown when the tool is bound
    assert tool.tool_call_schema.model_json_schema()["properties"]
    assert set(schema["properties"]) == set(TOOLS[name].json_schema()["properties"]) | {"breakdown"}


def test_a_fake_agent_tool_call_runs_through_the_matching_tool(lc_tools):
    model = ToolCallingFakeModel(responses=[
        _scripted_call("inference_memory", {"model": "llama-3-8b", "precision": "bf16"}),
    ])
    agent = model.bind_tools(list(lc_tools.values()))
    assert [t.name for t in model.bound] == list(lc_tools)

    reply = agent.invoke([HumanMessage("How much memory does Llama 3 8B need in BF16?")])
    assert isinstance(reply, AIMessage)
    assert len(reply.tool_calls) == 1
    call = reply.tool_calls[0]
    assert call["name"] == "inference_memory" and call["id"] == "call_1"

    result = lc_tools[call["name"]].invoke(call["args"])
    assert isinstance(result, dict)
    assert result["weights_bytes"] == pytest.approx(LLAMA_3_8B_PARAMS * 2, rel=1e-3)
    assert result["total_bytes"] > result["weights_bytes"]
    json.dumps(result)  # JSON-ready, as an agent sends it back to the model


def test_invoking_with_the_tool_call_itself_returns_a_tool_message(lc_tools):
    args = {"model": "llama-3-8b", "precision": "bf16"}
    call = _scripted_call("inference_memory", args, "call_7").tool_calls[0]
    message = lc_tools["inference_memory"].invoke(call)
    assert isinstance(message, ToolMessage)
    assert message.tool_call_id == "call_7"
    assert message.name == "inference_memory"
    assert "weights_bytes" in str(message.content)


def test_the_same_figures_as_calling_the_registry_directly(lc_tools):
    args = {"model": "llama-3-8b", "precision": "int8", "context": 8192, "batch": 4}
    through_langchain = lc_tools["inference_memory"].invoke(args)
    direct = TOOLS["inference_memory"].run(args).model_dump(mode="json")
    assert through_langchain == {k: v for k, v in direct.items() if k != "terms"}
    assert lc_tools["inference_memory"].invoke({**args, "breakdown": True})["terms"] == direct["terms"]
    # 8-bit weights (embeddings and head may stay in 16 bits): between 1 and 2 bytes per parameter
    assert LLAMA_3_8B_PARAMS <= through_langchain["weights_bytes"] < 2 * LLAMA_3_8B_PARAMS


def test_bad_arguments_are_rejected_before_the_tool_runs(lc_tools):
    with pytest.raises(Exception) as info:
        lc_tools["inference_memory"].invoke({"model": "llama-3-8b", "precision": "bf16", "batch": -1})
    assert "batch" in str(info.value)


def test_results_put_the_figures_first_and_cut_a_recommendation_to_its_top_options(lc_tools):
    result = lc_tools["recommend"].invoke({"model": "llama-3.3-70b", "phase": "serve", "users": 20})
    keys = list(result)
    assert keys.index("action") < keys.index("options") and keys.index("model_id") < keys.index("best")
    assert len(result["options"]) == 5 < result["options_considered"]
    assert "workload" not in result and "terms" not in result
    assert len(json.dumps(result)) < 7500  # the whole ranking with every term was about 20 KB (the rent unit adds ~200
    # bytes; the machine a rent-or-buy weighs, cut to its key fields, and a vision model's fields ~400)


def test_a_bad_call_comes_back_as_the_tool_answer_and_the_agent_goes_on(lc_tools):
    """A tool-calling agent loop (a scripted model; each tool call invoked as agents do) makes a bad
    call, reads the error, and corrects itself: the run does not end on the unknown model."""
    model = ToolCallingFakeModel(responses=[
        _scripted_call("inference_memory", {"model": "llama-9-8b", "precision": "bf16"}, "bad"),
        _scripted_call("inference_memory", {"model": "llama-3-8b", "precision": "bf16"}, "good"),
        AIMessage(content="Llama 3 8B needs about 16 GB of weights in BF16."),
    ])
    agent = model.bind_tools(list(lc_tools.values()))
    messages: list[Any] = [HumanMessage("How much memory does Llama 3 8B need in BF16?")]
    for _ in range(3):
        reply = agent.invoke(messages)
        messages.append(reply)
        if not reply.tool_calls:
            break
        messages += [lc_tools[call["name"]].invoke(call) for call in reply.tool_calls]
    tool_messages = [m for m in messages if isinstance(m, ToolMessage)]
    assert [m.tool_call_id for m in tool_messages] == ["bad", "good"]
    assert "unknown model" in str(tool_messages[0].content)
    assert "weights_bytes" in str(tool_messages[1].content)
    assert messages[-1].content.startswith("Llama 3 8B needs")
