"""A fresh attack on "nothing lost, nothing hangs" (issue 26, attack7): each failure it found, kept as a test.

History: an export or backup never lands on a name the store keeps beside its database (a NAME.damaged-N.new there
was swapped in as the history at the next start); a header whose page size is damaged still gives back every row;
a FIFO or folder named like the database's -wal, -shm or -journal is one line, never a wait."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from gpu_advisor.assistant.history import HistoryError, HistoryStore

SIDE_NAMES = ["h.db.damaged-1.new", "h.db.damaged-12.new", "h.db.damaged-1-wal", "h.db.damaged-1-shm",
              "h.db.damaged-3", "h.db-journal", "h.db.check", "h.db.damaged-2.new.part"]


def _history(folder: Path, sessions: int = 3) -> tuple[HistoryStore, list[str]]:
    store = HistoryStore(folder / "h.db")
    ids = []
    for i in range(sessions):
        sid = store.create_session(f"session {i}")
        store.add_message(sid, "user", f"serve llama 3 8b to {i + 2} users")
        store.add_message(sid, "assistant", f"answer {i}")
        ids.append(sid)
    return store, ids


def _message_count(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM messages").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.parametrize("name", SIDE_NAMES)
@pytest.mark.parametrize("how", ["export", "export --force", "backup"])
def test_no_export_or_backup_lands_on_a_name_kept_beside_the_database(tmp_path, name, how):
    store, ids = _history(tmp_path)
    target = tmp_path / name
    with pytest.raises(HistoryError, match="never") as refused:
        if how == "backup":
            store.backup(target)
        else:
            store.export_to(ids[0], target, overwrite=how.endswith("--force"))
    assert "nothing was written" in str(refused.value) and "\n" not in str(refused.value)
    assert not target.exists()
    store.close()
    reopened = HistoryStore(tmp_path / "h.db")  # the next start: the history is still the same one
    assert reopened.count_sessions() == 3 and reopened.notice is None
    reopened.close()


def test_an_export_beside_the_database_under_another_name_is_written(tmp_path):
    store, ids = _history(tmp_path)
    assert store.export_to(ids[0], tmp_path / "h.db.md").read_text(encoding="utf-8").startswith("# session 0")
    assert store.backup(tmp_path / "h.db.bak").is_file()
    assert store.export_to(ids[0], tmp_path / "h.db.damaged.md").is_file()  # not a kept copy's name
    store.close()


def test_a_document_named_like_a_finished_recovery_is_never_swapped_in(tmp_path):
    store, _ids = _history(tmp_path)
    store.close()
    (tmp_path / "h.db.damaged-4.new").write_text("# my notes\n", encoding="utf-8")
    reopened = HistoryStore(tmp_path / "h.db")
    assert reopened.count_sessions() == 3 and reopened.notice is None
    reopened.close()
    assert (tmp_path / "h.db.damaged-4.new").read_text(encoding="utf-8") == "# my notes\n"
    assert not (tmp_path / "h.db.damaged-4").exists()


@pytest.mark.parametrize("page_size_bytes", [b"\x00\x00", b"\x04\x00", b"\x8f\xf7", b"\xff\xff", b"\x02\x00"])
def test_a_damaged_page_size_in_the_header_loses_no_message(tmp_path, page_size_bytes):
    store, _ids = _history(tmp_path, sessions=40)
    store.close()
    db = tmp_path / "h.db"
    with db.open("r+b") as f:
        f.seek(16)
        f.write(page_size_bytes)
    recovered = HistoryStore(db)
    assert recovered.notice is not None and "80 messages in 40 sessions were recovered" in recovered.notice
    assert recovered.count_sessions() == 40
    recovered.close()
    assert _message_count(db) == 80


def test_the_whole_header_zeroed_after_its_magic_loses_no_message(tmp_path):
    store, _ids = _history(tmp_path, sessions=10)
    store.close()
    db = tmp_path / "h.db"
    with db.open("r+b") as f:
        f.seek(16)
        f.write(bytes(84))
    recovered = HistoryStore(db)
    assert "20 messages in 10 sessions were recovered" in (recovered.notice or "")
    recovered.close()


@pytest.mark.parametrize("side", ["-journal", "-wal", "-shm"])
@pytest.mark.parametrize("kind", ["folder", "link to /dev/zero"])  # (a FIFO: below, in a process of its own)
def test_an_odd_file_beside_the_database_is_one_line_not_a_wait(tmp_path, side, kind):
    store, _ids = _history(tmp_path)
    store.close()
    for leftover in ("-wal", "-shm"):
        Path(f"{tmp_path / 'h.db'}{leftover}").unlink(missing_ok=True)
    odd = Path(f"{tmp_path / 'h.db'}{side}")
    if kind == "folder":
        odd.mkdir()
    else:
        odd.symlink_to("/dev/zero")
    with pytest.raises(HistoryError, match=side[1:]) as refused:
        HistoryStore(tmp_path / "h.db")
    assert "nothing was read or changed" in str(refused.value)
    assert _message_count_immutable(tmp_path / "h.db") == 6


def _message_count_immutable(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return conn.execute("SELECT count(*) FROM messages").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.parametrize("side", ["-journal", "-wal", "-shm"])
def test_cli_refuses_a_fifo_beside_the_database_in_one_line_with_status_2(tmp_path, side):
    """(In a process of its own, bounded: SQLite opening a FIFO would wait for ever.)"""
    store, _ids = _history(tmp_path)
    store.close()
    for leftover in ("-wal", "-shm"):
        Path(f"{tmp_path / 'h.db'}{leftover}").unlink(missing_ok=True)
    os.mkfifo(f"{tmp_path / 'h.db'}{side}")
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "sessions", "list", "--db",
                           str(tmp_path / "h.db")], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and f"h.db{side} is not a regular file" in done.stderr
    assert _message_count_immutable(tmp_path / "h.db") == 6


# --- settings.toml: a dotted key of thousands of parts (the TOML reader's time grows with their square)

@pytest.mark.parametrize("text", ["a." * 3000 + "b = 1\n", "[" + "keys." * 2000 + "x]\n", "region = 'eu'\n" + "x" + ".y" * 100 + " = 1\n"])
def test_a_settings_line_of_more_dots_than_any_key_is_refused_before_toml_reads_it(settings_file, text):
    from gpu_advisor.tui import settings as settings_module

    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text(text, encoding="utf-8")
    loaded = settings_module.load(settings_file)
    assert loaded.problem is not None and "dots" in loaded.problem and "using the defaults" in loaded.problem
    assert (loaded.region, loaded.currency) == ("global", "USD")
    with pytest.raises(settings_module.SettingsError, match="dots; no setting"):
        settings_module.set_value("currency", "CNY", settings_file)
    assert settings_file.read_text(encoding="utf-8") == text  # refused, never overwritten


def test_settings_with_dots_in_values_still_read(settings_file):
    from gpu_advisor.tui import settings as settings_module

    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text('currency = "CNY"\n# a comment... with dots... v1.2.3\n', encoding="utf-8")
    loaded = settings_module.load(settings_file)
    assert loaded.problem is None and loaded.currency == "CNY"


@pytest.mark.parametrize("command", [["--version"], ["config", "show"], ["cost", "--gpu", "h100", "--hours", "2"]])
def test_every_command_runs_beside_a_30000_part_dotted_key(tmp_path, command):
    settings = tmp_path / "settings.toml"
    settings.write_text("a." * 30000 + "b = 1\n", encoding="utf-8")  # 60 KB: under the size cap
    env = {**os.environ, "GPU_ADVISOR_CONFIG": str(settings)}
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", *command], capture_output=True, text=True,
                          timeout=120, env=env, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    if command[0] == "config":  # (the sizing commands use the defaults quietly)
        assert "line 1 has 30,000 dots" in done.stderr


# --- the Hugging Face cache: hundreds of links to one crafted safetensors header

def _cached_repo(cache: Path, name: str, headers: list[dict], links: int = 0) -> str:
    import json
    import struct

    root = cache / f"models--atk--{name}"
    snap = root / "snapshots" / ("a" * 40)
    snap.mkdir(parents=True)
    (root / "refs").mkdir()
    (root / "refs" / "main").write_text("a" * 40)
    (root / "blobs").mkdir()
    config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
              "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
              "max_position_embeddings": 8192, "num_hidden_layers": 32, "torch_dtype": "bfloat16"}
    (snap / "config.json").write_text(json.dumps(config))
    for i, header in enumerate(headers):
        raw = json.dumps(header).encode()
        (root / "blobs" / f"b{i}").write_bytes(struct.pack("<Q", len(raw)) + raw)
        (snap / f"model-{i:05d}.safetensors").symlink_to(root / "blobs" / f"b{i}")
    for i in range(links):
        (snap / f"model-link-{i:05d}.safetensors").symlink_to(root / "blobs" / "b0")
    return f"atk/{name}"


def _tensors(count: int, shape: list[int]) -> dict:
    size = 2
    for d in shape:
        size *= d
    return {f"t{i}": {"dtype": "BF16", "shape": shape, "data_offsets": [i * size, (i + 1) * size]} for i in range(count)}


def test_a_blob_linked_many_times_is_read_once(tmp_path, monkeypatch):
    from gpu_advisor.knowledge import hub

    reads = []
    real = hub.safetensors_header
    monkeypatch.setattr(hub, "safetensors_header", lambda path: reads.append(path) or real(path))
    repo = _cached_repo(tmp_path, "manylinks", [_tensors(10, [1000, 1000])], links=300)
    model = hub.from_hf_cache(repo, cache=tmp_path)
    assert len(reads) == 1  # 301 names, one blob
    assert model.params_by_dtype == {"BF16": 10_000_000}  # counted once, not 301 times


def test_headers_past_the_snapshot_bound_fall_back_to_config_json(tmp_path, monkeypatch):
    from gpu_advisor.knowledge import hub

    repo = _cached_repo(tmp_path, "heavy", [_tensors(200, [10, 10]) for _ in range(5)])
    one = hub._header_length(next((tmp_path / "models--atk--heavy" / "snapshots").glob("*/model-00000.safetensors")))
    monkeypatch.setattr(hub, "MAX_SNAPSHOT_HEADER_BYTES", one * 3)  # three of the five headers
    reads = []
    real = hub.safetensors_header
    monkeypatch.setattr(hub, "safetensors_header", lambda path: reads.append(path) or real(path))
    model = hub.from_hf_cache(repo, cache=tmp_path)
    assert len(reads) == 3 and model.params_by_dtype == {} and model.config is not None
    monkeypatch.setattr(hub, "MAX_SNAPSHOT_HEADER_BYTES", one * 5)
    assert hub.from_hf_cache(repo, cache=tmp_path).params_by_dtype == {"BF16": 5 * 200 * 100}


# --- config.json: fields each within bounds that multiply out to 10^20 parameters, or to none

BASE_CONFIG = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
               "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
               "max_position_embeddings": 8192, "num_hidden_layers": 32}


@pytest.mark.parametrize(("fields", "said"), [
    ({"num_local_experts": 65536, "num_experts_per_tok": 65536, "num_hidden_layers": 10000, "hidden_size": 65536,
      "intermediate_size": 1_000_000}, "128,849,169,221B parameters, beyond any model"),
    ({"num_hidden_layers": 10000, "hidden_size": 65536, "intermediate_size": 1_000_000}, "B parameters, beyond any model"),
    ({"num_local_experts": 60000, "num_experts_per_tok": 2, "num_hidden_layers": 5000}, "B parameters, beyond any model"),
    ({"hidden_size": 1, "num_attention_heads": 1, "num_key_value_heads": 1, "intermediate_size": 1, "vocab_size": 1,
      "num_hidden_layers": 1}, "describes 9 parameters: too few"),
])
def test_a_config_json_that_multiplies_out_past_any_model_is_refused(tmp_path, fields, said):
    import json

    from gpu_advisor.knowledge.hf_config import ConfigError, load_config_file

    path = tmp_path / "config.json"
    path.write_text(json.dumps({**BASE_CONFIG, **fields}))
    with pytest.raises(ConfigError, match=said):
        load_config_file(path)
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "size", "inference", "--model", str(path),
                           "--json"], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and said in done.stderr
    assert said in json.loads(done.stdout)["error"]["message"]


def test_a_real_config_json_still_sizes(tmp_path):
    import json

    from gpu_advisor.knowledge.hf_config import load_config_file

    path = tmp_path / "config.json"
    path.write_text(json.dumps(BASE_CONFIG))
    assert load_config_file(path).total_params_b == pytest.approx(8.03, abs=0.01)


# --- mcp --http: a request whose body stalls is answered (408), as `serve` answers one, not held for ever

def test_mcp_http_answers_a_stalled_body_with_408(monkeypatch):
    import asyncio
    import json

    from gpu_advisor.tui import mcp_server, openai_api

    monkeypatch.setattr(openai_api, "BODY_TIMEOUT_S", 0.05)
    app = mcp_server.http_app()
    sent: list[dict] = []
    parts = [{"type": "http.request", "body": b'{"jsonrpc": "2.0", "id": 1, "me', "more_body": True}]

    async def receive():
        if parts:
            return parts.pop(0)
        await asyncio.Event().wait()  # the rest of the body never comes

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/mcp", "raw_path": b"/mcp", "query_string": b"",
             "headers": [(b"host", b"127.0.0.1:8808"), (b"content-type", b"application/json"),
                         (b"accept", b"application/json, text/event-stream")],
             "scheme": "http", "server": ("127.0.0.1", 8808), "client": ("127.0.0.1", 50000), "http_version": "1.1",
             "root_path": "", "asgi": {"version": "3.0"}}
    asyncio.run(asyncio.wait_for(app(scope, receive, send), 30))
    assert sent[0]["status"] == 408
    answer = json.loads(sent[1]["body"])
    assert answer["error"]["code"] == -32600 and "did not arrive within 0.05 s" in answer["error"]["message"]


def test_mcp_http_the_rest_of_a_long_body_has_the_same_deadline():
    import asyncio

    from gpu_advisor.tui.mcp_server import _until

    parts = [{"type": "http.request", "body": b"x", "more_body": True}]

    async def receive():
        if parts:
            return parts.pop(0)
        await asyncio.Event().wait()

    async def run():
        timed = _until(receive, asyncio.get_running_loop().time() + 0.05)
        return [await timed(), await timed()]

    first, second = asyncio.run(asyncio.wait_for(run(), 30))
    assert first["body"] == b"x" and second == {"type": "http.disconnect"}


# --- import: NaN and Infinity are no JSON; an export of what is stored is always valid JSON

def _strict_json(text: str):
    import json

    def refuse(name):
        raise ValueError(name)

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("where", ["payload", "result", "profile"])
def test_an_export_holding_nan_or_infinity_is_not_imported(tmp_path, constant, where):
    body = {"payload": '"messages": [{"role": "user", "text": "x", "payload": {"a": CONSTANT}}]',
            "result": '"messages": [], "tool_calls": [{"tool": "recommend", "result": CONSTANT}]',
            "profile": '"session": {"state": {"results": {"x": [1, CONSTANT]}}}'}[where].replace("CONSTANT", constant)
    file = tmp_path / "export.json"
    file.write_text('{"format": "gpu-advisor-session", "version": 1, ' + body + "}", encoding="utf-8")
    db = tmp_path / "h.db"
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "sessions", "import", str(file), "--db",
                           str(db)], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert f"it holds {constant}, which is not a JSON number" in done.stderr
    import json

    store = HistoryStore(db)
    with pytest.raises(HistoryError, match="not finite"):  # the store's own check, for any caller
        store.import_json(json.loads(file.read_text(encoding="utf-8")))
    assert store.count_sessions() == 0
    store.close()


def test_a_number_too_long_to_read_is_said_in_words(tmp_path):
    file = tmp_path / "export.json"
    file.write_text('{"format": "gpu-advisor-session", "version": ' + "1" * 5000 + "}", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "sessions", "import", str(file), "--db",
                           str(tmp_path / "h.db")], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "it holds a number too long to read" in done.stderr
    assert "set_int_max_str_digits" not in done.stderr


def test_nan_stored_by_an_older_import_exports_as_null(tmp_path):
    store, ids = _history(tmp_path, sessions=1)
    store.conn.execute("UPDATE messages SET payload = ? WHERE session_id = ?", ('{"a": NaN, "b": [Infinity, 1]}', ids[0]))
    data = _strict_json(store.export_text(ids[0], "json"))
    assert [m["payload"] for m in data["messages"]] == [{"a": None, "b": [None, 1]}] * 2
    store.close()
