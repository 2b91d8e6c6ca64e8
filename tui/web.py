"""`gpu-advisor web`: the terminal app in a browser, served by textual-serve.

textual-serve starts one app process per browser tab (`python -m gpu_advisor.tui.web [--db PATH]`, which runs the
app on Textual's web driver) and relays its screen and keys over a websocket. textual-serve and aiohttp
are imported only here, when the command runs, so no other command starts slower.

The app shows the user's saved history, so the server binds 127.0.0.1 unless told otherwise, and
every request must be addressed to this server: bound to a loopback address, the Host header must name
one (no DNS rebinding); the websocket must come from a page this server served (its Origin is the
request's own host), so another web site open in the same browser cannot drive the app.
"""

from __future__ import annotations

import errno
import shlex
import sys
from typing import Any

QUIT_S = 5.0  # how long a tab's app has to quit when its tab closes or the server stops
# The largest screen a tab may ask for, in cells: a 4K monitor at a small font is about 480 x 135. A tab asking
# for more (100000 x 100000 once grew the app past 1.2 GB in seconds) gets this much.
MAX_COLUMNS, MAX_ROWS = 500, 200


class PortInUse(Exception):
    """The port is taken: the command says so in one line and exits 2; it never moves to another."""


def app_command(db: str | None) -> str:
    """The shell command textual-serve runs for each browser tab: this module, run as the app. textual-serve
    starts it through a shell; `exec` makes the app that shell's process, so that ending the tab's process
    ends the app (killing only the shell left the app running, an orphan holding the history open)."""
    return "exec " + shlex.join([sys.executable, "-m", __name__, *(["--db", db] if db else [])])


def screen_size(width: Any, height: Any) -> tuple[int, int] | None:
    """A tab's screen size as the app gets it: whole numbers from 1 up, at most MAX_COLUMNS x MAX_ROWS; None
    for anything that is no size (a string, a float, a bool)."""
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (width, height)):
        return None
    return max(1, min(width, MAX_COLUMNS)), max(1, min(height, MAX_ROWS))


def message(text: str) -> tuple[str, Any] | None:
    """A websocket text frame as textual-serve's page sends it (["stdin", "..."], ["resize", {...}], ["ping", x],
    ["blur"], ["focus"]): its type and data; None for a frame that is none of these (never a traceback)."""
    import json

    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(envelope, list) and envelope and isinstance(envelope[0], str)):
        return None
    data = envelope[1] if len(envelope) > 1 else None
    kind = envelope[0]
    if kind == "stdin":
        return (kind, data) if isinstance(data, str) else None
    if kind == "resize":
        size = screen_size(*(data.get(k) for k in ("width", "height"))) if isinstance(data, dict) else None
        return (kind, size) if size else None
    if kind in ("ping", "blur", "focus"):
        return kind, data
    return None


def same_origin(origin: str | None, host: str) -> bool:
    """A websocket's Origin names the host (and port) the request was sent to: the page was ours."""
    if not origin or "://" not in origin:
        return False
    return origin.split("://", 1)[1].rstrip("/").lower() == host.strip().lower()


def allowed(bound_host: str, headers: Any, websocket: bool) -> bool:
    """Whether a request may reach the app (see the module's docstring)."""
    from gpu_advisor.tui.openai_api import LOOPBACK, _host_name

    host = headers.get("Host", "")
    if bound_host in LOOPBACK and _host_name(host) not in LOOPBACK:
        return False
    return not websocket or same_origin(headers.get("Origin"), host)


async def relay(websocket: Any, app_service: Any) -> None:
    """textual-serve's relay of the page's messages to the tab's app, with each frame checked (see `message`)."""
    from aiohttp import WSMsgType

    async for frame in websocket:
        got = message(frame.data) if frame.type == WSMsgType.TEXT else None
        if got is None:
            continue
        kind, data = got
        if kind == "stdin":
            await app_service.send_bytes(data.encode("utf-8", "replace"))
        elif kind == "resize":
            await app_service.set_terminal_size(*data)
        elif kind == "ping":
            await websocket.send_json(["pong", data])
        elif kind == "blur":
            await app_service.blur()
        elif kind == "focus":
            await app_service.focus()


async def _end(service: Any) -> None:
    """A tab's app told to quit; killed if it has not quit within QUIT_S (never left running)."""
    import asyncio
    import contextlib

    with contextlib.suppress(TimeoutError, asyncio.CancelledError):  # cleaning up, even when cancelled
        await asyncio.wait_for(service.stop(), QUIT_S)
    process = service._process
    if process is not None and process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        with contextlib.suppress(asyncio.CancelledError):
            await process.wait()
    transport = getattr(process, "_transport", None)
    if transport is not None and process.returncode is not None:  # (reaped: close() never polls the child)
        transport.close()  # its pipes closed while the loop runs: never 'Event loop is closed' at exit


def _server(host: str, port: int, db: str | None, tabs: set[Any]) -> Any:
    """A textual-serve Server that answers only requests addressed to it, builds the page's URLs from
    the address the browser used, and prints one line when it starts instead of its banner."""
    import asyncio

    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    @web.middleware
    async def addressed_to_us(request: web.Request, handler: Any) -> Any:
        """Every route (the page, the websocket, /static/, /download/) answers only requests addressed to it."""
        if not allowed(host, request.headers, websocket=False):
            raise web.HTTPForbidden(text="this server answers only requests addressed to it")
        return await handler(request)

    class AdvisorServer(Server):
        def initialize_logging(self) -> None:  # textual-serve's per-request log lines are not wanted
            pass

        async def _make_app(self) -> web.Application:
            app = await super()._make_app()
            app.middlewares.append(addressed_to_us)
            return app

        async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
            await relay(websocket, app_service)

        async def on_startup(self, app: web.Application) -> None:  # said by serve() once listening
            pass

        @aiohttp_jinja2.template("app_index.html")
        async def handle_index(self, request: web.Request) -> dict[str, Any]:
            if not allowed(host, request.headers, websocket=False):
                raise web.HTTPForbidden(text="this server answers only requests addressed to it")
            base = f"{request.scheme}://{request.host}"
            return {"font_size": 16,
                    "app_websocket_url": f"{'wss' if request.scheme == 'https' else 'ws'}://{request.host}/ws",
                    "config": {"static": {"url": f"{base}/static/"}},
                    "application": {"name": self.title}}

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """One tab's app, as textual-serve runs it, but kept in `tabs` so that stopping the server
            ends every open tab's app (told to quit, killed if it has not within QUIT_S)."""
            if not allowed(host, request.headers, websocket=True):
                raise web.HTTPForbidden(text="the app's websocket answers only the page this server served")
            websocket = web.WebSocketResponse(heartbeat=15)
            width, height = screen_size(*(to_int(request.query.get(k, str(d)), d)
                                          for k, d in (("width", 80), ("height", 24)))) or (80, 24)
            await websocket.prepare(request)

            async def close() -> None:  # the app quit (its own Ctrl+Q): the tab is told
                await websocket.close()

            service = AppService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                 close=close, download_manager=self.download_manager)
            tabs.add(websocket)
            try:
                await service.start(width, height)
                await self._process_messages(websocket, service)
            except asyncio.CancelledError:
                pass
            finally:
                tabs.discard(websocket)
                await _end(service)
                await websocket.close()
            return websocket

    return AdvisorServer(app_command(db), host=host, port=port, title="GPU Advisor")


def serve(host: str, port: int, db: str | None) -> int:
    """Serve the app until Ctrl+C (or SIGTERM); a port in use raises PortInUse."""
    import asyncio

    return asyncio.run(_serve(host, port, db))


async def _serve(host: str, port: int, db: str | None) -> int:
    import asyncio
    import signal

    from aiohttp import WSCloseCode, web

    tabs: set[Any] = set()
    server = _server(host, port, db, tabs)
    runner = web.AppRunner(await server._make_app(), access_log=None, handle_signals=False, shutdown_timeout=5)
    await runner.setup()
    try:
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE or "address already in use" in str(exc).lower():
                raise PortInUse(f"port {port} on {host} is in use; choose another with --port") from None
            raise
        shown = f"[{host}]" if ":" in host else host
        print(f"gpu-advisor: the app is at http://{shown}:{port}/ (Ctrl+C stops the server)", file=sys.stderr,
              flush=True)
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stopping.set)
        await stopping.wait()
        # every open tab closed first: its app quits while the server waits for its handler
        await asyncio.gather(*(ws.close(code=WSCloseCode.GOING_AWAY, message=b"the server stopped")
                               for ws in list(tabs)), return_exceptions=True)
    finally:
        await runner.cleanup()  # each open tab's app is told to quit
    print("gpu-advisor: the web server stopped.", file=sys.stderr, flush=True)
    return 0


def main(argv: list[str] | None = None) -> None:
    """One browser tab's app (run by textual-serve on Textual's web driver)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m gpu_advisor.tui.web")
    parser.add_argument("--db", default=None)
    args = parser.parse_args(argv)
    from gpu_advisor.tui.app import run_app

    run_app(db=args.db)


if __name__ == "__main__":
    main()
