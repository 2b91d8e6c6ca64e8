"""Issue 26's fresh attack (attack K), each failure kept as a test: a damaged log found again after a
process died with the database open, a recovery of a damaged log killed at any step, lock files that
are FIFOs or folders, crafted knowledge-cache files, and an export aimed at the session-claim file.
Kills are real: a forked child ends with os._exit at a chosen step (no `finally` runs, as with kill -9)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from forked import in_child
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gpu_advisor.assistant.history.store as store_module
from gpu_advisor.assistant.history import HistoryError, HistoryStore

ROOT = Path(__file__).resolve().parent.parent
POSIX = pytest.mark.skipif(os.name != "posix", reason="fork, FIFOs and kill -9")


def _wal_damaged(path: Path, sessions: int, reader_died: bool) -> set[str]:
    """A history whose last sessions are committed only in its write-ahead log (the writer was killed),
    with one early frame of the log damaged; when `reader_died`, a process that opened the file died
    after it (its index is then rebuilt from the log, only up to the damaged frame). Returns its texts."""
    store = HistoryStore(path)
    sid = store.create_session("checkpointed")
    store.add_message(sid, "user", "in the database file")
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    texts = {"in the database file"} | {f"wal message {i}" for i in range(sessions)}

    def write_and_die() -> None:
        writer = HistoryStore(path)
        writer.conn.execute("PRAGMA wal_autocheckpoint = 0")
        for i in range(sessions):
            new = writer.create_session(f"WALSESSION {i}")
            writer.add_message(new, "user", f"wal message {i} " + "x" * 3000)
        os._exit(0)

    assert in_child(write_and_die) == 0
    wal = Path(f"{path}-wal")
    with wal.open("r+b") as f:  # the second frame's page (the attack's bytes 5000-7000)
        f.seek(5000)
        f.write(b"\xff" * 2000)

    def read_and_die() -> None:
        conn = sqlite3.connect(path)
        conn.execute("SELECT count(*) FROM sessions").fetchone()
        os._exit(0)

    if reader_died:
        assert in_child(read_and_die) == 0
    return texts


def _texts(path: Path) -> set[str]:
    store = HistoryStore(path)
    try:
        return {r[0].split(" x")[0] for r in store.conn.execute("SELECT text FROM messages")}
    finally:
        store.close()


# -- 1. a damaged log is found again after a process that had the database open died


@POSIX
@pytest.mark.parametrize("reader_died", [True, False])
@pytest.mark.parametrize("sessions", [3, 5])
def test_a_damaged_log_is_recovered_after_a_process_with_the_file_open_died(tmp_path, reader_died, sessions):
    path = tmp_path / "history.db"
    texts = _wal_damaged(path, sessions, reader_died)
    store = HistoryStore(path)
    try:
        assert store.notice and "write-ahead log was damaged" in store.notice
        assert str(tmp_path / "history.db.damaged-1") in store.notice
        titles = {row.title for row in store.list_sessions()}
        assert {f"WALSESSION {i}" for i in range(sessions)} <= titles
    finally:
        store.close()
    assert (tmp_path / "history.db.damaged-1").is_file() and (tmp_path / "history.db.damaged-1-wal").is_file()
    assert _texts(path) == texts


# -- 2. a recovery of a damaged log killed at any step loses nothing and is finished or redone

WAL_STEPS = ("writing-shm", "writing-wal", "writing db", "kept copy", "copied sessions", "copied messages",
             "copied tool_calls", "built", "renamed")


def _open_killed_at(path: Path, step: str, nth: int = 1) -> int:
    seen = [0]

    def kill(name: str) -> None:
        if name == step:
            seen[0] += 1
            if seen[0] == nth:
                os._exit(9)

    def work() -> None:
        store_module._kill_point = kill
        HistoryStore(path).close()

    return in_child(work)


@POSIX
@pytest.mark.parametrize("step", WAL_STEPS)
def test_a_log_recovery_killed_at_any_step_loses_nothing(tmp_path, step):
    path = tmp_path / "history.db"
    texts = _wal_damaged(path, 4, reader_died=False)
    assert _open_killed_at(path, step) == 9, "the recovery never reached the step"
    store = HistoryStore(path)  # the next start: recovered again, or the swap finished
    told = f"{store.notice} {store.reminder}"
    store.close()
    assert str(tmp_path / "history.db.damaged-1") in told
    assert _texts(path) == texts
    assert not [p.name for p in tmp_path.iterdir() if ".part" in p.name or p.name.endswith(".new")]
    kept = {p.name for p in tmp_path.glob("history.db.damaged-*")}
    assert "history.db.damaged-1" in kept and kept <= {
        "history.db.damaged-1", "history.db.damaged-1-wal", "history.db.damaged-1-shm"}
    again = HistoryStore(path)  # and every start after it names the copy until it is deleted
    assert again.notice is None and str(tmp_path / "history.db.damaged-1") in (again.reminder or "")
    again.close()


@POSIX
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(step=st.sampled_from(WAL_STEPS), nth=st.integers(1, 2), sessions=st.integers(2, 5),
       reader_died=st.booleans(), again=st.booleans())
def test_property_every_message_survives_a_kill_anywhere_in_a_log_recovery(tmp_path_factory, step, nth, sessions,
                                                                           reader_died, again):
    path = tmp_path_factory.mktemp("walkill") / "history.db"
    texts = _wal_damaged(path, sessions, reader_died)
    _open_killed_at(path, step, nth)
    if again:  # killed twice in a row
        _open_killed_at(path, step, nth)
    assert _texts(path) == texts


# -- 3 and 5. lock files that are not regular files, and an export aimed at the session claims


def _not_a_file(where: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(where)
    elif kind == "folder":
        where.mkdir()
    else:
        where.symlink_to("/dev/zero")


@POSIX
@pytest.mark.parametrize("kind", ["fifo", "folder", "devzero"])
def test_a_lock_file_that_is_not_a_file_is_one_line_not_a_hang(tmp_path, kind):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    store.add_message(store.create_session("kept"), "user", "hello")
    store.close()
    lock = Path(f"{path}.lock")
    lock.unlink()
    _not_a_file(lock, kind)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "sessions", "list", "--db", str(path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=90)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "not a regular file" in lines[0] and str(lock) in lines[0]
    assert "Traceback" not in done.stderr


@POSIX
@pytest.mark.parametrize("kind", ["fifo", "folder", "devzero"])
def test_a_session_claim_file_that_is_not_a_file_never_switches_the_guard_off(tmp_path, kind):
    path = tmp_path / "history.db"

    def make() -> None:  # (in another process: this one keeps no claim file open)
        made = HistoryStore(path)
        (tmp_path / "sid").write_text(made.create_session("held"))
        made.close()

    assert in_child(make) == 0
    claims = Path(f"{path}.sessions.lock")
    claims.unlink(missing_ok=True)
    _not_a_file(claims, kind)
    store = HistoryStore(path)
    with pytest.raises(HistoryError, match="not a regular file"):
        store.claim((tmp_path / "sid").read_text())
    store.close()


@POSIX
@pytest.mark.parametrize("side", [".sessions.lock", ".lock", ".check"])
def test_an_export_never_replaces_the_session_claims_or_lock_files(tmp_path, side):
    path = tmp_path / "history.db"
    store = HistoryStore(path)
    sid = store.create_session("held")
    store.add_message(sid, "user", "hello")
    store.claim(sid)
    target = Path(f"{path}{side}")
    target.touch()
    before = os.stat(target)
    with pytest.raises(HistoryError, match="never replaces"):
        store.export_to(sid, target, overwrite=True)
    after = os.stat(target)
    assert (after.st_ino, after.st_size) == (before.st_ino, before.st_size)
    store.close()


# -- 4. the knowledge cache: crafted files are ignored with one line, the shipped data is used

def _cache_file(cache: Path, stem: str) -> Path:
    import hashlib

    from gpu_advisor.knowledge.loader import DATA_DIR

    raw = (DATA_DIR / f"{stem}.yaml").read_bytes()
    return cache / f"{stem}-{hashlib.sha256(raw).hexdigest()[:16]}.json"


def _craft(target: Path, kind: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "devzero":
        target.symlink_to("/dev/zero")
    elif kind == "folder":
        target.mkdir()
    elif kind == "deep":
        target.write_text("[" * 100_000 + "]" * 100_000)
    elif kind == "huge":
        target.write_bytes(b" " * (40 << 20))
    elif kind == "negative":
        import yaml

        from gpu_advisor.knowledge.loader import DATA_DIR

        records = yaml.safe_load((DATA_DIR / "prices.yaml").read_text())
        records[0]["price_low"] = -1
        target.write_text(json.dumps(records, default=str))
    elif kind == "not json":
        target.write_bytes(b"\xff\xfe not json")


@POSIX
@pytest.mark.parametrize("kind", ["fifo", "devzero", "folder", "deep", "huge", "negative", "not json"])
def test_a_crafted_knowledge_cache_file_is_ignored_with_one_line(tmp_path, monkeypatch, capsys, kind):
    from gpu_advisor.knowledge import loader
    from gpu_advisor.knowledge.schema import RentalPrice

    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    shipped = loader.load_records(loader.DATA_DIR / "prices.yaml", RentalPrice)  # (fills the cache)
    capsys.readouterr()
    cached = _cache_file(tmp_path / "cache", "prices")
    _craft(cached, kind)
    got = loader.load_records(loader.DATA_DIR / "prices.yaml", RentalPrice)
    assert [p.model_dump() for p in got] == [p.model_dump() for p in shipped]
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and str(cached) in err[0] and "shipped data" in err[0], err
    if kind != "folder":  # a bad file (or link) is replaced by a good cache: the next start is quiet
        loader.load_records(loader.DATA_DIR / "prices.yaml", RentalPrice)
        assert capsys.readouterr().err == ""


@POSIX
def test_a_cached_negative_price_never_blames_the_shipped_file(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPU_ADVISOR_CACHE_DIR": str(tmp_path / "cache")}
    cli = [sys.executable, "-m", "gpu_advisor.tui.cli", "cost", "--gpu", "h100", "--hours", "10", "--json"]
    assert subprocess.run(cli, cwd=ROOT, env=env, capture_output=True, timeout=120).returncode == 0
    cached = _cache_file(tmp_path / "cache", "prices")
    _craft(cached, "negative")
    done = subprocess.run(cli, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "prices.yaml" not in done.stderr and str(cached) in done.stderr
    json.loads(done.stdout)


def test_copies_of_a_damaged_log_are_made_once(tmp_path):
    """Killed after the copy, the next start reuses the same copy: no damaged-2 with the same bytes."""
    path = tmp_path / "history.db"
    _wal_damaged(path, 2, reader_died=True)
    assert _open_killed_at(path, "built") == 9
    assert _open_killed_at(path, "kept copy") == 9
    HistoryStore(path).close()
    assert not (tmp_path / "history.db.damaged-2").exists()
    shutil.rmtree(tmp_path)


# -- 6. mcp --http: clients initializing at the same time (all with id 0) each get their own session

INIT = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "c", "version": "0"}}})
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def test_concurrent_mcp_http_clients_each_get_a_session():
    import http.client
    import threading

    from asgi_server import serving

    from gpu_advisor.tui.mcp_server import http_app

    results: list[tuple[int, str | None]] = []
    barrier = threading.Barrier(12)

    def one(port: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        barrier.wait()
        conn.request("POST", "/mcp", body=INIT, headers=HEADERS)
        answer = conn.getresponse()
        answer.read()
        results.append((answer.status, answer.getheader("mcp-session-id")))

    with serving(http_app()) as port:
        threads = [threading.Thread(target=one, args=(port,)) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=90)
        again = []
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for _ in range(5):  # one client initializing again and again, each answered before the next
            conn.request("POST", "/mcp", body=INIT, headers=HEADERS)
            answer = conn.getresponse()
            answer.read()
            again.append(answer.status)
    assert [status for status, _ in results] == [200] * 12
    assert len({sid for _, sid in results}) == 12 and None not in {sid for _, sid in results}
    assert again == [200] * 5


# -- 7. serve refuses Origin: null (a sandboxed frame or a file:// page), as mcp --http does

@pytest.mark.parametrize("origin", ["null", "NULL", "http://evil.example"])
def test_serve_refuses_origin_null_like_mcp(origin):
    from starlette.testclient import TestClient

    from gpu_advisor.tui.openai_api import create_app

    body = json.dumps({"model": "gpu-advisor", "messages": [{"role": "user", "content": "hi"}]})
    with TestClient(create_app(), base_url="http://127.0.0.1:8000") as client:
        refused = client.post("/v1/chat/completions", content=body,
                              headers={"Origin": origin, "Content-Type": "text/plain"})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden_host"
        assert client.get("/health").status_code == 200  # (no Origin: a local client still works)


# -- 8. a blank or padded API key, a port in use: one line, exit 2

def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", *args], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          capture_output=True, text=True, timeout=90)


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--http", "18999"]])
@pytest.mark.parametrize("key", [" ", " key", "key  ", "\t"])
def test_a_blank_or_padded_api_key_is_refused_in_one_line(command, key):
    done = _cli(*command, "--host", "0.0.0.0", "--api-key", key)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "blank or has spaces" in lines[0]


@pytest.mark.parametrize("command", [["serve", "--port"], ["mcp", "--http"]])
def test_a_port_in_use_is_one_line_and_exit_2(command):
    import socket

    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        done = _cli(*command, str(taken.getsockname()[1]))
    finally:
        taken.close()
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "in use" in lines[0], done.stderr
    assert "ERROR" not in done.stderr and "endpoint at" not in done.stderr


@pytest.mark.parametrize("arguments", [{"batch": 10**30}, {"context": 10**30}, {"batch": 10_000_001},
                                       {"batch": 10**30, "context": 10**30}])
@pytest.mark.parametrize("tool", ["inference_memory", "fit"])
def test_mcp_sizing_tools_bound_batch_and_context_like_the_cli(tool, arguments):
    from gpu_advisor.tui.mcp_server import Sessions, call_tool

    result = call_tool(tool, {"model": "llama-3.1-8b", "gpu": "h100", **arguments}, Sessions())
    assert result.is_error and "10000000" in result.content[0].text
    ok = call_tool("inference_memory", {"model": "llama-3.1-8b", "gpu": "h100", "batch": 10_000_000,
                                        "context": 4096}, Sessions())
    assert not ok.is_error


@pytest.mark.parametrize("method", ["full", "lora", "qlora"])
@pytest.mark.parametrize("model", ["llama-3.1-8b", "qwen2.5-14b", "llama-3.1-70b"])
def test_trainable_params_is_a_whole_number_in_json(model, method):
    from gpu_advisor.tools.registry import TOOLS

    result = TOOLS["training_memory"].run({"model": model, "method": method})
    dumped = json.loads(result.model_dump_json())
    assert isinstance(dumped["trainable_params"], int) and dumped["trainable_params"] > 0


def _export(tmp_path: Path, text: str = "hello") -> dict:
    store = HistoryStore(tmp_path / "source.db")
    sid = store.create_session("exported")
    store.add_message(sid, "user", text)
    data = store.export_json(sid)
    store.close()
    return data


@pytest.mark.parametrize("where", ["session", "message"])
@pytest.mark.parametrize("bad", ["not a date", "2026-13-45", "yesterday", "12:00", "2026-02-30T10:00:00"])
def test_an_import_with_a_bad_created_date_is_refused_in_one_line(tmp_path, where, bad):
    data = _export(tmp_path)
    if where == "session":
        data["session"]["created"] = bad
    else:
        data["messages"][0]["created"] = bad
    store = HistoryStore(tmp_path / "target.db")
    with pytest.raises(HistoryError, match="not a date") as raised:
        store.import_json(data)
    assert "\n" not in str(raised.value) and store.count_sessions() == 0
    store.close()


@pytest.mark.parametrize("bom", [True, False])
def test_an_export_saved_with_a_utf8_bom_imports(tmp_path, bom):
    from gpu_advisor.tui.cli.sessions import _read_session_export

    data = _export(tmp_path, "你好 hello")
    file = tmp_path / "export.json"
    file.write_bytes((b"\xef\xbb\xbf" if bom else b"") + json.dumps(data, ensure_ascii=False).encode())
    store = HistoryStore(tmp_path / "target.db")
    sid = store.import_json(_read_session_export(str(file), 1 << 20))
    assert [m["text"] for m in store.messages(sid)] == ["你好 hello"]
    store.close()


@pytest.mark.parametrize("stored, query", [("\x1b[31mred\x1b[0m alert", "red"), ("warn \x1b[1;33mamber\x1b[0m", "amber"),
                                           ("\x1b]0;title\x07 plain words", "plain"), ("\x9b31m深红色\x9b0m", "深红色"),
                                           ("hi \x1b]52;c;ZXZpbA==\x07 \x1b[31mred\x1b[0m", "red")])
@pytest.mark.parametrize("role", ["user", "assistant"])
def test_search_finds_text_stored_with_escape_sequences_around_it(tmp_path, stored, query, role):
    store = HistoryStore(tmp_path / "history.db")
    sid = store.create_session("kept")
    store.add_message(sid, role, stored)
    assert [row.id for row in store.search(query)] == [sid]
    assert store.messages(sid)[0]["text"] == stored  # the original is kept
    store.close()
