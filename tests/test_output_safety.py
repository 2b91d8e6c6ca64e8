"""Wrong output and security (issue 26): stored terminal control sequences never reach a terminal or
an exported report (the database keeps them); `mcp --http` off loopback needs a key and both servers
check Host and Origin on loopback; tiny values never give Infinity and --json is always valid JSON;
`replay --check` tells an unanswered last message from a regression; a read-only history is listed."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import gpu_advisor.assistant.history.store as store_module
from gpu_advisor.assistant.history import HistoryStore, NotSaved
from gpu_advisor.assistant.terminal import printable

HOSTILE = ["\x1b]52;c;ZWNobyBwd25lZA==\x07", "\x1b]0;owned title\x1b\\", "\x1b[2J\x1b[H", "\x9d0;c1 title\x9c", "a\x07b"]


@pytest.fixture
def hostile_session(tmp_path):
    store = HistoryStore(tmp_path / "history.db")
    sid = store.create_session("title " + HOSTILE[1])
    for h in HOSTILE:
        store.add_message(sid, "user", f"before {h} after")
    yield store, sid
    store.close()


def test_a_markdown_export_holds_no_control_sequences_and_the_database_keeps_them(hostile_session, tmp_path):
    store, sid = hostile_session
    text = store.export_markdown(sid)
    assert "\x1b" not in text and "\x07" not in text and "\x9d" not in text and "\x9c" not in text
    assert "before  after" in text and "# title" in text
    out = store.export_to(sid, tmp_path / "report.md")
    assert not any(c in out.read_text() for c in "\x1b\x07\x9b\x9c\x9d")
    assert [m["text"] for m in store.messages(sid)] == [f"before {h} after" for h in HOSTILE]  # originals kept
    exported = store.export_json(sid)  # the JSON export keeps them, escaped: it is data, and imports back
    assert [m["text"] for m in exported["messages"]] == [f"before {h} after" for h in HOSTILE]
    assert "\x1b" not in store.export_text(sid, "json")


def test_the_cli_export_to_a_file_has_no_control_sequences(hostile_session, tmp_path, capsys):
    from gpu_advisor.tui.cli import main

    store, sid = hostile_session
    assert main(["sessions", "export", sid, "-o", str(tmp_path / "out.md"), "--db", str(store.path)]) == 0
    assert "\x1b" not in (tmp_path / "out.md").read_text()
    for argv in (["sessions", "show", sid], ["sessions", "list"], ["sessions", "search", "before"]):
        assert main([*argv, "--db", str(store.path)]) == 0
        assert "\x1b" not in capsys.readouterr().out


def test_the_app_shows_stored_text_without_control_sequences():
    from gpu_advisor.tui.widgets import ChatMessage

    user = ChatMessage("user", "hi " + "".join(HOSTILE))
    assert user.text == printable(user.text) and "\x1b" not in user.text
    answer = ChatMessage("assistant", "ok", {"gpu_advisor": {"kind": "answer", "notes": [HOSTILE[0]],
                                                             "deep": {"x": HOSTILE[1]}}})
    assert "\x1b" not in json.dumps(answer.payload, ensure_ascii=False)


def test_printable_keeps_words_newlines_and_tabs():
    assert printable("línea 1\n\t第二行 \x1b[31mred\x1b[0m") == "línea 1\n\t第二行 red"


# ---------------------------------------------------------------- the servers: keys, Host, Origin


def _client(app, host="127.0.0.1:8000"):
    from starlette.testclient import TestClient

    return TestClient(app, base_url=f"http://{host}")


def test_mcp_http_off_loopback_needs_a_key(monkeypatch, capsys):
    from gpu_advisor.tui.cli import main

    monkeypatch.delenv("GPU_ADVISOR_API_KEY", raising=False)
    with pytest.raises(SystemExit) as exit_:
        main(["mcp", "--http", "8808", "--host", "0.0.0.0"])
    assert exit_.value.code == 2 and "needs an API key" in capsys.readouterr().err


def test_mcp_http_with_a_key_refuses_requests_without_it():
    from gpu_advisor.tui.mcp_server import http_app

    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"accept": "application/json, text/event-stream"}
    with _client(http_app(host="0.0.0.0", api_key="k3y"), "10.0.0.5:8808") as c:
        refused = c.post("/mcp", json=init, headers=headers)
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_api_key"
        ok = c.post("/mcp", json=init, headers={**headers, "authorization": "Bearer k3y"})
        assert ok.status_code == 200


@pytest.mark.parametrize(("host", "origin", "status"), [
    ("127.0.0.1:8000", None, 200), ("localhost:8000", "http://localhost:3000", 200), ("[::1]:8000", None, 200),
    ("evil.example:8000", None, 403), ("127.0.0.1:8000", "http://evil.example", 403),
    ("127.0.0.1.evil.example", None, 403)])
def test_serve_on_loopback_checks_host_and_origin(host, origin, status):
    from gpu_advisor.tui.openai_api import create_app

    headers = {"host": host, **({"origin": origin} if origin else {})}
    with _client(create_app(host="127.0.0.1")) as c:
        assert c.get("/v1/models", headers=headers).status_code == status


def test_serve_off_loopback_takes_any_host_with_the_key():
    from gpu_advisor.tui.openai_api import create_app

    with _client(create_app(api_key="k", host="0.0.0.0"), "gpu.example.com") as c:
        assert c.get("/v1/models").status_code == 401
        assert c.get("/v1/models", headers={"authorization": "Bearer k"}).status_code == 200


# ---------------------------------------------------------------- finite numbers, valid JSON


@pytest.mark.parametrize("argv", [
    ["cost", "--gpu", "h100", "--tokens-per-s", "1e-320", "--json"],
    ["cost", "--gpu", "h100", "--hours", "5e-324", "--json"],
    ["speed", "-m", "llama-3.1-8b", "--gpu", "h100", "--json", "--batch", "1"],
])
def test_json_output_is_always_valid_json(argv, capsys):
    from gpu_advisor.tui.cli import main

    try:
        status = main(argv)
    except SystemExit as exit_:  # a flag refused by the parser
        status = exit_.code
    out = capsys.readouterr().out
    json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in --json output"))
    assert status in (0, 2)


def test_a_tool_refuses_a_vanishing_amount():
    from pydantic import ValidationError

    from gpu_advisor.tools.cost import CostInput

    with pytest.raises(ValidationError, match="too small to mean anything"):
        CostInput(gpu="h100", tokens_per_s=1e-320)
    assert CostInput(gpu="h100", tokens_per_s=0.5).tokens_per_s == 0.5


def test_mcp_never_shows_infinity():
    from gpu_advisor.tui.mcp_server import Sessions, call_tool

    result = call_tool("cost", {"gpu": "h100", "tokens_per_s": 1e-320}, Sessions())
    text = result.content[0].text
    assert result.is_error and "Infinity" not in text and "too small" in text


# ---------------------------------------------------------------- replay --check


def test_replay_check_reports_an_unanswered_last_message_as_such(tmp_path, capsys):
    from gpu_advisor.tui.cli import main

    store = HistoryStore(tmp_path / "history.db")
    sid = store.create_session("killed mid-turn")
    store.add_message(sid, "user", "serve llama 3 8b to 20 users")  # the reply was never saved
    store.close()
    assert main(["sessions", "replay", sid, "--check", "--db", str(tmp_path / "history.db")]) == 0
    out = capsys.readouterr().out
    assert "never answered" in out and "differ" not in out
    assert main(["sessions", "replay", sid, "--json", "--db", str(tmp_path / "history.db")]) == 0
    [d] = json.loads(capsys.readouterr().out)
    assert d["unanswered"] is True


# ---------------------------------------------------------------- read-only history


def test_a_read_only_history_can_be_listed_and_read(tmp_path, monkeypatch, capsys):
    path = tmp_path / "ro" / "history.db"
    path.parent.mkdir()
    store = HistoryStore(path)
    sid = store.create_session("on a CD")
    store.add_message(sid, "user", "kept safe")
    store.close()
    before = sorted(p.name for p in path.parent.iterdir())
    data = path.read_bytes()
    # access(2) says no on read-only media (even to root, who ignores file modes): that is the check
    monkeypatch.setattr(store_module, "_writable", lambda p: False)
    ro = HistoryStore(path)
    assert ro.read_only and "read-only" in ro.notice
    assert [r.title for r in ro.list_sessions()] == ["on a CD"]
    assert [m["text"] for m in ro.messages(sid)] == ["kept safe"] and [r.id for r in ro.search("safe")] == [sid]
    with pytest.raises(NotSaved, match="read-only"):
        ro.add_message(sid, "user", "no")
    ro.close()
    assert path.read_bytes() == data and sorted(p.name for p in path.parent.iterdir()) == before
    from gpu_advisor.tui.cli import main

    assert main(["sessions", "list", "--db", str(path)]) == 0
    assert "on a CD" in capsys.readouterr().out


def test_a_read_only_copy_of_a_crashed_history_shows_its_logged_messages(tmp_path, monkeypatch):
    work = tmp_path / "work"
    work.mkdir()
    store = HistoryStore(work / "history.db")
    sid = store.create_session("s")
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.add_message(sid, "user", "only in the log")
    target = tmp_path / "ro"
    target.mkdir()
    for side in ("", "-wal", "-shm"):
        shutil.copy2(f"{work / 'history.db'}{side}", target / f"history.db{side}")
    store.close()
    monkeypatch.setattr(store_module, "_writable", lambda p: False)
    ro = HistoryStore(target / "history.db")
    assert [m["text"] for m in ro.messages(sid)] == ["only in the log"]
    ro.close()
    assert os.path.exists(target / "history.db-wal")  # nothing checkpointed or deleted
    assert Path(target / "history.db").stat().st_size > 0
