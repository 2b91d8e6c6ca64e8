"""`serve` and `mcp` under abuse (issue 26): bodies that are not UTF-8, JSON nested 100k deep, a
5,000-digit number, a 200 MB chunked upload, a stalled upload, a string for `stream`; malformed
JSON-RPC on the MCP stdio transport. Each gets an error in the protocol's own shape, at once."""

from __future__ import annotations

import asyncio
import json

import pytest
from mcp_stdio import INIT, mcp_stdio

import gpu_advisor.tui.openai_api as api

CHAT = {"model": "gpu-advisor", "messages": [{"role": "user", "content": "hi"}]}


async def _call(app, body_chunks, headers=(), receive=None) -> tuple[int, dict, int]:
    """Run one POST /v1/chat/completions through the ASGI app; returns (status, JSON body, chunks read)."""
    chunks = list(body_chunks) if not callable(body_chunks) else None
    consumed = 0

    async def feed():
        nonlocal consumed
        if chunks is None:
            return await body_chunks()
        if consumed < len(chunks):
            consumed += 1
            return {"type": "http.request", "body": chunks[consumed - 1], "more_body": consumed < len(chunks)}
        await asyncio.Event().wait()  # as a server does: the client is still there, waiting for its reply
        return {"type": "http.disconnect"}

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/v1/chat/completions", "raw_path": b"/v1/chat/completions", "query_string": b"",
             "root_path": "", "headers": [(b"host", b"127.0.0.1:8000"), *headers], "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 8000)}
    await app(scope, receive or feed, send)
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body), consumed


@pytest.mark.parametrize(("body", "words"), [
    (b"\xff\xfe\x00garbage", "not UTF-8"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"messages": [{"role": "user", "content": "x"}], "n": ' + b"9" * 5000 + b"}", "number too long"),
    (b'{"messages": ', "not JSON"),
    (json.dumps({**CHAT, "stream": "false"}).encode(), "stream"),
    (json.dumps({**CHAT, "stream": 1}).encode(), "stream"),
], ids=["not-utf8", "nested-100k", "5000-digits", "cut-short", "stream-string-false", "stream-number"])
async def test_a_malformed_body_is_a_400_json_error(body, words):
    status, data, _ = await _call(api.create_app(), [body])
    assert status == 400 and words in data["error"]["message"]


async def test_a_huge_chunked_upload_is_refused_while_it_streams():
    chunk = b" " * (1 << 20)
    chunks = [chunk] * 200  # 200 MB, no Content-Length
    status, data, consumed = await _call(api.create_app(), chunks)
    assert status == 413 and data["error"]["code"] == "request_too_large"
    assert consumed <= api.MAX_BODY_BYTES // len(chunk) + 1  # refused as it passed the limit, not at the end


async def test_a_declared_length_over_the_limit_is_refused_before_reading():
    status, _, consumed = await _call(api.create_app(), [b"{}"],
                                      headers=[(b"content-length", str(200 << 20).encode())])
    assert status == 413 and consumed == 0


async def test_a_stalled_upload_is_answered_408(monkeypatch):
    monkeypatch.setattr(api, "BODY_TIMEOUT_S", 0.01)
    never = asyncio.Event()

    async def stalled():
        await never.wait()  # the client sends nothing more, ever

    status, data, _ = await _call(api.create_app(), stalled)
    assert status == 408 and data["error"]["code"] == "request_timeout"


async def test_stream_false_as_a_boolean_is_not_streamed():
    status, data, _ = await _call(api.create_app(), [json.dumps({**CHAT, "stream": False}).encode()])
    assert status == 200 and data["object"] == "chat.completion"


# ---------------------------------------------------------------- MCP over stdio




@pytest.mark.parametrize(("line", "code", "rid"), [
    ("not json at all", -32700, None),
    ('{"jsonrpc": "2.0", "id": 7, "method": ', -32700, None),
    ("[" * 100_000, -32700, None),
    ('{"jsonrpc": "2.0", "id": 7, "method": 5}', -32600, 7),
    ('{"jsonrpc": "1.0", "id": "abc", "method": "ping"}', -32600, "abc"),
    ('{"id": 9}', -32600, 9),
    ("[1, 2]", -32600, None),
    ("\udcff\udcfe", -32700, None),
], ids=["not-json", "cut-short", "nested-100k", "method-number", "version-1", "no-method", "a-list", "bad-bytes"])
async def test_a_malformed_jsonrpc_line_is_answered_with_the_protocols_error(line, code, rid):
    answers = await mcp_stdio([json.dumps(INIT) + "\n", line + "\n",
                                '{"jsonrpc": "2.0", "id": 2, "method": "ping"}\n'])
    errors = [a for a in answers if "error" in a]
    assert [(e["error"]["code"], e["id"]) for e in errors] == [(code, rid)]
    assert {a.get("id") for a in answers if "result" in a} == {1, 2}  # the session goes on
