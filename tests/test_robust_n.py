"""Attack N (issue 26): each class it found left, kept as a test. No sleeping, no timing: bounded work is
asserted by what the readers are given (the message cut to the cap first) and by patterns that cannot backtrack
over a long run (a run is only tried from its start)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.assistant.reading import literal
from gpu_advisor.assistant.reading.text import MAX_MESSAGE_CHARS, word_pattern

# --- 1. a long run of digits or punctuation costs no more than a full-length message -------------------------


class _Spy:
    """A compiled pattern that records the length of every text it is run on."""

    def __init__(self, pattern: re.Pattern[str], seen: list[int]):
        self.pattern, self.seen = pattern, seen

    def __getattr__(self, name: str):
        method = getattr(self.pattern, name)

        def run(text: str, *args, **kwargs):
            self.seen.append(len(text))
            return method(text, *args, **kwargs)
        return run


RUNS = st.sampled_from(["9", "1.", "1,", "1 ", "$1", "9.", " ", "。", "5万", "1k "])


@settings(max_examples=25, deadline=None)
@given(unit=RUNS, reps=st.integers(MAX_MESSAGE_CHARS, 12_000),
       head=st.sampled_from(["serve llama 3.1 8b to ", "预算每月", "what per month for ", ""]))
def test_literal_readers_take_the_cut_message(unit: str, reps: int, head: str) -> None:
    """The literal-question reader runs its patterns on the first MAX_MESSAGE_CHARS characters only (it was
    given the whole 8,000-character message: 7.5 s of CPU in every front end)."""
    seen: list[int] = []
    message = head + unit * (reps // len(unit)) + " users"
    real = literal.word_pattern
    literal.word_pattern = lambda key: _Spy(real(key), seen)  # type: ignore[assignment,return-value]
    try:
        literal.literal_kind(message)
        literal.literal_kinds(message)
    finally:
        literal.word_pattern = real  # type: ignore[assignment]
    assert seen and max(seen) <= MAX_MESSAGE_CHARS


@pytest.mark.parametrize("text", ["9" * 20_000, "1." * 10_000, "1," * 10_000, "9" * 20_000 + " usd",
                                  "一个月" + "9" * 20_000, "$" + "9" * 20_000, "9 " * 10_000])
def test_monthly_said_tries_a_number_from_its_start_only(text: str) -> None:
    """A run of digits is tried as a price from its first digit only (a lookbehind), so the pattern does linear
    work on a 20k-digit run (quadratic before: 18 s at 8,000 digits); it still finds a price said per month."""
    pattern = word_pattern("literal_said.monthly")
    assert list(pattern.finditer(text)) == [] or text.endswith("usd")
    for price in ("5000 usd per month", "$3k a month", "5000块/月", "2万每月"):
        assert pattern.search(price), price
    assert "(?<![\\d.,])[\\d.,]+ ?(?:k|m)? ?(?:usd" in pattern.pattern


@pytest.mark.parametrize(("message", "kind"), [("what does it cost per month?", "monthly"),
                                               ("每个月多少钱？", "monthly"),
                                               ("budget $5k per month, will qwen 32b fit on a 4090?", "fits"),
                                               ("预算每月5000块，4090够不够跑32b？", "fits")])
def test_literal_kinds_unchanged(message: str, kind: str) -> None:
    assert literal.literal_kind(message) == kind


# --- 4. `mcp --http` holds a bounded number of sessions, idle ones expire ----------------------------------------

INIT = (b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26",'
        b'"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}')


def test_mcp_http_sessions_are_capped_and_expire(monkeypatch: pytest.MonkeyPatch) -> None:
    """Initialize requests that never close their session hold at most MAX_HTTP_SESSIONS (3,000 of them took
    115 MB); past the cap a new one is refused with 503 until one ends, and an idle one is closed."""
    import httpx
    from asgi_server import serving

    from gpu_advisor.tui import mcp_server

    monkeypatch.setattr(mcp_server, "MAX_HTTP_SESSIONS", 3)
    server = mcp_server.build_server(remote=True)
    app = mcp_server.http_app(server)
    manager = server._session_manager
    assert manager.session_idle_timeout == mcp_server.HTTP_IDLE_S and manager.max_sessions == 3
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    with serving(app) as port, httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        codes = [client.post("/mcp", content=INIT, headers=headers) for _ in range(8)]
        assert [r.status_code for r in codes] == [200] * 3 + [503] * 5
        assert len(manager._server_instances) == 3
        first = codes[0].headers["mcp-session-id"]
        assert client.delete("/mcp", headers={**headers, "mcp-session-id": first}).status_code == 200
        assert client.post("/mcp", content=INIT, headers=headers).status_code == 200  # room again


# --- 2. a read-only history whose -wal has no -shm: said, and no backup that would miss it ------------------------

WAL_ONLY = """
import os, sys
from gpu_advisor.assistant.history.store import HistoryStore
s = HistoryStore(sys.argv[1])
s.conn.execute("PRAGMA wal_autocheckpoint=0")
for i in range(5):
    s.add_message(s.create_session(f"WALSESSION {i}"), "user", f"wal message {i}")
os._exit(0)
"""


def test_read_only_history_with_a_log_but_no_index_says_so(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read-only media holding h.db + h.db-wal but no -shm: the open cannot apply the log (fault-injected here: the
    mode=ro open fails as it does there), so it lists 1 of 6 sessions: that is said in one line, and a backup is
    refused instead of silently holding 1 session."""
    import sqlite3
    import subprocess
    import sys

    from gpu_advisor.assistant.history import store as store_module
    from gpu_advisor.assistant.history.common import StorageError
    from gpu_advisor.assistant.history.store import HistoryStore

    db = tmp_path / "h.db"
    first = HistoryStore(db)
    first.add_message(first.create_session("kept"), "user", "hello")
    first.conn.close()
    subprocess.run([sys.executable, "-c", WAL_ONLY, str(db)], check=True, env={**__import__("os").environ})
    assert (tmp_path / "h.db-wal").stat().st_size > 0
    for side in ("h.db-shm", "h.db.lock", "h.db.sessions.lock"):
        (tmp_path / side).unlink(missing_ok=True)
    real = sqlite3.connect

    def connect(target, *args, **kwargs):
        if isinstance(target, str) and target.endswith("?mode=ro"):
            raise sqlite3.OperationalError("unable to open database file")
        return real(target, *args, **kwargs)

    monkeypatch.setattr(store_module, "_writable", lambda path: False)
    monkeypatch.setattr(store_module.sqlite3, "connect", connect)
    ro = HistoryStore(db)
    assert ro.read_only and ro.log_unread > 0
    assert "cannot be read without its index" in ro.notice and "\n" not in ro.notice
    with pytest.raises(StorageError, match="a backup would miss them"):
        ro.backup(tmp_path / "copy.db")
    assert not (tmp_path / "copy.db").exists()


def test_read_only_history_without_a_log_backs_up(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gpu_advisor.assistant.history import store as store_module
    from gpu_advisor.assistant.history.store import HistoryStore

    db = tmp_path / "h.db"
    first = HistoryStore(db)
    first.add_message(first.create_session("kept"), "user", "hello")
    first.conn.close()
    monkeypatch.setattr(store_module, "_writable", lambda path: False)
    ro = HistoryStore(db)
    assert ro.read_only and not ro.log_unread
    assert ro.backup(tmp_path / "copy.db").exists()


# --- 3. a killed turn in the middle: the live continuation and replay agree ------------------------------------

KILLED = [("serve llama 3.1 8b to 5 users", "make it 32k context", "rent or buy?"),
          ("serve qwen 2.5 32b for 20 users", "actually 50 users", "what per month?"),
          ("给5个人部署llama 3.1 8b", "上下文改成32k", "租还是买？")]


@pytest.mark.parametrize(("first", "killed", "then"), KILLED)
def test_a_killed_turn_in_the_middle_is_left_out_the_same_way(tmp_path, first: str, killed: str, then: str) -> None:
    """A message saved and never answered (the turn killed), then the conversation went on: the live answer and
    `replay --check` both leave it out (replay applied it, the live answer did not: 'Rent' against 'Buy'), and
    replay names it as never answered."""
    from gpu_advisor.assistant.history.store import HistoryStore
    from gpu_advisor.assistant.session import Conversation, rerun

    store = HistoryStore(tmp_path / "h.db")
    conv = Conversation(store)
    conv.send(first)
    sid = conv.session_id
    assert sid is not None
    store.add_message(sid, "user", killed)  # killed before its reply was saved
    live = Conversation.resume(store, sid)
    reply = str(live.send(then).content)
    plain = Conversation()
    plain.send(first)
    assert reply == str(plain.send(then).content)  # the live answer: as if the killed message was never sent
    found = rerun(store, sid)
    assert [(d.turn, d.user, d.unanswered) for d in found] == [(2, killed, True)]
    assert live.rebuilt_state().get("profile") == plain.state.get("profile")  # a rebuilt state leaves it out too


# --- 5. a full disk is called full, with the room needed, never "read-only" ------------------------------------


def test_a_full_disk_is_not_called_read_only(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLITE_FULL when opening, then the file cannot be read either (cut short by the full disk): the line says
    the disk is full and how much room is needed (it said 'it is read-only')."""
    import sqlite3

    from gpu_advisor.assistant.history import store as store_module
    from gpu_advisor.assistant.history.common import StorageError
    from gpu_advisor.assistant.history.store import HistoryStore

    db = tmp_path / "h.db"
    first = HistoryStore(db)
    first.add_message(first.create_session("kept"), "user", "hello")
    first.conn.close()

    def full(self) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    real = sqlite3.connect

    def malformed(target, *args, **kwargs):
        if isinstance(target, str) and ("immutable=1" in target or "mode=ro" in target):
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real(target, *args, **kwargs)

    monkeypatch.setattr(HistoryStore, "_open", full)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(store_module.sqlite3, "connect", malformed)
        with pytest.raises(StorageError) as err:
            HistoryStore(db)
    assert re.search(r"the disk is full \(need \d+ MB\)", str(err.value)) and "read-only" not in str(err.value)
    readable = HistoryStore(db)  # readable, only full: it opens for reading and says why nothing is saved
    assert re.search(r"the disk is full \(need \d+ MB\)", readable.notice) and readable.read_only


# --- 6. export to a FIFO or a folder: one consistent line; a 16+-digit user count: no made-up figure ------------


@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_export_to_what_is_no_regular_file_says_so_once(tmp_path, capsys, kind: str, force: bool) -> None:
    """With or without --force, one line: not a regular file, choose a file path (it said 'pass --force', then,
    with --force, 'exports never overwrite')."""
    import os

    from gpu_advisor.assistant.history.store import HistoryStore
    from gpu_advisor.tui.cli import main

    db = tmp_path / "h.db"
    store = HistoryStore(db)
    sid = store.create_session("s")
    store.add_message(sid, "user", "hello")
    store.close()
    target = tmp_path / "out.md"
    target.mkdir() if kind == "folder" else os.mkfifo(target)
    rc = main(["sessions", "export", sid, "-o", str(target), "--db", str(db), *(["--force"] if force else [])])
    err = capsys.readouterr().err
    assert rc == 2 and "not a regular file" in err and "choose a file path" in err
    assert "--force" not in err and "never overwrite" not in err


@pytest.mark.parametrize("digits", [15, 16, 30, 500])
@pytest.mark.parametrize("template", ["serve llama 3.1 8b to {n} users", "{n} concurrent users on qwen 2.5 7b",
                                      "给{n}个用户部署llama 3.1 8b", "llama 3.1 8b，{n}人同时用"])
def test_a_user_count_of_many_digits_is_refused_without_a_made_up_figure(template: str, digits: int) -> None:
    from gpu_advisor.assistant.session import Conversation

    reply = str(Conversation().send(template.format(n="9" * digits)).content)
    assert "999,999" not in reply
    if 16 <= digits <= 30:  # 16+ digits are no figure: quoted whole as not used (reading.written), never cut to 15
        assert f"{'9' * digits} is outside any range" in reply or f"{'9' * digits} 超出了我能计算的任何范围" in reply
        return
    assert "9" * 15 not in reply
    assert ("more than any deployment plan" in reply) or ("超出了任何部署方案" in reply)


def test_a_large_but_readable_user_count_is_still_shown() -> None:
    from gpu_advisor.assistant.session import Conversation

    assert "2,000,000 concurrent users" in str(Conversation().send("serve llama 3.1 8b to 2000000 users").content)
