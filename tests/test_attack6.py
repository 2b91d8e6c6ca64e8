"""Attack 6 (issue 26: nothing lost, nothing hangs): one test (or a few) per failure found, named for it.
No sleeping, no network, no timing: work is bounded by counts and sizes, faults are injected."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from gpu_advisor.assistant import replay
from gpu_advisor.assistant.history import HistoryStore, NotSaved
from gpu_advisor.assistant.history import store as store_module
from gpu_advisor.assistant.terminal import printable, quoted
from gpu_advisor.knowledge import ConfigError, cache_walk, hub
from gpu_advisor.tui.cli.program import main
from gpu_advisor.tui.format import local_times
from tests.hf_cache import empty_offline_cache, offline, place, safetensors_bytes  # noqa: F401 (the cache fixture)

TINY = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
        "num_attention_heads": 4, "num_key_value_heads": 4, "num_hidden_layers": 2, "vocab_size": 1000,
        "max_position_embeddings": 2048}
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def quiet_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(tmp_path / "settings.toml"))


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status or 0, out, err


# ---------------------------------------------------------------- M1: an odd TZ never crashes the session list

ODD_ZONES = ("XXX+99999", "UTC+25:61", "<+99>-99")


@pytest.mark.parametrize("tz", ODD_ZONES)
def test_m1_an_odd_time_zone_shows_the_times_in_utc(zone, tz):
    zone(tz)
    assert local_times(["2026-01-15T12:00:00+00:00", "2026-07-15T23:59:00+00:00", "imported text"]) == \
        (["2026-01-15 12:00", "2026-07-15 23:59", "imported text"[:16]], "UTC")
    assert local_times([]) == ([], "UTC")  # (the zone of an empty list: now's)


def test_m1_a_sound_time_zone_is_still_named(zone):
    zone("Europe/Berlin")
    assert local_times(["2026-01-15T12:00:00+00:00"]) == (["2026-01-15 13:00"], "CET")


@pytest.mark.parametrize("tz", ODD_ZONES)
@pytest.mark.parametrize("action", [("list",), ("search", "llama")])
def test_m1_sessions_list_and_search_under_an_odd_zone(capsys, tmp_path, zone, tz, action):
    db = tmp_path / "h.db"
    store = HistoryStore(db)
    sid = store.create_session("serve llama 3 8b")
    store.add_message(sid, "user", "serve llama 3 8b")
    store.close()
    zone(tz)
    status, out, err = run(capsys, "sessions", *action, "--db", str(db))
    assert status == 0 and "updated (UTC)" in out and "Traceback" not in err and "internal error" not in err


# ---------------------------------------------------------------- M3, L8: the HF cache is read with bounded work


def _linked_snapshot(cache: Path, repo: str, target: Path) -> None:
    root = cache / ("models--" + repo.replace("/", "--"))
    (root / "refs").mkdir(parents=True)
    (root / "snapshots").mkdir()
    sha = "0123456789abcdef0123456789abcdef01234567"
    (root / "refs" / "main").write_text(sha)
    (root / "snapshots" / sha).symlink_to(target)


@pytest.mark.parametrize("target", ["/", "outside"])
def test_m3_a_snapshot_linked_out_of_the_cache_is_refused_without_walking_it(cache, tmp_path, monkeypatch, target):
    where = Path("/") if target == "/" else tmp_path / "outside"
    if target != "/":
        where.mkdir()
        (where / "config.json").write_text(json.dumps(TINY))
    _linked_snapshot(cache, "evil/rootlink", where)
    walked = []
    monkeypatch.setattr(cache_walk.os, "scandir", lambda p: walked.append(p) or os.scandir(p))
    with pytest.raises(ConfigError, match="points outside its repository's folder") as caught:
        hub.from_hf_cache("evil/rootlink")
    assert "\n" not in str(caught.value) and walked == []


@pytest.mark.parametrize("name", ["model.safetensors", "sub/model-q4.gguf", "config.json",
                                  "model.safetensors.index.json"])
def test_m3_a_file_linked_out_of_the_cache_is_refused(cache, tmp_path, name):
    snap = place(cache, "evil/filelink", {"config.json": TINY} if name != "config.json" else
                 {"model.safetensors": safetensors_bytes({"w": ("BF16", [4, 4])})})
    outside = tmp_path / "secret"
    outside.write_bytes(safetensors_bytes({"w": ("BF16", [4, 4])}))
    (snap / name).parent.mkdir(parents=True, exist_ok=True)
    (snap / name).symlink_to(outside)
    with pytest.raises(ConfigError, match="outside"):
        hub.from_hf_cache("evil/filelink")


def test_m3_a_snapshot_of_too_many_entries_is_refused_after_a_bounded_count(cache, monkeypatch):
    monkeypatch.setattr(cache_walk, "MAX_SNAPSHOT_ENTRIES", 30)
    snap = place(cache, "evil/many", {"config.json": TINY})
    for i in range(40):
        (snap / f"d{i}").mkdir()
    seen = []
    real = os.scandir
    monkeypatch.setattr(cache_walk.os, "scandir", lambda p: seen.append(p) or real(p))
    with pytest.raises(ConfigError, match="over 30 files and folders"):
        hub.from_hf_cache("evil/many")
    assert len(seen) <= 31


def test_m3_a_linked_folder_inside_a_snapshot_is_not_entered(cache):
    snap = place(cache, "acme/sub", {"config.json": TINY, "model.safetensors": safetensors_bytes({"w": ("BF16", [4, 4])})})
    (snap / "loop").symlink_to("/")
    m = hub.from_hf_cache("acme/sub")
    assert m is not None and m.params_by_dtype == {"BF16": 16}


def test_m3_a_sound_cache_still_reads_every_file(cache):
    place(cache, "acme/ok", {"config.json": TINY, "a/model-00001.safetensors": safetensors_bytes({"w": ("BF16", [4, 4])}),
                             "model-00002.safetensors": safetensors_bytes({"v": ("F32", [2])}), "q/x.gguf": "GGUF"})
    m = hub.from_hf_cache("acme/ok")
    assert m is not None and m.params_by_dtype == {"BF16": 16, "F32": 2} and m.gguf_files == {"q/x.gguf": 4}


def test_m3_cli_models_show_is_one_line_and_exit_2(cache, capsys):
    _linked_snapshot(cache, "evil/rootlink", Path("/"))
    status, _out, err = run(capsys, "models", "show", "evil/rootlink")
    assert status == 2 and err.count("\n") == 1 and "outside" in err


def test_l8_a_header_of_too_many_tensors_is_refused_before_counting(cache, monkeypatch):
    monkeypatch.setattr(hub, "MAX_TENSORS", 10)
    tensors = {f"t{i}": ("BF16", [1, 1]) for i in range(11)}  # + __metadata__: 12 entries
    place(cache, "evil/bighead", {"config.json": TINY, "model.safetensors": safetensors_bytes(tensors)})
    counted = []
    monkeypatch.setattr(hub, "count_tensors", lambda *a, **k: counted.append(a))
    with pytest.raises(ConfigError, match="over 10 tensors"):
        hub.from_hf_cache("evil/bighead")
    assert counted == []


def test_l8_a_header_length_over_the_cap_is_not_read(cache):
    import struct

    place(cache, "evil/huge", {"config.json": TINY,
                               "model.safetensors": struct.pack("<Q", hub.MAX_HEADER_BYTES + 1) + b"{}"})
    m = hub.from_hf_cache("evil/huge")  # (read as a partial download: no counts trusted)
    assert m is not None and m.params_by_dtype == {} and hub.MAX_HEADER_BYTES <= 16_000_000


# ---------------------------------------------------------------- M2: chat --plain answers when nothing can be saved


def _full_disk(monkeypatch) -> None:
    """Every write of a conversation finds the disk full: each raises what the store raises for SQLITE_FULL
    (tests/test_history_failures.py checks that mapping against SQLite itself)."""
    for method, what in (("create_session", "the new conversation"), ("add_message", "your message"),
                         ("save_reply", "the reply")):
        def refused(self, *args, what=what, **kwargs):
            raise NotSaved(self.path, what, "the disk is full")

        monkeypatch.setattr(HistoryStore, method, refused)


def _saved_session(db: Path) -> str:
    store = HistoryStore(db)
    sid = store.create_session("earlier")
    store.add_message(sid, "user", "serve llama 3 8b")
    store.save_reply(sid, "earlier reply", {}, {}, [])
    store.close()
    return sid


@pytest.mark.parametrize("fault", ["read-only", "full"])
@pytest.mark.parametrize("resume", [False, True])
@pytest.mark.parametrize("lines", [["serve llama 3 8b", "about 15 users"], ["给 10 人部署 qwen2.5 7b", "大概 10 个人"]])
def test_m2_chat_plain_answers_unsaved_and_warns_once(capsys, tmp_path, monkeypatch, fault, resume, lines):
    db = tmp_path / "h.db"
    sid = _saved_session(db)
    before = len(HistoryStore(db).messages(sid))
    if fault == "read-only":
        monkeypatch.setattr(store_module, "_writable", lambda path: False)
    else:
        _full_disk(monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    status, out, err = run(capsys, "chat", "--plain", "--json", "--db", str(db),
                           *(["--resume", sid] if resume else []))
    replies = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(replies) == len(lines) and all(r["role"] == "assistant" and r["content"] for r in replies)
    if fault == "full":
        assert err.count("could not save") == 1 and "the disk is full" in err and "read-only" not in err
    else:
        assert "read-only" in err and "could not save" not in err
    assert len(HistoryStore(db).messages(sid)) == before


def test_m2_a_store_read_only_because_the_disk_is_full_says_full(tmp_path):
    store = HistoryStore(tmp_path / "h.db")
    store.create_session("x")
    store._read_despite("the disk is full", {"-wal": True, "-shm": True})
    with pytest.raises(NotSaved, match="the disk is full"):
        store.create_session("y")


# ---------------------------------------------------------------- M5: sessions replay is bounded


@pytest.mark.parametrize(("lengths", "most", "chars", "kept"), [
    ([10] * 5, 100, 16_000, 5), ([10] * 150, 100, 16_000, 100), ([5_000] * 5, 100, 16_000, 3),
    ([50_000, 10], 100, 16_000, 1), ([10] * 7, 3, 16_000, 3), ([], 100, 16_000, 0),
])
def test_m5_first_turns_counts_turns_and_characters(monkeypatch, lengths, most, chars, kept):
    monkeypatch.setattr(replay, "MAX_RERUN_TURNS", most)
    monkeypatch.setattr(replay, "MAX_REPLAYED_CHARS", chars)
    assert replay.first_turns(["x" * n for n in lengths]) == kept


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_m5_sessions_replay_reruns_the_first_turns_and_says_what_was_cut(capsys, tmp_path, monkeypatch, lang):
    from gpu_advisor.assistant.session import Conversation

    monkeypatch.setattr(replay, "MAX_RERUN_TURNS", 2)
    db = tmp_path / "h.db"
    store = HistoryStore(db)
    sid = store.create_session("long")
    texts = (["serve llama 3 8b", "about 15 users", "what about int4?", "around the clock", "make it 32k context"]
             if lang == "en" else ["部署 llama 3 8b", "大概 15 个人", "int4 呢？", "全天", "上下文 32k"])
    for text in texts:
        store.add_message(sid, "user", text)
        store.save_reply(sid, "old reply", {}, {}, [])
    store.close()
    sent = []
    real = Conversation.send
    monkeypatch.setattr(Conversation, "send", lambda self, text: sent.append(len(text)) or real(self, text))
    status, out, _ = run(capsys, "sessions", "replay", sid, "--db", str(db))
    assert status == 0 and len(sent) == 2
    assert "Only the first 2 of the 5 messages were re-run" in out and "the last 3 were not compared" in out


# ---------------------------------------------------------------- M6: MCP list inputs are bounded


@pytest.mark.parametrize(("tool", "field", "item"), [
    ("recommend", "candidates", "h100"), ("recommend", "candidates", "2x l40s"), ("recommend", "owned", "rtx-4090"),
    ("recommend", "exclude", "amd"), ("recommend", "flexible", "context"), ("fit", "counts", 1),
])
def test_m6_a_list_over_the_cap_is_one_error_line(tool, field, item):
    from gpu_advisor.tools.common import MAX_LIST_ITEMS
    from gpu_advisor.tui.mcp_server import Sessions, call_tool, tool_schema

    base = {"recommend": {"phase": "serve", "model": "llama-3-70b"}, "fit": {"model": "llama-3-8b", "gpu": "h100"}}[tool]
    for n in (MAX_LIST_ITEMS + 1, 3000):
        result = call_tool(tool, {**base, field: [item] * n}, Sessions())
        text = result.content[0].text
        assert result.is_error and f"{field}: List should have at most {MAX_LIST_ITEMS} items" in text and "\n" not in text
    assert f'"maxItems": {MAX_LIST_ITEMS}' in json.dumps(tool_schema(tool)["properties"][field])


def test_m6_a_list_at_the_cap_is_accepted():
    from gpu_advisor.tools.common import MAX_LIST_ITEMS
    from gpu_advisor.tools.fit import FitInput
    from gpu_advisor.tools.recommend import Workload

    Workload(phase="serve", model="llama-3-8b", exclude=["amd"] * MAX_LIST_ITEMS)
    FitInput(model="llama-3-8b", gpu="h100", counts=[1] * MAX_LIST_ITEMS)
    with pytest.raises(ValidationError):
        Workload(phase="serve", model="llama-3-8b", owned=["rtx-4090"] * (MAX_LIST_ITEMS + 1))


# ---------------------------------------------------------------- M4, L10, L13: web


def test_m4_the_tab_app_is_the_shells_own_process():
    from gpu_advisor.tui.web import app_command

    assert app_command(None).startswith("exec ") and app_command("/x y.db").endswith("--db '/x y.db'")
    # what `exec` does under the shell textual-serve starts: the command is the process it holds, not a child of it
    command = app_command(None).replace("-m gpu_advisor.tui.web", "-c 'import os; print(os.getpid())'")
    process = subprocess.Popen(command, shell=True, stdout=subprocess.PIPE, text=True)
    out, _ = process.communicate(timeout=60)
    assert int(out) == process.pid


def test_m4_l10_an_app_that_does_not_quit_is_killed_and_its_pipes_closed():
    import shlex

    from gpu_advisor.tui.web import _end

    async def go() -> tuple[int | None, bool]:
        process = await asyncio.create_subprocess_shell(
            "exec " + shlex.join([sys.executable, "-c", "import sys; sys.stdin.read()"]),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

        class Service:  # a tab's app that ignores being told to quit
            _process = process

            async def stop(self) -> None:
                pass

        await _end(Service())
        return process.returncode, process._transport.is_closing()

    returncode, closing = asyncio.run(go())
    assert returncode is not None and closing  # killed, and nothing left for 'Event loop is closed' at exit


@pytest.mark.parametrize(("frame", "expected"), [
    ('["resize", {"width": 3000, "height": 3000}]', ("resize", (500, 200))),
    ('["resize", {"width": 100000, "height": 100000}]', ("resize", (500, 200))),
    ('["resize", {"width": 0, "height": -5}]', ("resize", (1, 1))),
    ('["resize", {"width": 120, "height": 40}]', ("resize", (120, 40))),
    ('["resize", {"width": "120", "height": 40}]', None), ('["resize", {"width": true, "height": 4}]', None),
    ('["resize", [1, 2]]', None), ('["resize"]', None), ("not json", None), ("{}", None), ("[]", None), ("[1]", None),
    ("[" * 100_000, None), ('["stdin", 5]', None), ('["stdin", "q"]', ("stdin", "q")), ('["ping", 7]', ("ping", 7)),
    ('["blur"]', ("blur", None)), ('["exec", "rm"]', None),
])
def test_l10_each_websocket_frame_is_checked(frame, expected):
    from gpu_advisor.tui.web import message

    assert message(frame) == expected


def test_l10_the_relay_passes_on_good_frames_and_drops_bad_ones():
    from aiohttp import WSMsgType

    from gpu_advisor.tui.web import relay

    class Socket:
        def __init__(self, frames):
            self.frames, self.sent = frames, []

        def __aiter__(self):
            async def go():
                for kind, data in self.frames:
                    yield SimpleNamespace(type=kind, data=data)
            return go()

        async def send_json(self, data):
            self.sent.append(data)

    class App:
        def __init__(self):
            self.calls = []

        async def send_bytes(self, data):
            self.calls.append(("stdin", data))

        async def set_terminal_size(self, width, height):
            self.calls.append(("resize", width, height))

        async def blur(self):
            self.calls.append(("blur",))

        async def focus(self):
            self.calls.append(("focus",))

    socket, app = Socket([(WSMsgType.TEXT, "garbage"), (WSMsgType.TEXT, '["resize", {"width": 9000, "height": 30}]'),
                          (WSMsgType.BINARY, b"\x00"), (WSMsgType.TEXT, '["stdin", "hi"]'),
                          (WSMsgType.TEXT, '["ping", 3]'), (WSMsgType.TEXT, '["focus"]')]), App()
    asyncio.run(relay(socket, app))
    assert app.calls == [("resize", 500, 30), ("stdin", b"hi"), ("focus",)] and socket.sent == [["pong", 3]]


@pytest.mark.parametrize("host", ["127.0.0.1:8000@evil.com", "localhost:1@evil.com", "[::1]:80@evil.com",
                                  "127.0.0.1@evil.com", "evil.com", "127.0.0.1.evil.com:80"])
def test_l13_a_host_naming_another_server_is_refused(host):
    from gpu_advisor.tui.web import allowed

    assert not allowed("127.0.0.1", {"Host": host}, websocket=False)


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "localhost"])
def test_l13_a_loopback_host_passes(host):
    from gpu_advisor.tui.web import allowed

    assert allowed("127.0.0.1", {"Host": host}, websocket=False)


@pytest.mark.parametrize("path", ["/", "/static/", "/static/css/xterm.css", "/download/abc", "/ws"])
def test_l13_every_route_checks_the_host(path):
    from aiohttp.test_utils import TestClient, TestServer

    from gpu_advisor.tui.web import _server

    async def go() -> tuple[int, int]:
        app = await _server("127.0.0.1", 0, None, set())._make_app()
        async with TestClient(TestServer(app, host="127.0.0.1")) as client:
            evil = await client.get(path, headers={"Host": "127.0.0.1:8000@evil.com"})
            return evil.status, (await client.get("/static/", headers={"Host": "evil.com"})).status

    assert asyncio.run(go()) == (403, 403)


# ---------------------------------------------------------------- L7: sessions delete respects the session lock


def test_l7_delete_refuses_a_session_another_process_holds(capsys, tmp_path):
    db = tmp_path / "h.db"
    sid = _saved_session(db)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from gpu_advisor.assistant.history import HistoryStore; "
         f"s = HistoryStore({str(db)!r}); s.claim({sid!r}); print('held', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline().strip() == "held"
        status, out, err = run(capsys, "sessions", "delete", "-y", sid, "--db", str(db))
        assert status != 0 and "open in another GPU Advisor" in err and "nothing was deleted" in err
        assert err.count("\n") == 1 and HistoryStore(db).session(sid)["title"] == "earlier"
    finally:
        holder.communicate("", timeout=60)
    status, out, _ = run(capsys, "sessions", "delete", "-y", sid, "--db", str(db))
    assert status == 0 and f"Deleted {sid}" in out


def test_l7_this_process_may_delete_the_session_it_holds(tmp_path):
    db = tmp_path / "h.db"
    sid = _saved_session(db)
    store = HistoryStore(db)
    store.claim(sid)  # the app's own open conversation, deleted from its sessions screen
    store.delete(sid)
    assert store.list_sessions() == []
    other = HistoryStore(db)  # and the claim taken for a delete is given back
    sid2 = other.create_session("x")
    other.close()
    store.delete(sid2)


# ---------------------------------------------------------------- L9: MCP --http, a request id reused in flight


def test_l9_a_reused_request_id_in_flight_is_answered_with_an_error():
    from gpu_advisor.tui.mcp_server import _answer_odd_ids

    release = asyncio.Event()
    started: asyncio.Queue = asyncio.Queue()

    async def slow_app(scope, receive, send):
        body = (await receive())["body"]
        started.put_nowait(body)
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"answer " + body})

    app = _answer_odd_ids(slow_app)

    def request(rid, session=b"s1"):
        body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {}}).encode()
        scope = {"type": "http", "method": "POST", "headers": [(b"mcp-session-id", session)]}
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message):
            sent.append(message)

        return app(scope, receive, send), sent

    async def go():
        first, first_sent = request(1)
        task = asyncio.ensure_future(first)
        await started.get()  # the first request is in the server
        again, again_sent = request(1)
        await again  # answered at once, not queued behind the first
        other, other_sent = request("1")  # a string id is another id
        other_task = asyncio.ensure_future(other)
        elsewhere, elsewhere_sent = request(1, b"s2")  # another session may use the same id
        elsewhere_task = asyncio.ensure_future(elsewhere)
        for _ in range(2):
            await started.get()
        release.set()
        await asyncio.gather(task, other_task, elsewhere_task)
        after, after_sent = request(1)  # answered: the id is free again
        await after
        return first_sent, again_sent, other_sent, elsewhere_sent, after_sent

    first, again, other, elsewhere, after = asyncio.run(go())
    assert first[-1]["body"].startswith(b"answer") and other[-1]["body"].startswith(b"answer")
    assert elsewhere[-1]["body"].startswith(b"answer") and after[-1]["body"].startswith(b"answer")
    error = json.loads(again[-1]["body"])
    assert again[0]["status"] == 400 and error["id"] == 1 and error["error"]["code"] == -32600
    assert "not answered yet" in error["error"]["message"]


# ---------------------------------------------------------------- L11, L12: control characters


INTRODUCERS = ["\x1b]", "\x1bP", "\x1bX", "\x1b^", "\x1b_", "\x9d", "\x90", "\x98", "\x9e", "\x9f"]


@pytest.mark.parametrize("intro", INTRODUCERS)
@pytest.mark.parametrize("after", ["swallow me\nand the next line", "后面的中文也要保留", " rest"])
def test_l11_an_unterminated_sequence_keeps_the_text_after_it(intro, after):
    shown = printable(f"hello {intro}0;title{after}")
    assert shown.startswith("hello ") and after in shown
    assert not any(c in shown for c in "\x1b\x90\x98\x9d\x9e\x9f\x07")


@pytest.mark.parametrize(("intro", "end"), [(i, e) for i in INTRODUCERS for e in ("\x07", "\x1b\\", "\x9c")
                                            if e != "\x07" or i in ("\x1b]", "\x9d")])  # (BEL ends only OSC)
def test_l11_a_terminated_sequence_is_removed_whole(intro, end):
    assert printable(f"a{intro}0;title{end}b") == "ab"


def test_l11_the_attack_repro_and_a_long_line_of_introducers():
    assert printable("hello \x1b]0;title\x07 \u0090 swallow \x1bP rest") == "hello   swallow  rest"
    text = "\x1b]" * 50_000 + "\x90a" * 50_000
    assert printable(text) == "a" * 50_000  # each introducer gone, the text kept


@pytest.mark.parametrize(("value", "shown"), [
    ("ctrl+\x1b", r"'ctrl+\x1b'"), ("eu\x1b[31m", r"'eu\x1b[31m'"), ("a\u202eb", r"'a\u202eb'"),
    ("x\ny", r"'x\x0ay'"), ("全天", "'全天'"), ("x" * 300, "'" + "x" * 200 + "…'"),
])
def test_l12_quoted_writes_controls_as_escapes(value, shown):
    assert quoted(value) == shown


@pytest.mark.parametrize(("key", "value", "expected"), [
    ("keys.app.quit", "ctrl+\x1b", r"'ctrl+\x1b' is not a key"),
    ("region", "eu\x1b[31m", r"not 'eu\x1b[31m'"),
    ("currency", "\x9b2Jusd", r"not '\x9b2Jusd'"),
    ("theme", "nord\x1b]0;x\x07", r"no theme 'nord\x1b]0;x\x07'"),
])
def test_l12_config_set_errors_show_the_value_escaped(capsys, key, value, expected):
    status, _, err = run(capsys, "config", "set", key, value)
    assert status == 2 and expected in err and "\x1b" not in err and err.count("\n") == 1
