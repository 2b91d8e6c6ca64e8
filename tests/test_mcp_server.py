"""The MCP server through a real MCP client session (the official SDK's Client): in memory, and over
stdio against `gpu-advisor mcp` started as a subprocess."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _server():
    from tui.mcp_server import build_server

    return build_server()


async def _exercise(client) -> None:
    """What every transport must do: list, a good call, a bad call, the conversation, a catalog."""
    from mcp import MCPError

    from tools.registry import TOOLS

    listed = {t.name: t for t in (await client.list_tools()).tools}
    assert set(listed) == {*TOOLS, "advise"}
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

    resources = {str(r.uri): r for r in (await client.list_resources()).resources}
    assert set(resources) == {"gpu-advisor://catalog/gpus", "gpu-advisor://catalog/models"}
    gpus = json.loads((await client.read_resource("gpu-advisor://catalog/gpus")).contents[0].text)
    assert any(g["id"] == "h100-sxm" for g in gpus) and all("source" in g for g in gpus)
    models = json.loads((await client.read_resource("gpu-advisor://catalog/models")).contents[0].text)
    assert any(m["id"] == "llama-3.1-8b" for m in models)
    with pytest.raises(MCPError, match="unknown resource"):
        await client.read_resource("gpu-advisor://catalog/nothing")


def test_an_in_memory_client_session():
    from mcp import Client

    async def main():
        async with Client(_server()) as client:
            await _exercise(client)

    anyio.run(main)


def test_the_same_conversation_gives_the_same_replies_as_the_engine():
    from assistant.session import Conversation
    from tui.mcp_server import Sessions

    turns = ["fine-tune a 27B model and then let my team chat with it", "qlora", "15 users", "working hours"]
    sessions, conv = Sessions(), Conversation()
    assert [sessions.advise(t, "s")["reply"] for t in turns] == [str(conv.send(t).content) for t in turns]


def test_least_recently_used_sessions_are_dropped():
    from tui.mcp_server import Sessions

    sessions = Sessions(limit=2)
    for sid in ("a", "b", "a", "c"):
        sessions.advise("serve llama 3.1 8b", sid)
    assert list(sessions._conversations) == ["a", "c"]


def test_a_streamable_http_client_session():
    import socket
    import threading

    import uvicorn
    from mcp import Client

    from tui.mcp_server import http_app

    # Bound and listening before the server thread starts: the client's first request waits in the
    # backlog until the server accepts it (no readiness polling).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(http_app(), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()

    async def main():
        with anyio.fail_after(120):
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await _exercise(client)

    try:
        anyio.run(main)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["legacy", "auto"])  # legacy: the initialize handshake desktop clients use
def test_a_stdio_client_session_with_gpu_advisor_mcp(mode):
    from mcp import Client, StdioServerParameters

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "tui.cli", "mcp"], cwd=str(ROOT), env=env)

    async def main():
        with anyio.fail_after(120):
            async with Client(params, mode=mode) as client:
                assert client.server_info.name == "gpu-advisor"
                await _exercise(client)

    anyio.run(main)
