"""Issue 26, servers under abuse: a connection whose request headers never finish arriving is no longer held
forever. `gpu-advisor serve` and `gpu-advisor mcp --http` answer it 408 (the JSON error shape) and close it,
whichever HTTP parser uvicorn runs (httptools or h11), on the first request of a connection and on a later
one; a sound request, and a slow body (the apps' own 408), are unchanged. Real sockets to a real uvicorn in a
thread; the deadlines are made short, and every read has a socket timeout far above them."""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

import gpu_advisor.tui.http_deadline as deadline
import gpu_advisor.tui.openai_api as api
from gpu_advisor.tui import mcp_server
from tests import asgi_server

PARSERS = [pytest.param(H11Protocol, id="h11"), pytest.param(HttpToolsProtocol, id="httptools")]
APPS = [pytest.param(lambda: api.create_app(), id="serve"), pytest.param(lambda: mcp_server.http_app(), id="mcp")]
LIMIT_S = 30  # a socket read that waits this long means the server held the connection: the failure


def serving(app: Any, base: type) -> Any:
    """The port `app` answers on behind uvicorn's parser `base` with the header deadline (tests/asgi_server.py)."""
    return asgi_server.serving(app, http=deadline.with_header_deadline(base))


def _read_until_closed(conn: socket.socket) -> bytes:
    got = b""
    while chunk := conn.recv(65536):
        got += chunk
    return got


def _read_one_response(conn: socket.socket) -> bytes:
    """One response with a content-length, read whole; the connection stays open."""
    got = b""
    while b"\r\n\r\n" not in got:
        got += conn.recv(65536)
    head, _, body = got.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    while len(body) < length:
        body += conn.recv(65536)
    return head


def _timed_out(answer: bytes) -> dict:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), answer[:200]
    return json.loads(body)["error"]


@pytest.fixture
def short(monkeypatch):
    monkeypatch.setattr(deadline, "HEADER_TIMEOUT_S", 0.3)


@pytest.mark.parametrize("base", PARSERS)
@pytest.mark.parametrize("make_app", APPS)
@pytest.mark.parametrize("sent", [
    b"",
    b"POST /v1/chat/completions HTTP/1.1\r\n",
    b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n",
    b"GET /health HTT",
], ids=["nothing", "request-line", "headers-unfinished", "line-unfinished"])
def test_headers_that_never_finish_are_answered_408_and_closed(short, base, make_app, sent):
    with serving(make_app(), base) as port, socket.create_connection(("127.0.0.1", port), timeout=LIMIT_S) as conn:
        conn.sendall(sent)
        error = _timed_out(_read_until_closed(conn))
    assert error["code"] == "request_timeout" and "headers" in error["message"]


@pytest.mark.parametrize("base", PARSERS)
@pytest.mark.parametrize("path", ["/health", "/v1/models"])
def test_a_later_request_on_a_kept_connection_has_the_same_deadline(short, base, path):
    with serving(api.create_app(), base) as port, socket.create_connection(("127.0.0.1", port), timeout=LIMIT_S) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        assert _read_one_response(conn).startswith(b"HTTP/1.1 200 ")  # answered, the connection kept
        conn.sendall(b"GET /health HTTP/1.1\r\nHost: 127")
        error = _timed_out(_read_until_closed(conn))
    assert error["code"] == "request_timeout"


@pytest.mark.parametrize("base", PARSERS)
@pytest.mark.parametrize("requests", [1, 3])
def test_sound_requests_are_answered_as_before(short, base, requests):
    with serving(api.create_app(), base) as port, socket.create_connection(("127.0.0.1", port), timeout=LIMIT_S) as conn:
        for _ in range(requests):
            conn.sendall(b"GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert _read_one_response(conn).startswith(b"HTTP/1.1 200 ")


@pytest.mark.parametrize("base", PARSERS)
def test_a_slow_body_after_complete_headers_gets_the_apps_own_408(short, base, monkeypatch):
    monkeypatch.setattr(api, "BODY_TIMEOUT_S", 0.6)  # past the header deadline: that one must not fire
    with serving(api.create_app(), base) as port, socket.create_connection(("127.0.0.1", port), timeout=LIMIT_S) as conn:
        conn.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"messages\": ")
        answer = b""
        while b"}}" not in answer:
            answer += conn.recv(65536)
    error = _timed_out(answer)
    assert error["code"] == "request_timeout" and "request body" in error["message"]


@pytest.mark.parametrize("start", [
    pytest.param(lambda: api.serve("127.0.0.1", 0), id="serve"),
    pytest.param(lambda: mcp_server.main(http_port=0), id="mcp-http"),
])
def test_the_servers_run_with_the_deadline(monkeypatch, capsys, start):
    """Both commands hand uvicorn this protocol (the deadline is not only in tests)."""
    import uvicorn

    used = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: used.append(self.config.http))
    assert start() == 0
    [http] = used
    assert issubclass(http, H11Protocol | HttpToolsProtocol) and http.__name__.startswith("HeaderDeadline")
