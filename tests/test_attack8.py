"""Issue 26's fresh attack (attack 8), each failure kept as a test.

- A backup restored over the history while a killed app's write-ahead log was still beside it: SQLite wrote
  that log's frames into the restored file, the history came up empty ("no further message could be
  recovered") and the kept copy was no longer the file that was found. A log beside a file that uses none
  is now set aside, kept and named; a check that fails no longer lets SQLite write the log into the file;
  and a recovery reads the file without its log as well.
- The database moved away without its log: the next start deleted the log with the last messages.

Kills are real: a forked child ends with os._exit (no `finally`, no close, no checkpoint: as kill -9).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from forked import in_child

import gpu_advisor.assistant.history.store as store_module
from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.assistant.history.damage import log_of_another_file

POSIX = pytest.mark.skipif(os.name != "posix", reason="fork and kill")


def _history(path: Path, tag: str, in_file: int) -> set[str]:
    """A closed history of `in_file` messages, all in the database file. Returns their texts."""
    store = HistoryStore(path)
    sid = store.create_session(f"{tag} session")
    for i in range(in_file):
        store.add_message(sid, "user", f"{tag} file {i} " + "x" * 400)
    store.close()
    return {f"{tag} file {i}" for i in range(in_file)}


def _log_and_die(path: Path, tag: str, logged: int) -> set[str]:
    """`logged` more messages committed only in the write-ahead log: the writer is killed before any checkpoint."""

    def write_and_die() -> None:
        writer = HistoryStore(path)
        writer.conn.execute("PRAGMA wal_autocheckpoint = 0")
        sid = writer.create_session(f"{tag} logged")
        for i in range(logged):
            writer.add_message(sid, "user", f"{tag} log {i} " + "y" * 400)
        os._exit(0)

    assert in_child(write_and_die) == 0
    assert Path(f"{path}-wal").stat().st_size > 32
    return {f"{tag} log {i}" for i in range(logged)}


def _texts(path: Path) -> set[str]:
    store = HistoryStore(path)
    try:
        return {r[0].split(" x")[0].split(" y")[0] for r in store.conn.execute("SELECT text FROM messages")}
    finally:
        store.close()


def _wal_mode(path: Path) -> bool:
    return path.read_bytes()[18:20] == b"\x02\x02"


# -- 1. a backup restored over a history whose killed app left its log


@POSIX
@pytest.mark.parametrize("index_too", [True, False], ids=["with-shm", "without-shm"])
def test_a_backup_restored_over_a_killed_apps_log_opens_whole(tmp_path, index_too):
    live, backup = tmp_path / "history.db", tmp_path / "backup.db"
    kept_texts = _history(live, "old", 40)
    store = HistoryStore(live)
    store.backup(backup)
    store.close()
    assert not _wal_mode(backup)  # VACUUM INTO writes a rollback-mode file
    _log_and_die(live, "later", 12)
    log = Path(f"{live}-wal").read_bytes()
    if not index_too:
        Path(f"{live}-shm").unlink()
    shutil.copyfile(backup, live)  # the restore: the killed app's log stays beside it
    assert log_of_another_file(live)

    store = HistoryStore(live)
    try:
        assert store.notice is not None and "it was not applied" in store.notice
        assert str(tmp_path / "history.db.damaged-1") in store.notice
        assert len(store.list_sessions()) == 1
    finally:
        store.close()
    assert _texts(live) == kept_texts  # every message of the backup; before: none ("No saved sessions")
    assert (tmp_path / "history.db.damaged-1-wal").read_bytes() == log  # the later messages, kept as found
    assert (tmp_path / "history.db.damaged-1").read_bytes() == backup.read_bytes()
    again = HistoryStore(live)  # named at every start until deleted
    try:
        assert again.notice is None and str(tmp_path / "history.db.damaged-1") in (again.reminder or "")
    finally:
        again.close()
    assert not log_of_another_file(live)


@POSIX
def test_a_database_moved_away_without_its_log_leaves_the_log_kept(tmp_path):
    live, moved = tmp_path / "history.db", tmp_path / "moved.db"
    texts = _history(live, "base", 20)
    texts |= _log_and_die(live, "last", 9)
    log = Path(f"{live}-wal").read_bytes()
    os.replace(live, moved)  # moved without its -wal and -shm
    store = HistoryStore(live)
    try:
        assert store.notice is not None and "it was not applied" in store.notice
        assert store.list_sessions() == []
    finally:
        store.close()
    kept = tmp_path / "history.db.damaged-1"
    assert kept.is_file() and kept.stat().st_size == 0  # holds the place: its log is named by it
    assert Path(f"{kept}-wal").read_bytes() == log  # before: deleted, with the last 9 messages
    shutil.copyfile(f"{kept}-wal", f"{moved}-wal")  # put back beside the file it belongs to
    assert _texts(moved) == texts


@POSIX
@pytest.mark.parametrize("step", ["writing-shm", "writing-wal", "writing db"])
def test_setting_a_foreign_log_aside_killed_at_any_step_keeps_it_once(tmp_path, step):
    live, backup = tmp_path / "history.db", tmp_path / "backup.db"
    texts = _history(live, "old", 15)
    store = HistoryStore(live)
    store.backup(backup)
    store.close()
    _log_and_die(live, "later", 5)
    log = Path(f"{live}-wal").read_bytes()
    shutil.copyfile(backup, live)

    def killed() -> None:
        def kill(name: str) -> None:
            if name == step:
                os._exit(9)

        store_module._kill_point = kill
        HistoryStore(live).close()

    assert in_child(killed) == 9
    store = HistoryStore(live)
    store.close()
    assert _texts(live) == texts
    assert (tmp_path / "history.db.damaged-1-wal").read_bytes() == log
    assert not (tmp_path / "history.db.damaged-2").exists()
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")]


# -- 2. a failed check leaves the damaged file and its log as they were found


@POSIX
def test_a_damaged_file_with_a_log_is_kept_byte_for_byte(tmp_path):
    path = tmp_path / "history.db"
    _history(path, "base", 80)
    _log_and_die(path, "later", 4)
    size = path.stat().st_size
    page = size // 4096 // 2
    with path.open("r+b") as f:  # a page in the middle of the file, not in the log
        f.seek(page * 4096 + 8)
        f.write(b"\xde\xad\xbe\xef" * 8)
    found, log = path.read_bytes(), Path(f"{path}-wal").read_bytes()
    store = HistoryStore(path)
    try:
        assert store.notice is not None and "could not be read" in store.notice
    finally:
        store.close()
    kept = tmp_path / "history.db.damaged-1"
    # before: closing the failed check's connection copied the log into the file and deleted the log
    assert kept.read_bytes() == found
    assert Path(f"{kept}-wal").read_bytes() == log


# -- 3. a recovery reads the file without its log too


@POSIX
@pytest.mark.parametrize("restored", [30, 55])
def test_a_recovery_reads_the_file_alone_when_its_log_is_another_files(tmp_path, restored):
    other, mine = tmp_path / "other.db", tmp_path / "mine.db"
    _history(other, "other", 25)
    _log_and_die(other, "other", 10)
    texts = _history(mine, "mine", restored)
    store = HistoryStore(mine)
    store.conn.execute("VACUUM")  # another page layout than the log's
    store.close()
    assert _wal_mode(mine)
    kept = tmp_path / "kept.db"
    shutil.copyfile(mine, kept)
    shutil.copyfile(f"{other}-wal", f"{kept}-wal")
    fresh = HistoryStore(tmp_path / "new.db")
    try:
        said = fresh._recover_from(kept)
        got = {r[0].split(" x")[0] for r in fresh.conn.execute("SELECT text FROM messages")}
    finally:
        fresh.close()
    assert texts <= got, said
    assert f"{len(got)} messages" in said


def test_a_log_beside_a_database_in_wal_mode_is_its_own(tmp_path):
    path = tmp_path / "history.db"
    _history(path, "base", 3)
    assert _wal_mode(path)
    Path(f"{path}-wal").write_bytes(b"\x37\x7f\x06\x82" + bytes(4000))
    assert not log_of_another_file(path)  # (damage in it is the log checks' to find)
    Path(f"{path}-wal").write_bytes(bytes(32))
    conn = sqlite3.connect(tmp_path / "rollback.db")
    conn.execute("CREATE TABLE t (x)")
    conn.close()
    assert not log_of_another_file(tmp_path / "rollback.db")  # no log at all
    Path(f"{tmp_path / 'rollback.db'}-wal").write_bytes(bytes(32))
    assert not log_of_another_file(tmp_path / "rollback.db")  # a log header alone holds no frame
    Path(f"{tmp_path / 'rollback.db'}-wal").write_bytes(bytes(33))
    assert log_of_another_file(tmp_path / "rollback.db")


# -- 4. `ask` on a disk that takes nothing: the answer, one line on stderr, exit 1 (a script must know)


@pytest.mark.parametrize("json_out", [False, True])
@pytest.mark.parametrize("follow_up", [False, True])
def test_ask_on_a_history_that_cannot_be_written_exits_1_with_the_answer(tmp_path, capsys, monkeypatch,
                                                                         json_out, follow_up):
    from gpu_advisor.tui.cli import main

    path = tmp_path / "history.db"
    _history(path, "base", 2)
    real = HistoryStore.__init__

    def read_only(self, *args, **kwargs):  # as on read-only media (root may write any file, so it is set here)
        real(self, *args, **kwargs)
        self.read_only, self.unwritable = True, "the database is read-only"

    monkeypatch.setattr(HistoryStore, "__init__", read_only)
    argv = ["ask", "--db", str(path), *(["-c"] if follow_up else []), *(["--json"] if json_out else []),
            "serve llama 3 8b to 9 users"]
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert "9 users" in (json.loads(out)["content"] if json_out else out)
    assert err.count("\n") == 1 and err.startswith("gpu-advisor: the answer was not saved:")
    assert "(the database is read-only)" in err
    if json_out:
        assert "session_id" not in json.loads(out)
    monkeypatch.setattr(HistoryStore, "__init__", real)
    store = HistoryStore(path)
    assert [row.messages for row in store.list_sessions()] == [2]  # nothing was added
    store.close()


@pytest.mark.parametrize("failing", ["add_message", "save_reply", "create_session"])
def test_ask_whose_write_fails_midway_prints_the_answer_and_exits_1(tmp_path, capsys, monkeypatch, failing):
    from gpu_advisor.assistant.history import NotSaved
    from gpu_advisor.tui.cli import main

    path = tmp_path / "history.db"

    def full(self, *args, **kwargs):
        raise NotSaved(self.path, "the reply" if failing == "save_reply" else "the message", "the disk is full")

    monkeypatch.setattr(HistoryStore, failing, full)
    assert main(["ask", "--db", str(path), "serve qwen 2.5 14b to 7 users"]) == 1
    out, err = capsys.readouterr()
    assert "7 users" in out and "Qwen2.5 14B" in out  # the answer is printed all the same
    assert err.count("\n") == 1 and "was not saved" in err and "the disk is full" in err


def test_ask_on_a_writable_history_exits_0_and_saves(tmp_path, capsys):
    from gpu_advisor.tui.cli import main

    path = tmp_path / "history.db"
    assert main(["ask", "--db", str(path), "serve llama 3 8b to 9 users"]) == 0
    out, err = capsys.readouterr()
    assert "9 users" in out and err == ""
    store = HistoryStore(path)
    assert [row.messages for row in store.list_sessions()] == [2]
    store.close()


# -- 5. this tool's own summary cache of the Hub is held to the limits the Hugging Face cache is


SUMMARY_CONFIG = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
                  "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
                  "num_key_value_heads": 8, "vocab_size": 128256, "max_position_embeddings": 8192}
GOOD_SUMMARY = {"params_by_dtype": {"BF16": 8_030_261_248}, "bytes_by_dtype": {"BF16": 16_060_522_496},
                "total_size": 16_060_522_496, "gguf_files": {}}
BAD_SUMMARIES = {
    "params 10^30": {"params_by_dtype": {"BF16": 10**30}},
    "params 1e300": {"params_by_dtype": {"BF16": 1e300}},
    "params negative": {"params_by_dtype": {"BF16": -8_030_261_248}},
    "params a string": {"params_by_dtype": {"BF16": "8030261248"}},
    "params true": {"params_by_dtype": {"BF16": True}},
    "params a list": {"params_by_dtype": [8_030_261_248]},
    "params over 100 trillion together": {"params_by_dtype": {"BF16": 60 * 10**12, "F32": 60 * 10**12}},
    "bytes negative": {"bytes_by_dtype": {"BF16": -1}},
    "total_size negative": {"total_size": -5},
    "total_size 10^40": {"total_size": 10**40},
    "total_size a float": {"total_size": 1.5e3},
    "total_size a string": {"total_size": "16060522496"},
    "gguf size negative": {"gguf_files": {"m.Q4_K_M.gguf": -1}},
    "gguf size 10^30": {"gguf_files": {"m.Q4_K_M.gguf": 10**30}},
    "gguf 100k files": {"gguf_files": {f"m{i}.Q4_K_M.gguf": 1 for i in range(100_000)}},
}


@pytest.fixture
def summaries(tmp_path, monkeypatch):
    from gpu_advisor.knowledge import hub

    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    folder = hub.summary_dir()
    assert folder is not None and str(folder).startswith(str(tmp_path))
    folder.mkdir(parents=True, exist_ok=True)

    def write(repo: str, **changes) -> None:
        data = {"version": hub.SUMMARY_VERSION, "repo_id": repo, "revision": "a" * 40, "config": SUMMARY_CONFIG,
                "fetched": "2026-11-01", **GOOD_SUMMARY, **changes}
        (folder / f"{hub._folder(repo)}.json").write_text(json.dumps(data))

    return write


def test_a_sound_summary_is_read(summaries):
    from gpu_advisor.knowledge import hub

    summaries("acme/sound-8b")
    back = hub.from_summary("acme/sound-8b")
    assert back is not None and back.params_by_dtype == {"BF16": 8_030_261_248}
    assert back.total_size == 16_060_522_496


@pytest.mark.parametrize("changes", BAD_SUMMARIES.values(), ids=BAD_SUMMARIES.keys())
def test_a_summary_past_any_model_is_not_read(summaries, changes):
    """Before: 10^30 parameters gave '2,000,000,000,000,000,000,000.0 GB' of weights, 1e300 a 300-digit figure,
    a negative count 'the safetensors headers count only -8,030,261,248 parameters'."""
    from gpu_advisor.knowledge import NotFound, hub, resolve_model

    summaries("acme/crafted", **changes)
    assert hub.from_summary("acme/crafted") is None  # a damaged summary is fetched again (offline: not found)
    with pytest.raises(NotFound):
        resolve_model("acme/crafted")


def test_a_crafted_summary_never_sizes_weights_past_any_model(summaries, capsys):
    from gpu_advisor.tui.cli import main

    summaries("acme/crafted", params_by_dtype={"BF16": 10**30})
    assert main(["size", "inference", "-m", "acme/crafted", "--json"]) == 2
    out, err = capsys.readouterr()
    assert "e+30" not in out and "unknown model 'acme/crafted'" in err


# -- 6. serve: a number JSON has not is refused like any other body that is no JSON; wording and addresses

CHAT = '{"model": "gpu-advisor", "messages": [{"role": "user", "content": "hi"}], "temperature": %s}'


def _serve_client():
    from starlette.testclient import TestClient

    from gpu_advisor.tui.openai_api import create_app

    return TestClient(create_app(), base_url="http://127.0.0.1")


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-2E+999"])
def test_serve_refuses_a_number_json_has_not(number):
    """Before: 200, with NaN or infinity taken as the temperature (invalid JSON read as Python reads it)."""
    with _serve_client() as http:
        answer = http.post("/v1/chat/completions", content=CHAT % number,
                           headers={"content-type": "application/json"})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["type"] == "invalid_request_error" and number.lstrip("-")[:3] in error["message"]


@pytest.mark.parametrize("number", ["0.7", "1e-400", "2", "1E+3"])
def test_serve_still_takes_finite_numbers(number):
    with _serve_client() as http:
        answer = http.post("/v1/chat/completions", content=CHAT % number,
                           headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize(("stream", "shown"), [("0", "0"), ('"false"', '"false"'), ("[]", "[]"), ("{}", "{}")])
def test_serve_says_what_a_stream_that_is_no_boolean_was(stream, shown):
    from gpu_advisor.tui.openai_api import BadRequest, stream_settings

    with pytest.raises(BadRequest) as caught:
        stream_settings({"stream": json.loads(stream)})
    assert str(caught.value) == f"stream: must be true or false (a JSON boolean, not {shown})"


@pytest.mark.parametrize(("host", "url"), [("127.0.0.1", "http://127.0.0.1:8000"), ("::1", "http://[::1]:8000"),
                                           ("localhost", "http://localhost:8000"), ("::", "http://[::]:8000")])
def test_the_address_a_server_prints_is_one_a_client_can_use(host, url):
    from gpu_advisor.tui.openai_api import base_url

    assert base_url(host, 8000) == url


# -- 7. pydantic's "Value error," is no part of a message


@pytest.mark.parametrize(("changes", "said"), [
    ({"num_key_value_heads": 7}, "num_attention_heads is not a multiple of num_kv_heads"),
])
def test_a_config_json_refused_by_a_validator_says_only_why(tmp_path, capsys, changes, said):
    from gpu_advisor.tui.cli import main

    config = {**SUMMARY_CONFIG, **changes}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    assert main(["models", "show", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"gpu-advisor: {said}\n"


def test_an_export_with_a_bad_date_says_only_why(tmp_path, capsys):
    from gpu_advisor.tui.cli import main

    data = {"format": "gpu-advisor-session", "version": 1,
            "session": {"id": "x", "title": "t", "created": "not a date", "updated": "2026-01-01T00:00:00+00:00",
                        "profile": {}, "state": {}}, "messages": [], "tool_calls": []}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    assert main(["sessions", "import", "--db", str(tmp_path / "h.db"), str(path)]) == 2
    err = capsys.readouterr().err
    assert "Value error" not in err and "session.created: not a date and time" in err


# -- 8. a config.json in the Hugging Face cache that is a link to nothing is named, not taken for "ask the Hub"


@pytest.mark.parametrize("target", ["loop", "gone"])
def test_a_cached_config_json_link_to_nothing_is_one_line(tmp_path, monkeypatch, capsys, target):
    from gpu_advisor.tui.cli import main

    sha = "c" * 40
    repo = tmp_path / "hf" / "models--acme--linked-7b"
    snap = repo / "snapshots" / sha
    snap.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(sha)
    (snap / "config.json").symlink_to(snap / "config.json" if target == "loop" else "../../blobs/gone")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf"))
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["models", "show", "acme/linked-7b"]) == 2
    err = capsys.readouterr().err
    assert "is a symbolic link that leads to no file" in err and "Hub" not in err and err.count("\n") == 1
