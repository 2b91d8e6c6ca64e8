"""Issue 26, attack M's failures kept as tests: MCP stdio answers every request read before stdin
closes; a safetensors header that contradicts the config is refused; the history guard follows the
file's identity, not its path; recovery waits for disk space; the damaged-copies notice is bounded; a
typed model size is shown as typed. In process, in the test's temporary folder; no network, no sleeping."""

from __future__ import annotations

import json

import pytest
from mcp_stdio import INIT, mcp_stdio

# ------------------------------------------------------------------ M26: replies queued at EOF


def _call(rid: int, message: str) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                       "params": {"name": "advise", "arguments": {"message": message}}})


@pytest.mark.parametrize("message", ["serve llama 8b to 5 users", "给5个人部署llama 8b"])
async def test_every_request_read_before_stdin_closes_is_answered(message):
    lines = [json.dumps(INIT), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
             json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), _call(3, message),
             json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}), _call(5, message)]
    out = await mcp_stdio(lines)
    answered = sorted(m["id"] for m in out if "id" in m)
    assert answered == [1, 2, 3, 4, 5]
    advice = [m for m in out if m.get("id") in (3, 5)]
    assert all("result" in m and not m["result"].get("isError") for m in advice)
