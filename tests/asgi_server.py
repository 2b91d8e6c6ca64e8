"""An ASGI app served by uvicorn in a thread on a free loopback port, for tests that talk HTTP to it
(tests/test_mcp_server.py, tests/test_attack_o.py). The socket listens before the server thread starts, so the
first request waits in the backlog until the server accepts it (no readiness polling)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def serving(app: Any, http: Any = "auto") -> Iterator[int]:
    """The port `app` answers on, until the block ends (`http`: uvicorn's protocol class or name)."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", http=http))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        sock.close()
