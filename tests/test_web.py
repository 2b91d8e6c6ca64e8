"""`gpu-advisor web`: the app served in a browser by textual-serve.

No browser runs here (the machine has no chromium): the end-to-end test speaks textual-serve's
websocket protocol as its page's JavaScript does (["resize", {width, height}], ["stdin", keys]; the
app's screen comes back as terminal output in binary messages) with aiohttp's client, against a real
`gpu-advisor web` in a subprocess. The rest checks the command without starting a server.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_advisor.tui.cli import main
from gpu_advisor.tui.web import allowed, app_command, same_origin

QUESTION = "serve llama 3 8b to 5 users around the clock"
ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>])")
DEADLINE_S = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
            "GPU_ADVISOR_DB": str(tmp_path / "history.db"), "GPU_ADVISOR_CONFIG": str(tmp_path / "settings.toml")}


async def _talk(port: int) -> str:
    """Opens the page and the app's websocket as the page does, types the question, and returns the
    screen text read until the answer's "tokens/s" appears (or the deadline passes)."""
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/") as page:
            assert page.status == 200
            html = await page.text()
        assert "GPU Advisor" in html and f"ws://127.0.0.1:{port}/ws" in html
        async with http.ws_connect(f"{base}/ws?width=120&height=40", origin=base) as ws:
            await ws.send_json(["resize", {"width": 120, "height": 40}])
            screen, typed = "", False
            async with asyncio.timeout(DEADLINE_S):
                async for message in ws:
                    if message.type != aiohttp.WSMsgType.BINARY:
                        continue
                    screen += ESCAPES.sub("", message.data.decode("utf-8", "replace"))
                    if not typed and "GPU Advisor" in screen:  # the app is up: type as a user would
                        await ws.send_json(["stdin", QUESTION])
                        await ws.send_json(["stdin", "\r"])
                        typed = True
                    if typed and "tokens/s" in screen:
                        break
            return screen


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux's /proc; none found elsewhere)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return found


async def _stop_with_a_tab_open(server: subprocess.Popen, port: int) -> list[int]:
    """Ctrl+C while a tab is open: returns the tab's app processes seen before the stop."""
    import aiohttp

    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{base}/ws", origin=base) as ws:
        screen = ""
        async with asyncio.timeout(DEADLINE_S):
            async for message in ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    screen += ESCAPES.sub("", message.data.decode("utf-8", "replace"))
                    if "GPU Advisor" in screen:
                        break
            apps = _children(server.pid)
            server.send_signal(signal.SIGINT)
            async for message in ws:  # the server closes the tab
                assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT)
        assert ws.closed
    return apps


@pytest.mark.slow
def test_the_app_answers_in_a_browser_session(tmp_path):
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "gpu_advisor.tui.cli", "web", "--port", str(port)], env=_env(tmp_path),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stderr.readline()  # printed once the socket listens: no polling, no sleeping
        assert first.strip() == f"gpu-advisor: the app is at http://127.0.0.1:{port}/ (Ctrl+C stops the server)"
        screen = asyncio.run(_talk(port))
        assert "tokens/s" in screen and "Llama 3 8B" in screen
        # a second server on the same port: one line, exit 2, no traceback, no other port
        taken = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "web", "--port", str(port)], env=_env(tmp_path),
                               capture_output=True, text=True, timeout=60)
        assert taken.returncode == 2
        assert taken.stderr == f"gpu-advisor: port {port} on 127.0.0.1 is in use; choose another with --port\n"
        apps = asyncio.run(_stop_with_a_tab_open(server, port))  # Ctrl+C with a tab open: a clean stop
        _out, err = server.communicate(timeout=30)
        assert server.returncode == 0
        assert "Traceback" not in err and err.strip().endswith("gpu-advisor: the web server stopped.")
        assert apps or not Path("/proc").exists()
        assert all(not Path(f"/proc/{pid}").exists() for pid in apps)  # no tab's app left running
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()


def test_the_page_and_websocket_answer_only_requests_addressed_to_this_server():
    # bound to loopback: a Host naming another machine is refused (DNS rebinding)
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"):
        assert allowed("127.0.0.1", {"Host": host}, websocket=False)
    for host in ("evil.example:8000", "192.168.1.5:8000", ""):
        assert not allowed("127.0.0.1", {"Host": host}, websocket=False)
    # the websocket only from the page this server served: another site's page cannot drive the app
    assert allowed("127.0.0.1", {"Host": "localhost:8000", "Origin": "http://localhost:8000"}, websocket=True)
    for origin in ("http://evil.example", "http://localhost:9000", "null", None):
        headers = {"Host": "localhost:8000", **({"Origin": origin} if origin else {})}
        assert not allowed("127.0.0.1", headers, websocket=True)
    # served on the network: any Host, but still the same origin for the websocket
    assert allowed("0.0.0.0", {"Host": "box.lan:8000"}, websocket=False)
    assert allowed("0.0.0.0", {"Host": "box.lan:8000", "Origin": "http://box.lan:8000"}, websocket=True)
    assert not allowed("0.0.0.0", {"Host": "box.lan:8000", "Origin": "http://evil.example"}, websocket=True)
    assert same_origin("https://BOX.lan:8443/", "box.lan:8443")


def test_each_tab_runs_the_app_with_the_servers_database():
    assert app_command(None).endswith("-m gpu_advisor.tui.web")
    assert app_command("/tmp/my history.db").endswith("-m gpu_advisor.tui.web --db '/tmp/my history.db'")


@pytest.mark.parametrize(("argv", "expected"), [
    (["web", "--port", "0"], "0 is not a port number (1 to 65535)"),
    (["web", "--port", "70000"], "70000 is not a port number (1 to 65535)"),
    (["web", "--port", "http"], "expected a port number (1 to 65535), got 'http'"),
    (["web", "--host", " "], "--host needs an address to listen on"),
])
def test_bad_addresses_are_one_line_and_exit_2(argv, expected, capsys):
    code = None
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_file_that_is_not_a_history_database_is_refused_before_serving(tmp_path, capsys):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    assert main(["web", "--db", str(notes)]) == 2
    assert "is not a GPU Advisor history database" in capsys.readouterr().err
    assert notes.read_text() == "my notes"


def test_off_loopback_warns_once(monkeypatch, capsys):
    import gpu_advisor.tui.web  # noqa: F401 - loads tui.web, read through tui below
    from gpu_advisor import tui

    served = []
    monkeypatch.setattr(tui.web, "serve", lambda host, port, db: served.append((host, port, db)) or 0)
    assert main(["web", "--host", "0.0.0.0", "--port", "8123"]) == 0
    assert served == [("0.0.0.0", 8123, None)]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "warning: listening on 0.0.0.0" in err and "saved sessions" in err
    assert main(["web"]) == 0
    assert served[-1] == ("127.0.0.1", 8000, None) and capsys.readouterr().err == ""


def test_help_shows_examples_and_the_command_is_listed_and_completed(capsys):
    from gpu_advisor.tui.cli import build_parser, subcommands
    from gpu_advisor.tui.completion import script

    commands = dict(subcommands(build_parser()))
    assert "web" in commands
    help_text = " ".join(commands["web"].format_help().split())
    assert "examples:" in help_text and "gpu-advisor web --port 8080" in help_text
    assert "(default: 127.0.0.1)" in help_text and "(default: 8000)" in help_text
    for shell in ("bash", "fish"):
        assert "web" in script(shell, commands)
    assert '"web") echo "--help --host --port --db";;' in script("bash", commands)


def test_other_commands_do_not_load_textual_serve():
    code = ("import sys; from gpu_advisor.tui.cli import build_parser; build_parser(); "
            "print(any(m.split('.')[0] in ('textual_serve', 'aiohttp') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)})
    assert done.stdout.strip() == "False", done.stderr
