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


class PortInUse(Exception):
    """The port is taken: the command says so in one line and exits 2; it never moves to another."""


def app_command(db: str | None) -> str:
    """The shell command textual-serve runs for each browser tab: this module, run as the app."""
    return shlex.join([sys.executable, "-m", __name__, *(["--db", db] if db else [])])


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


def _server(host: str, port: int, db: str | None, tabs: set[Any]) -> Any:
    """A textual-serve Server that answers only requests addressed to it, builds the page's URLs from
    the address the browser used, and prints one line when it starts instead of its banner."""
    import asyncio

    import aiohttp_jinja2
    from aiohttp import web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    class AdvisorServer(Server):
        def initialize_logging(self) -> None:  # textual-serve's per-request log lines are not wanted
            pass

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
            width, height = (to_int(request.query.get(k, str(d)), d) for k, d in (("width", 80), ("height", 24)))
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
