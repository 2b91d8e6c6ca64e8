"""Issue 26's fresh attack (attack L), each failure kept as a test: a second name (hard or symbolic link) for the
history database, a database whose end was cut off, a silent recovery of a large damaged database, `replay --check`
of a session `ask` made, a safetensors header adding up to 10**21 parameters, and the low ones (a killed backup's
`.part`, two Host headers, paths with control characters, `sessions path --db NEW`).
Every file is built in tmp_path; no network, no sleeping, no timing."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import gpu_advisor.assistant.history.store as store_module
from gpu_advisor.assistant.history import HistoryError, HistoryStore
from gpu_advisor.knowledge import ConfigError, resolve_model
from tests.hf_cache import offline, place

ROOT = Path(__file__).resolve().parent.parent
POSIX = pytest.mark.skipif(os.name != "posix", reason="fork, links and record locks")
TINY = {"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 256, "max_position_embeddings": 2048}


def _cli(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", *args], cwd=cwd,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                          capture_output=True, text=True, timeout=120)


def _history(path: Path, sessions: int = 1, text: str = "serve llama 3.1 8b to 5 users") -> list[str]:
    store = HistoryStore(path)
    ids = []
    for i in range(sessions):
        sid = store.create_session(f"conversation {i}")
        store.add_message(sid, "user", f"{text} ({i})")
        store.add_message(sid, "assistant", f"answer {i} " + "x" * 600)
        ids.append(sid)
    store.close()
    return ids


def _in_child(work) -> int:
    """Run `work` in a forked child; its exit status is the answer (the parent's claims stay the parent's)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 3
        try:
            store_module._CLAIMS.clear()  # record locks are not inherited: the child holds none of the parent's
            status = work()
        except BaseException:  # noqa: BLE001 - the child reports by its exit status only
            status = 3
        os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


# -- 1. one database file, two names: one lock, or refused


@POSIX
@pytest.mark.parametrize("opened_by", ["real", "hard"])
def test_a_hard_linked_database_is_refused_in_one_line_and_left_as_it_was(tmp_path, opened_by):
    real = tmp_path / "real.db"
    _history(real, sessions=2)
    before = real.read_bytes()
    os.link(real, tmp_path / "hard.db")
    with pytest.raises(HistoryError) as caught:
        HistoryStore(tmp_path / f"{opened_by}.db")
    assert "hard link" in str(caught.value) and "\n" not in str(caught.value)
    assert real.read_bytes() == before
    assert not (tmp_path / "hard.db-wal").exists()  # SQLite never started a second log
    (tmp_path / "hard.db").unlink()
    assert len(HistoryStore(real).list_sessions()) == 2  # one name again: opens as before


@POSIX
def test_a_hard_linked_database_is_refused_by_the_cli_with_exit_2(tmp_path):
    real = tmp_path / "real.db"
    _history(real)
    os.link(real, tmp_path / "other.db")
    for name in ("real.db", "other.db"):
        done = _cli("sessions", "list", "--db", str(tmp_path / name))
        assert done.returncode == 2 and "hard link" in done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


@POSIX
@pytest.mark.parametrize("how", ["file", "folder"])
def test_a_symbolic_link_to_the_database_shares_its_locks_and_its_session_guard(tmp_path, how):
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    real = real_dir / "h.db"
    sid = _history(real)[0]
    if how == "file":
        other = tmp_path / "sym.db"
        other.symlink_to(real)
    else:
        (tmp_path / "linked").symlink_to(real_dir)
        other = tmp_path / "linked" / "h.db"
    holder = HistoryStore(real)
    holder.claim(sid)

    def through_the_link() -> int:
        store = HistoryStore(other)
        try:
            store.claim(sid)
        except HistoryError:
            return 0  # refused: the session is open in the other process
        return 1

    assert _in_child(through_the_link) == 0
    holder.close()
    assert _in_child(through_the_link) == 1  # released: now it may
    assert not Path(f"{tmp_path / 'sym.db'}.lock").exists() and not Path(f"{other}.sessions.lock").is_symlink()
    assert Path(f"{real}.lock").exists() and Path(f"{real}.sessions.lock").exists()


# -- 2 and 3. a database cut short: what is there is recovered and counted; a large one says it is working


def _cut(path: Path, keep: float) -> int:
    page = int.from_bytes(path.read_bytes()[16:18], "big")
    size = int(path.stat().st_size * keep) // page * page
    with path.open("r+b") as f:
        f.truncate(size)
    return size


@pytest.mark.parametrize("keep", [0.6, 0.75, 0.9])
def test_a_database_cut_short_recovers_the_sessions_still_in_it(tmp_path, keep):
    path = tmp_path / "h.db"
    _history(path, sessions=150)
    size = _cut(path, keep)
    store = HistoryStore(path)
    sessions = store.count_sessions()
    messages = sum(len(store.messages(row.id)) for row in store.list_sessions(limit=500))
    assert 0 < sessions <= 150 and 0 < messages < 300  # what the lost end held is gone, the rest is back
    assert f"{messages} messages in {sessions} sessions were recovered" in (store.notice or "")
    store.close()
    kept = Path(f"{path}.damaged-1")
    assert kept.stat().st_size == size  # the damaged copy kept as it was


def test_a_large_recovery_says_so_in_one_line_on_stderr(tmp_path, monkeypatch, capsys):
    path = tmp_path / "h.db"
    _history(path, sessions=60)
    _cut(path, 0.7)
    monkeypatch.setattr(store_module, "PROGRESS_MIN_BYTES", 1)
    store = HistoryStore(path)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "recovering the damaged history database" in err and str(path) in err
    assert store.count_sessions() > 0


def test_a_small_recovery_prints_nothing(tmp_path, capsys):
    path = tmp_path / "h.db"
    _history(path, sessions=60)
    _cut(path, 0.7)
    HistoryStore(path).close()
    assert capsys.readouterr().err == ""


# -- 5. a safetensors header adding up to more parameters than any model


@pytest.fixture
def cache(tmp_path, monkeypatch):
    hf = tmp_path / "hf"
    with offline(hf, tmp_path / "ours", monkeypatch):
        yield hf


def _header(tensors: dict[str, list[int]]) -> bytes:
    raw = json.dumps({name: {"dtype": "BF16", "shape": shape} for name, shape in tensors.items()}).encode()
    return struct.pack("<Q", len(raw)) + raw


@pytest.mark.parametrize("shards", [1, 4])
@pytest.mark.parametrize("shape", [[1 << 25, 1 << 25], [1 << 20, 1 << 20, 1 << 9]])
def test_tensors_adding_up_past_any_model_are_refused(cache, shards, shape):
    per_shard = 1000 // shards
    files: dict[str, bytes | str | dict] = {"config.json": TINY}
    for s in range(shards):
        files[f"model-{s:05d}.safetensors"] = _header({f"layer.{s}.{i}.weight": shape for i in range(per_shard)})
    place(cache, "atk/hugeparams", files)
    with pytest.raises(ConfigError) as caught:
        resolve_model("atk/hugeparams")
    assert "trillion parameters" in str(caught.value) and "\n" not in str(caught.value)


def test_a_large_but_possible_model_is_still_counted(cache):
    # 8 tensors of 2**36 elements: 550 billion parameters, a model that exists
    place(cache, "acme/big", {"config.json": TINY,
                              "model.safetensors": _header({f"w{i}": [1 << 18, 1 << 18] for i in range(8)})})
    assert resolve_model("acme/big") is not None


def test_the_cli_refuses_the_crafted_header_with_exit_2(tmp_path):
    hf = tmp_path / "hf"
    place(hf, "atk/hugeparams", {"config.json": TINY, "model.safetensors":
                                 _header({f"t{i}": [1 << 25, 1 << 25] for i in range(1000)})})
    env = {"HF_HUB_CACHE": str(hf), "HF_HUB_OFFLINE": "1", "GPU_ADVISOR_CACHE_DIR": str(tmp_path / "ours"),
           "GPU_ADVISOR_LOG_DIR": str(tmp_path / "logs")}
    done = _cli("size", "inference", "-m", "atk/hugeparams", "-p", "fp16", "--gpu", "h100", env=env)
    assert done.returncode == 2 and "trillion parameters" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


# -- 4. `sessions replay --check` of a session `ask` made replays it the way `ask` answered it

ASKED = ["serve llama 3.1 8b to 5 users", "um, serve llama 3.1 8b for 5 users please",
         "给5个用户部署 llama 3.1 8b", "我想部署 llama 3.1 8b，给 5 个人用", "fine-tune a 7B model with qlora",
         "用 qlora 微调一个 7B 模型"]
FOLLOW_UPS = {"en": "what about int4?", "zh": "换成 int4 呢"}


def _ask(store: HistoryStore, texts: list[str], settings: dict[str, str] | None = None) -> str:
    from gpu_advisor.assistant.session import Conversation

    conv = Conversation(store, settings=settings)
    conv.oneshot = True  # as `ask` sends (tui/cli/ask.py)
    for text in texts:
        conv.send(text)
    assert conv.session_id is not None
    return conv.session_id


@pytest.mark.parametrize("text", ASKED)
@pytest.mark.parametrize("follow_up", ["", "en", "zh"])
def test_a_session_ask_made_replays_clean(tmp_path, text, follow_up):
    from gpu_advisor.assistant.session import rerun

    store = HistoryStore(tmp_path / "h.db")
    sid = _ask(store, [text, *([FOLLOW_UPS[follow_up]] if follow_up else [])])
    differences = rerun(store, sid)
    assert list(differences) == [] and differences.turns == (2 if follow_up else 1)


@pytest.mark.parametrize("settings", [{"region": "china"}, {"currency": "CNY"}, {"region": "china", "currency": "CNY"}])
@pytest.mark.parametrize("text", ["how much to rent gpus to serve llama 3.1 70b to 50 users",
                                  "租 GPU 给 50 个用户部署 llama 3.1 70b 要多少钱"])
def test_a_session_held_under_settings_replays_under_them(tmp_path, settings, text):
    from gpu_advisor.assistant.engine import settings_ok
    from gpu_advisor.assistant.session import rerun

    assert settings_ok(settings)
    store = HistoryStore(tmp_path / "h.db")
    sid = _ask(store, [text], settings)
    assert list(rerun(store, sid)) == []


def test_ask_then_replay_check_is_clean_through_the_cli(tmp_path):
    db = tmp_path / "h.db"
    env = {"GPU_ADVISOR_LOG_DIR": str(tmp_path / "logs"), "GPU_ADVISOR_CONFIG": str(tmp_path / "settings.toml")}
    assert _cli("ask", "--db", str(db), "serve llama 3.1 8b to 5 users", env=env).returncode == 0
    sid = json.loads(_cli("sessions", "list", "--db", str(db), "--json", env=env).stdout)[0]["id"]
    done = _cli("sessions", "replay", sid, "--db", str(db), "--check", env=env)
    assert done.returncode == 0, done.stdout + done.stderr


# -- 6. the low ones


@POSIX
@pytest.mark.parametrize("next_run", ["start", "backup elsewhere", "export elsewhere"])
def test_a_killed_backups_part_is_cleaned_by_the_next_run_whatever_folder_it_uses(tmp_path, next_run):
    from gpu_advisor.assistant.history import export

    db = tmp_path / "home" / "h.db"
    sid = _history(db)[0]
    target_dir = tmp_path / "backups"
    target_dir.mkdir()
    mine = target_dir / ".notes.2024.draft.part"  # the user's own file: not this app's name
    mine.write_text("keep me")

    def killed_backup() -> int:
        export.write_new_file(target_dir / "x.db", lambda tmp: os._exit(0), False, "backup")
        return 3

    assert _in_child(killed_backup) == 0
    left = [p for p in target_dir.iterdir() if export.OWN_PART.fullmatch(p.name)]
    assert len(left) == 1  # the killed write's hidden .part
    store = HistoryStore(db)
    if next_run == "backup elsewhere":
        store.backup(tmp_path / "home" / "copy.db")
    elif next_run == "export elsewhere":
        store.export_to(sid, tmp_path / "home" / "s.md")
    store.close()
    assert sorted(p.name for p in target_dir.iterdir()) == [mine.name]
    assert mine.read_text() == "keep me"


@pytest.mark.parametrize("hosts", [[b"evil.com", b"127.0.0.1"], [b"127.0.0.1", b"evil.com"],
                                   [b"127.0.0.1", b"127.0.0.1"], [b"localhost", b"LOCALHOST"]])
def test_serve_refuses_a_request_with_two_host_headers(hosts):
    import asyncio

    from gpu_advisor.tui.openai_api import guarded

    reached: list[str] = []

    async def app(scope, receive, send):
        reached.append(scope["path"])

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b""}

    def scope(headers):
        return {"type": "http", "path": "/health", "headers": headers}

    guard = guarded(app, "127.0.0.1", None)
    asyncio.run(guard(scope([(b"host", h) for h in hosts]), receive, send))
    assert not reached and sent[0]["status"] == 400
    asyncio.run(guard(scope([(b"host", hosts[-1])]), receive, send))  # one of them alone: as before
    assert reached == (["/health"] if hosts[-1] != b"evil.com" else [])


ESC_NAMES = ["esc\x1b]0;PWN\x07", "bell\x07", "csi\x1b[31m", "bidi\u202e"]


@POSIX
@pytest.mark.parametrize("name", ESC_NAMES)
def test_paths_with_control_characters_are_shown_escaped_never_stripped(tmp_path, name):
    from gpu_advisor.assistant.terminal import escaped

    folder = tmp_path / name
    db = folder / "h.db"
    _history(db)
    env = {"GPU_ADVISOR_LOG_DIR": str(tmp_path / "logs")}
    done = _cli("sessions", "backup", str(folder / "b.db"), "--db", str(db), env=env)
    assert done.returncode == 0 and (folder / "b.db").exists()
    assert escaped(str(folder / "b.db")) in done.stdout and "\x1b" not in done.stdout and "\x07" not in done.stdout
    again = _cli("sessions", "backup", str(folder / "b.db"), "--db", str(db), env=env)  # exists: an error line
    assert again.returncode != 0 and escaped(str(folder / "b.db")) in again.stderr
    assert not any(c in again.stderr for c in "\x1b\x07\u202e")
    shown = _cli("sessions", "path", "--db", str(db), env=env)
    assert shown.stdout.strip() == escaped(str(db))


@pytest.mark.parametrize("how", ["--db", "env"])
@pytest.mark.parametrize("as_json", [False, True])
def test_sessions_path_of_a_new_database_creates_nothing(tmp_path, how, as_json):
    new = tmp_path / "sub" / "new.db"
    env = {"GPU_ADVISOR_LOG_DIR": str(tmp_path / "logs")}
    args = ["sessions", "path", *(["--json"] if as_json else [])]
    if how == "--db":
        args += ["--db", str(new)]
    else:
        env["GPU_ADVISOR_DB"] = str(new)
    done = _cli(*args, env=env)
    assert done.returncode == 0
    assert (json.loads(done.stdout)["path"] if as_json else done.stdout.strip()) == str(new)
    assert not new.exists() and not Path(f"{new}.lock").exists() and not new.parent.exists()
