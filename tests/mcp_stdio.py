"""Run `gpu-advisor mcp`'s stdio loop in-process over given input lines (tests/test_servers_abuse.py,
tests/test_attack_m.py)."""

from __future__ import annotations

import json

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


async def mcp_stdio(lines: list[str]) -> list[dict]:
    """The JSON-RPC messages the stdio loop writes for these input lines."""
    from gpu_advisor.tui.mcp_server import serve_stdio

    class Stdin:
        def __aiter__(self):
            return self._lines()

        async def _lines(self):
            for line in lines:
                yield line

    written: list[str] = []

    class Stdout:
        async def write(self, text: str) -> None:
            written.append(text)

        async def flush(self) -> None:
            return None

    await serve_stdio(stdin=Stdin(), stdout=Stdout())
    return [json.loads(line) for line in "".join(written).splitlines()]
