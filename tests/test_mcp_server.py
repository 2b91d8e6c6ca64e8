"""The MCP server through a real MCP client session (the official SDK's Client): in memory, and over
stdio against `gpu-advisor mcp` started as a subprocess."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from asgi_server import serving

ROOT = Path(__file__).resolve().parent.parent


def _server():
    from gpu_advisor.tui.mcp_server import build_server

    return build_server()


async def _exercise(client) -> None:
    """What every transport must do: list, a good call, a bad call, the conversation, a catalog."""
    from mcp import MCPError

    from gpu_advisor.tools.registry import TOOLS

    listed = {t.name: t for t in (await client.list_tools()).tools}
    assert set(listed) == {*TOOLS, "advise", "search_catalog"}
    schema = listed["inference_memory"].input_schema
    assert schema["required"] == ["model"] and "breakdown" in schema["properties"]
    assert schema["properties"]["context"] == TOOLS["inference_memory"].json_schema()["properties"]["context"]

    good = await client.call_tool("inference_memory", {"model": "llama-3.1-8b", "precision": "bf16"})
    assert not good.is_error
    data = json.loads(good.content[0].text)
    assert data == good.structured_content
    assert 15e9 < data["weights_bytes"] < 17e9 and "terms" not in data  # figures, no breakdown by default
    assert list(data).index("total_bytes") < list(data).index("assumptions")
    with_terms = await client.call_tool("inference_memory", {"model": "llama-3.1-8b", "breakdown": True})
    assert with_terms.structured_content["terms"]

    bad = await client.call_tool("inference_memory", {"model": "lama-3-8b"})
    assert bad.is_error
    assert bad.content[0].text == ("inference_memory: unknown model 'lama-3-8b'; "
                                   "closest: llama-3-8b, llama-3.1-8b, llama-3.2-3b")
    out_of_range = await client.call_tool("speed", {"model": "llama-3.1-8b", "gpu": "h10", "batch": 0})
    assert out_of_range.is_error and "batch: Input should be greater than 0" in out_of_range.content[0].text
    wrong_gpu = await client.call_tool("speed", {"model": "llama-3.1-8b", "gpu": "h10"})
    assert wrong_gpu.is_error and "closest: h100-sxm" in wrong_gpu.content[0].text
    with pytest.raises(MCPError, match="closest: inference_memory"):
        await client.call_tool("inference_mem", {})

    first = await client.call_tool("advise", {"message": "serve llama 3.1 8b to 20 users"})
    assert not first.is_error
    turn = first.structured_content
    assert turn["kind"] == "question" and turn["slot"] == "utilisation"
    assert first.content[0].text == turn["reply"] and turn["session_id"] in first.content[1].text
    answer = await client.call_tool("advise", {"message": "working hours", "session_id": turn["session_id"]})
    assert answer.structured_content["kind"] == "answer"
    assert answer.content[0].text.startswith("## ")
    other = await client.call_tool("advise", {"message": "working hours"})  # a new session knows nothing yet
    assert other.structured_content["session_id"] != turn["session_id"]
    assert other.structured_content["kind"] != "answer"
    too_long = await client.call_tool("advise", {"message": "x" * 9000})
    assert too_long.is_error and "at most 8,000 characters" in too_long.content[0].text

    await _described_whole_and_one_line(client, listed)
    await _prompts(client)

    resources = {str(r.uri): r for r in (await client.list_resources()).resources}
    assert set(resources) == {"gpu-advisor://catalog/gpus", "gpu-advisor://catalog/models"}
    gpus = json.loads((await client.read_resource("gpu-advisor://catalog/gpus")).contents[0].text)
    assert any(g["id"] == "h100-sxm" for g in gpus) and all("source" in g for g in gpus)
    models = json.loads((await client.read_resource("gpu-advisor://catalog/models")).contents[0].text)
    assert any(m["id"] == "llama-3.1-8b" for m in models)
    with pytest.raises(MCPError, match="unknown resource"):
        await client.read_resource("gpu-advisor://catalog/nothing")


def _undescribed(schema: dict, where: str) -> list[str]:
    """Input properties without a description, in a schema and its $defs."""
    out = [f"{where}.{k}" for k, v in schema.get("properties", {}).items() if not v.get("description")]
    for name, sub in schema.get("$defs", {}).items():
        out += _undescribed(sub, f"{where}/{name}")
    return out


def _byte_values(data, key: str = "") -> list:
    """Every byte count in a result: values of *_bytes keys (ranges too) and byte-unit terms' figures."""
    if isinstance(data, dict):
        own = [data[k] for k in ("value", "low", "high") if data.get("unit") == "bytes" and k in data]
        return own + [x for k, v in data.items() for x in _byte_values(v, k)]
    if isinstance(data, list):
        return [x for v in data for x in _byte_values(v, key)]
    return [data] if key.endswith("_bytes") and data is not None else []


async def _described_whole_and_one_line(client, listed) -> None:
    """Every input described; byte counts whole numbers; every error one line."""
    assert [p for name, t in listed.items() for p in _undescribed(t.input_schema, name)] == []
    for name, args in [("inference_memory", {"model": "qwen3-30b-a3b", "precision": "q4_k_m", "gpu": "rtx-4090",
                                             "breakdown": True}),
                       ("training_memory", {"model": "llama-3.1-8b", "method": "qlora", "breakdown": True}),
                       ("fit", {"model": "llama-3.1-70b", "gpu": "h100-sxm"})]:
        result = await client.call_tool(name, args)
        assert not result.is_error
        counts = _byte_values(result.structured_content)
        assert len(counts) > 5 and all(isinstance(x, int) and not isinstance(x, bool) for x in counts), counts
        assert json.loads(result.content[0].text) == result.structured_content
    for name, args in [("inference_memory", {"model": "lama\n3\r\n8b"}),
                       ("speed", {"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch": 0, "context": -1}),
                       ("cost", {"gpu": "h100-sxm\nx", "gpus": "many"}),
                       ("advise", {"message": 7})]:
        bad = await client.call_tool(name, args)
        assert bad.is_error and len(bad.content) == 1
        text = bad.content[0].text
        assert text.startswith(f"{name}: ") and "\n" not in text and "\r" not in text, text


async def _prompts(client) -> None:
    from mcp import MCPError

    prompts = {p.name: p for p in (await client.list_prompts()).prompts}
    assert set(prompts) == {"size-my-deployment", "plan-a-fine-tune"}
    size = prompts["size-my-deployment"]
    assert size.title == "Size my deployment" and all(a.description for a in size.arguments)
    assert [a.name for a in size.arguments if a.required] == ["model"]
    got = await client.get_prompt("size-my-deployment", {"model": "llama-3.1-70b", "users": "50",
                                                         "hardware": "2x h100-sxm"})
    (message,) = got.messages
    assert message.role == "user"
    assert message.content.text.startswith("Size a deployment that serves llama-3.1-70b to 50 people at the same "
                                           "time on cards I own: 2x h100-sxm. Use the gpu-advisor tools: call "
                                           "`recommend`")
    bare = (await client.get_prompt("size-my-deployment", {"model": "qwen3-32b"})).messages[0].content.text
    assert "ask me how many people use it at the same time first" in bare
    tune = (await client.get_prompt("plan-a-fine-tune", {"model": "qwen3-8b", "method": "lora"})).messages[0]
    assert tune.content.text.startswith("Plan a fine-tune of qwen3-8b with lora. ")
    with pytest.raises(MCPError, match="model is required"):
        await client.get_prompt("size-my-deployment", {})
    with pytest.raises(MCPError, match="unknown argument gpu"):
        await client.get_prompt("size-my-deployment", {"model": "qwen3-32b", "gpu": "h100"})
    with pytest.raises(MCPError, match="unknown prompt"):
        await client.get_prompt("size-it", {})


def test_whole_bytes_rounds_byte_counts_only():
    from gpu_advisor.tui.mcp_server import whole_bytes

    data = {"weights_bytes": 16059999999.999998, "total_range_bytes": [1.5e9, 2.4999e9], "tokens_per_s": 41.5,
            "terms": [{"key": "kv", "unit": "bytes", "value": 3.6, "low": 2.2, "high": 4.5},
                      {"key": "tps", "unit": "tokens/s", "value": 3.6, "low": 2.2, "high": 4.5}],
            "gpu_capacity_bytes": None}
    assert whole_bytes(data) == {"weights_bytes": 16060000000, "total_range_bytes": [1500000000, 2499900000],
                                 "tokens_per_s": 41.5,
                                 "terms": [{"key": "kv", "unit": "bytes", "value": 4, "low": 2, "high": 4},
                                           {"key": "tps", "unit": "tokens/s", "value": 3.6, "low": 2.2, "high": 4.5}],
                                 "gpu_capacity_bytes": None}


def test_an_unexpected_failure_is_one_line_not_a_crash(monkeypatch):
    from gpu_advisor.tools.registry import TOOLS
    from gpu_advisor.tui.mcp_server import Sessions, call_tool

    def broken(arguments):
        raise RuntimeError("disk gone\nsecond line")

    monkeypatch.setattr(type(TOOLS["cost"]), "run", lambda self, arguments: broken(arguments))
    result = call_tool("cost", {"gpu": "h100-sxm"}, Sessions())
    assert result.is_error
    assert result.content[0].text == "cost: failed on these arguments (RuntimeError: disk gone second line)"


def test_an_in_memory_client_session():
    from mcp import Client

    async def main():
        async with Client(_server()) as client:
            await _exercise(client)

    anyio.run(main)


def test_the_same_conversation_gives_the_same_replies_as_the_engine():
    from gpu_advisor.assistant.session import Conversation
    from gpu_advisor.tui.mcp_server import Sessions

    turns = ["fine-tune a 27B model and then let my team chat with it", "qlora", "15 users", "working hours"]
    sessions, conv = Sessions(), Conversation()
    assert [sessions.advise(t, "s")["reply"] for t in turns] == [str(conv.send(t).content) for t in turns]


def test_least_recently_used_sessions_are_dropped():
    from gpu_advisor.tui.mcp_server import Sessions

    sessions = Sessions(limit=2)
    for sid in ("a", "b", "a", "c"):
        sessions.advise("serve llama 3.1 8b", sid)
    assert list(sessions._conversations) == ["a", "c"]


def test_a_streamable_http_client_session():
    from mcp import Client

    from gpu_advisor.tui.mcp_server import http_app

    async def main(port: int):
        with anyio.fail_after(120):
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await _exercise(client)

    with serving(http_app()) as port:
        anyio.run(main, port)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["legacy", "auto"])  # legacy: the initialize handshake desktop clients use
def test_a_stdio_client_session_with_gpu_advisor_mcp(mode):
    from mcp import Client, StdioServerParameters

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "gpu_advisor.tui.cli", "mcp"], cwd=str(ROOT), env=env)

    async def main():
        with anyio.fail_after(120):
            async with Client(params, mode=mode) as client:
                assert client.server_info.name == "gpu-advisor"
                await _exercise(client)

    anyio.run(main)
