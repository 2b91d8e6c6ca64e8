"""Issue 26, security: `gpu-advisor mcp --http` on loopback checks Host and Origin as `serve` does (DNS
rebinding: a web page on another site, its name pointed at 127.0.0.1, must not reach the tools), and
off loopback it needs the key whatever the Host. The same requests go to both servers and get the same
status: one guard, two apps."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}

CASES = [
    ("127.0.0.1:8808", None, 200), ("localhost:8808", None, 200), ("[::1]:8808", None, 200),
    ("localhost:8808", "http://localhost:3000", 200), ("127.0.0.1:8808", "http://127.0.0.1:8808", 200),
    ("evil.example:8808", None, 403), ("rebind.evil.example", None, 403), ("127.0.0.1.evil.example", None, 403),
    ("127.0.0.1:8808@evil.example", None, 403), ("127.0.0.1:8808", "http://evil.example", 403),
    ("127.0.0.1:8808", "https://rebind.evil.example:8808", 403), ("localhost:8808", "null", 403),
]


def _mcp(host: str, origin: str | None, api_key: str | None = None, bind: str = "127.0.0.1") -> int:
    from gpu_advisor.tui.mcp_server import http_app

    headers = {**ACCEPT, "host": host, **({"origin": origin} if origin else {}),
               **({"authorization": f"Bearer {api_key}"} if api_key else {})}
    with TestClient(http_app(host=bind, api_key="k3y" if bind != "127.0.0.1" else None)) as client:
        return client.post("/mcp", json=INIT, headers=headers).status_code


def _serve(host: str, origin: str | None) -> int:
    from gpu_advisor.tui.openai_api import create_app

    headers = {"host": host, **({"origin": origin} if origin else {})}
    with TestClient(create_app(host="127.0.0.1")) as client:
        return client.get("/v1/models", headers=headers).status_code


@pytest.mark.parametrize(("host", "origin", "status"), CASES)
def test_mcp_http_on_loopback_checks_host_and_origin(host, origin, status):
    assert _mcp(host, origin) == status


@pytest.mark.parametrize(("host", "origin", "status"), CASES)
def test_serve_and_mcp_answer_a_request_alike(host, origin, status):
    assert _serve(host, origin) == _mcp(host, origin) == status


@pytest.mark.parametrize("host", ["gpu.example.com", "10.0.0.5:8808", "127.0.0.1:8808"])
def test_mcp_http_off_loopback_takes_any_host_with_the_key_only(host):
    assert _mcp(host, None, bind="0.0.0.0") == 401
    assert _mcp(host, None, api_key="wrong", bind="0.0.0.0") == 401
    assert _mcp(host, None, api_key="k3y", bind="0.0.0.0") == 200
