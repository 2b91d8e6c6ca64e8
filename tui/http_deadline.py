"""A deadline for a request's headers on the HTTP servers (`gpu-advisor serve`, `gpu-advisor mcp --http`).

uvicorn times out an idle keep-alive connection, and the apps time out a slow body (BODY_TIMEOUT_S), but a
connection whose request line and headers never finish arriving was held forever: a client that sends
"POST / HTTP/1.1\\r\\nHost: x\\r\\n" and then nothing kept its socket (and a file descriptor) for as long as it
liked. Here every request's headers must be complete within HEADER_TIMEOUT_S of its first byte (or of the
connection, for the first request); otherwise the connection is answered 408 with the servers' JSON error
shape and closed. The protocol class wraps whichever uvicorn picks (httptools, else h11)."""

from __future__ import annotations

import json
from typing import Any

HEADER_TIMEOUT_S = 10.0  # a request line and its headers are a few hundred bytes: seconds are plenty


def _late_answer() -> bytes:
    body = json.dumps({"error": {
        "message": f"the request's headers did not arrive within {HEADER_TIMEOUT_S:g} s",
        "type": "invalid_request_error", "param": None, "code": "request_timeout"}}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)


def with_header_deadline(base: type) -> type:
    """`base` (a uvicorn HTTP protocol class) with the header deadline."""

    class HeaderDeadline(base):
        _header_timer: Any = None
        _timed_cycle: Any = None  # the request before the one whose headers the timer waits for (None: none)

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            idle = self.cycle is None or self.cycle.response_complete
            if idle and (self._header_timer is None or self._timed_cycle is not self.cycle):
                self._arm()  # the first bytes of the next request on a kept-alive connection
            super().data_received(data)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._timed_cycle = self.cycle
            self._header_timer = self.loop.call_later(HEADER_TIMEOUT_S, self._headers_late, self.cycle)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self, cycle_before: Any) -> None:
            self._header_timer = None
            if self.cycle is not cycle_before or self.transport.is_closing():
                return  # the headers came in time: a new request is running (or done)
            self.transport.write(_late_answer())
            self.transport.close()

    HeaderDeadline.__name__ = f"HeaderDeadline{base.__name__}"
    return HeaderDeadline


def protocol() -> type:
    """The HTTP protocol class for uvicorn.Config(http=...): uvicorn's own choice, with the header deadline."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    return with_header_deadline(AutoHTTPProtocol)
