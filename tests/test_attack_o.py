"""The second attack's last findings (issue 26): `config set/unset` keep what the user wrote in settings.toml
(comments, unknown tables, a symbolic link) and never lose a key to a concurrent writer; another application's
SQLite file is left untouched even when SQLite cannot read its header; `chat --resume ""` is refused; MCP over
HTTP answers a request whose id is an object with the protocol's error."""
from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import httpx
import pytest
from asgi_server import serving

from gpu_advisor.assistant.history import HistoryError, HistoryStore
from gpu_advisor.assistant.history.store import APPLICATION_ID
from gpu_advisor.tui import settings
from gpu_advisor.tui.cli.program import main

USER_FILE = """# my settings, kept in a dotfiles repository
region = "china"   # where I rent

[extra]
mine = 1
"""


@pytest.fixture
def settings_file(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "config" / "settings.toml"
    path.parent.mkdir()
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(path))
    return path


# ------------------------------------------------------------------ settings.toml edited, not rewritten

@pytest.mark.parametrize("argv, line", [
    (["config", "set", "currency", "cny"], 'currency = "CNY"'),
    (["config", "set", "theme", "nord"], 'theme = "nord"'),
    (["config", "set", "keys.chat.math", "F5"], '"chat.math" = "f5"'),
    (["config", "set", "region", "eu"], 'region = "eu"'),
])
def test_config_set_keeps_comments_and_unknown_tables(settings_file, capsys, argv, line):
    settings_file.write_text(USER_FILE, encoding="utf-8")
    warned = settings.load(settings_file).problem  # (the unknown table is reported and ignored, never dropped)
    assert warned and "extra" in warned
    assert main(argv) == 0
    text = settings_file.read_text(encoding="utf-8")
    assert "# my settings, kept in a dotfiles repository" in text
    assert "[extra]\nmine = 1" in text
    assert line in text
    assert settings.load(settings_file).problem == warned
    if argv[2] != "region":
        assert 'region = "china"   # where I rent' in text  # the line not set is byte for byte the user's


def test_config_unset_removes_only_its_line(settings_file, capsys):
    settings_file.write_text(USER_FILE + '\n[keys]\n"chat.math" = "f5"\n"chat.copy" = "ctrl+y"\n', encoding="utf-8")
    assert main(["config", "unset", "keys.chat.math"]) == 0
    assert main(["config", "unset", "region"]) == 0
    text = settings_file.read_text(encoding="utf-8")
    assert "chat.math" not in text and "region" not in text
    assert '"chat.copy" = "ctrl+y"' in text and "[extra]\nmine = 1" in text and "# my settings" in text
    assert settings.load(settings_file).region == "global"


def test_a_linked_settings_file_stays_a_link(settings_file, tmp_path, capsys):
    real = tmp_path / "dotfiles" / "gpu-advisor.toml"
    real.parent.mkdir()
    real.write_text(USER_FILE, encoding="utf-8")
    settings_file.symlink_to(real)
    assert main(["config", "set", "currency", "CNY"]) == 0
    assert settings_file.is_symlink() and settings_file.resolve() == real.resolve()
    assert 'currency = "CNY"' in real.read_text(encoding="utf-8") and "# my settings" in real.read_text()
    assert sorted(p.name for p in real.parent.iterdir()) == ["gpu-advisor.toml"]  # no temporary file left


def test_a_settings_file_that_cannot_be_read_is_refused_not_overwritten(settings_file, capsys):
    damaged = 'region = "china"\n[keys\n# half an edit\n'
    settings_file.write_text(damaged, encoding="utf-8")
    assert main(["config", "set", "currency", "CNY"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nothing was changed" in err and "config edit" in err
    assert settings_file.read_text(encoding="utf-8") == damaged


def test_the_app_remembering_its_theme_keeps_the_rest_of_the_file(settings_file):
    settings_file.write_text(USER_FILE, encoding="utf-8")
    current = settings.load(settings_file)
    current.theme = "nord"
    settings.save(current, settings_file)
    text = settings_file.read_text(encoding="utf-8")
    assert 'theme = "nord"' in text and "[extra]\nmine = 1" in text and "# my settings" in text


def test_concurrent_config_set_calls_lose_no_key(settings_file):
    ids = sorted(settings.binding_ids())[:8]
    keys = ["f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12"][:len(ids)]
    barrier = threading.Barrier(len(ids))
    errors: list[BaseException] = []

    def write(binding_id: str, key: str) -> None:
        barrier.wait()
        try:
            settings.set_value(f"keys.{binding_id}", key, settings_file)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=write, args=pair) for pair in zip(ids, keys, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert settings.load(settings_file).keys == dict(zip(ids, keys, strict=True))
    assert [p.name for p in settings_file.parent.iterdir() if p.name.endswith(".part")] == []


# ------------------------------------------------------------------ another application's damaged file

def _foreign(path: Path, create: str = "CREATE TABLE") -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"{create} moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    conn.executemany("INSERT INTO moz_places (url) VALUES (?)", [(f"https://example.org/{i}",) for i in range(50)])
    conn.commit()
    conn.close()


def _poke(path: Path, offset: int, data: bytes) -> None:
    raw = bytearray(path.read_bytes())
    raw[offset:offset + len(data)] = data
    path.write_bytes(bytes(raw))


# (offset, bytes): a header _header_damage names (text encoding 9, page size 1000, schema format 7), and
# ones only SQLite rejects (text encoding 2 in a UTF-8 file, a write version of 3)
HEADER_DAMAGE = [(56, (9).to_bytes(4, "big")), (16, (1000).to_bytes(2, "big")), (44, (7).to_bytes(4, "big")),
                 (56, (2).to_bytes(4, "big")), (18, b"\x03")]


@pytest.mark.parametrize("offset, data", HEADER_DAMAGE)
@pytest.mark.parametrize("app_id", [0, 0x4D4F5A00])
@pytest.mark.parametrize("create", ["CREATE TABLE", "create table", "Create  Table"])  # (kept as typed: attack 3)
def test_another_applications_damaged_file_is_left_untouched(tmp_path, offset, data, app_id, create):
    path = tmp_path / "places.sqlite"
    _foreign(path, create)
    _poke(path, 68, app_id.to_bytes(4, "big"))
    _poke(path, offset, data)
    before = path.read_bytes()
    with pytest.raises(HistoryError, match=r"not a GPU Advisor history|another application"):
        HistoryStore(path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["places.sqlite"]


@pytest.mark.parametrize("offset, data", HEADER_DAMAGE[:3])
@pytest.mark.parametrize("keep_id", [True, False])
def test_a_history_with_a_damaged_header_is_still_recovered(tmp_path, offset, data, keep_id):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("before the damage")
    store.add_message(sid, "user", "an old message")
    store.close()
    for side in ("-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)
    assert int.from_bytes(path.read_bytes()[68:72], "big") == APPLICATION_ID
    if not keep_id:
        _poke(path, 68, bytes(4))  # (a history written before the id was set: known by its tables)
    _poke(path, offset, data)
    store = HistoryStore(path)
    try:
        assert store.notice and "damaged-1" in store.notice
    finally:
        store.close()
    assert (tmp_path / "history.db.damaged-1").is_file()


# ------------------------------------------------------------------ chat --resume ""

@pytest.mark.parametrize("argv, words", [
    (["chat", "--plain", "--resume", ""], "--resume needs a session id"),
    (["chat", "--plain", "--resume", "  "], "--resume needs a session id"),
    (["chat", "--resume", ""], "--resume needs a session id"),
    (["chat", "--plain", "--resume", "01ABC", "--no-save"], "--no-save starts afresh"),
])
def test_chat_resume_needs_an_id(tmp_path, capsys, argv, words):
    assert main([*argv, "--db", str(tmp_path / "h.db")]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1
    assert not (tmp_path / "h.db").exists()


# ------------------------------------------------------------------ MCP over HTTP: odd ids

@pytest.mark.parametrize("rid", [{"a": 1}, [1], 1.5, True, None])
def test_mcp_over_http_answers_an_odd_id_with_invalid_request(rid):
    from gpu_advisor.tui.mcp_server import INVALID_REQUEST, http_app

    with serving(http_app()) as port:
        response = httpx.post(f"http://127.0.0.1:{port}/mcp", timeout=60,
                              headers={"accept": "application/json, text/event-stream"},
                              content=json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/list"}))
    assert response.status_code == 400
    body = response.json()
    assert body["error"]["code"] == INVALID_REQUEST and body["id"] is None


def test_mcp_over_http_passes_ordinary_requests_on_unchanged():
    import anyio

    from gpu_advisor.tui.mcp_server import _answer_odd_ids

    seen: list[bytes] = []

    async def inner(scope, receive, send):
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        seen.append(body)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=_answer_odd_ids(inner))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.post("/mcp", content=b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}')

    response = anyio.run(run)
    assert response.status_code == 200 and seen == [b'{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}']
