"""The history store: migrations from every earlier schema, newer and corrupt files, two writers at
once, a process killed mid-turn, FTS with raw user text, and the session operations."""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import gpu_advisor.assistant.history as history
from gpu_advisor.assistant.history import DatabaseTooNew, HistoryError, HistoryStore

HELPER = Path(__file__).resolve().parent / "helpers_history.py"
ROOT = Path(__file__).resolve().parent.parent
ALL_MIGRATIONS = [name for name, _ in history.MIGRATIONS]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def table_names(store: HistoryStore) -> set[str]:
    return {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


@pytest.fixture
def fake_clock(monkeypatch):
    """Strictly increasing timestamps, so "newest first" does not depend on the millisecond clock."""
    ticks = iter(range(1, 1_000_000))
    monkeypatch.setattr(history.common, "now", lambda: f"2030-01-01T00:00:00.{next(ticks):06d}+00:00")


def add_turn(store: HistoryStore, session_id: str, user: str, reply: str, tool: str = "recommend") -> None:
    store.add_message(session_id, "user", user)
    store.save_reply(session_id, reply, {"gpu_advisor": {"kind": "answer"}}, {"profile": {"users": 3}},
                     [{"tool": tool, "arguments": {"model": "27B"}, "result": {"best": "a100"},
                       "duration_ms": 1.5}])


# ---------------------------------------------------------------- migrations


def test_new_database_gets_every_migration_the_tables_and_fts(tmp_path):
    s = HistoryStore(tmp_path / "new" / "history.db")  # the folder is created too
    assert s.notice is None
    assert s.applied_migrations() == sorted(ALL_MIGRATIONS)
    tables = {"_migrations", "sessions", "messages", "tool_calls", "messages_fts", "sessions_fts"}
    assert tables <= table_names(s)
    assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    sid = s.create_session("Capacity plan")
    s.add_message(sid, "user", "serve llama to twenty people")
    assert [r.id for r in s.search("twenty")] == [sid]
    assert [r.id for r in s.search("capacity")] == [sid]
    s.close()


def test_reopening_applies_nothing_twice(tmp_path):
    path = tmp_path / "history.db"
    HistoryStore(path).close()
    first = sqlite3.connect(path).execute("SELECT name, applied FROM _migrations ORDER BY name").fetchall()
    HistoryStore(path).close()
    again = sqlite3.connect(path).execute("SELECT name, applied FROM _migrations ORDER BY name").fetchall()
    assert first == again and len(first) == len(ALL_MIGRATIONS)


@pytest.mark.parametrize("k", range(len(history.MIGRATIONS)))
def test_upgrade_from_every_earlier_schema(tmp_path, monkeypatch, k):
    path = tmp_path / "history.db"
    full = list(history.MIGRATIONS)
    monkeypatch.setattr(history.migrations, "MIGRATIONS", full[:k])
    old = HistoryStore(path)
    assert old.applied_migrations() == sorted(ALL_MIGRATIONS[:k])
    sid = None
    if k >= 1:  # from the first migration on there are tables to hold data
        sid = old.create_session("Quarterly capacity plan")
        old.add_message(sid, "user", "how much memory does llama need")
        old.add_message(sid, "assistant", "about sixteen gigabytes")
    old.close()

    monkeypatch.setattr(history.migrations, "MIGRATIONS", full)
    new = HistoryStore(path)
    assert new.notice is None
    assert new.applied_migrations() == sorted(ALL_MIGRATIONS)
    assert {"sessions", "messages", "tool_calls", "messages_fts", "sessions_fts"} <= table_names(new)
    if sid is not None:
        texts = [m["text"] for m in new.messages(sid)]
        assert texts == ["how much memory does llama need", "about sixteen gigabytes"]
        assert [r.id for r in new.search("llama")] == [sid]  # rows written before the FTS index existed
        assert [r.id for r in new.search("sixteen")] == [sid]
        assert [r.id for r in new.search("quarterly")] == [sid]  # the title index too
    # and the upgraded database keeps working
    sid2 = new.create_session("after the upgrade")
    new.add_message(sid2, "user", "zebra")
    assert [r.id for r in new.search("zebra")] == [sid2]
    new.close()


def test_database_from_a_newer_version_is_refused_untouched(tmp_path):
    path = tmp_path / "history.db"
    s = HistoryStore(path)
    sid = s.create_session("keep me")
    s.add_message(sid, "user", "hello")
    s.conn.execute("INSERT INTO _migrations (name, applied) VALUES ('999_from_the_future', 'x')")
    s.close()
    before = sha256(path)
    with pytest.raises(DatabaseTooNew) as err:
        HistoryStore(path)
    assert "newer" in str(err.value) and "999_from_the_future" in str(err.value)
    assert isinstance(err.value, HistoryError)
    assert sha256(path) == before
    assert not list(tmp_path.glob("history.db.damaged-*"))


def test_newer_database_in_rollback_journal_mode_is_left_byte_for_byte(tmp_path):
    path = tmp_path / "history.db"
    s = HistoryStore(path)
    s.conn.execute("INSERT INTO _migrations (name, applied) VALUES ('999_from_the_future', 'x')")
    s.close()
    raw = sqlite3.connect(path)
    raw.execute("PRAGMA journal_mode = DELETE")  # a newer version may well choose another journal mode
    raw.close()
    before = sha256(path)
    with pytest.raises(DatabaseTooNew):
        HistoryStore(path)
    assert sha256(path) == before


# ---------------------------------------------------------------- corrupt files


def _valid_database_bytes(path: Path) -> bytes:
    s = HistoryStore(path)
    sid = s.create_session("t")
    for i in range(200):
        s.add_message(sid, "user", f"hello world {i} " * 20)
    s.close()
    return path.read_bytes()


@pytest.mark.parametrize("content", [b"not a database\n" * 100, random.Random(1234).randbytes(8192),
                                     b'{"sessions": []}\n', b"SQLite"])
def test_a_file_that_is_not_an_sqlite_database_is_refused_untouched(tmp_path, content):
    path = tmp_path / "notes.json"
    path.write_bytes(content)
    with pytest.raises(HistoryError, match="not a GPU Advisor history database"):
        HistoryStore(path)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.json"]  # nothing moved, nothing created


def test_an_empty_file_becomes_a_new_database(tmp_path):
    path = tmp_path / "history.db"
    path.write_bytes(b"")
    s = HistoryStore(path)
    assert s.notice is None and s.count_sessions() == 0
    s.close()


@pytest.mark.parametrize("kind", ["mangled-page", "truncated", "bad-header"])
def test_corrupt_file_is_moved_aside_and_a_new_store_started(tmp_path, kind):
    path = tmp_path / "history.db"
    if kind == "bad-header":  # the SQLite header, then garbage
        original = history.SQLITE_MAGIC + b"not a database\n" * 100
    elif kind == "mangled-page":  # a real database with one B-tree page overwritten
        data = bytearray(_valid_database_bytes(tmp_path / "source.db"))
        data[4096 * 3: 4096 * 3 + 2048] = random.Random(7).randbytes(2048)
        original = bytes(data)
    else:  # a real database cut short
        original = _valid_database_bytes(tmp_path / "source.db")[: 4096 * 5]
    path.write_bytes(original)

    s = HistoryStore(path)
    assert s.notice, "the caller must be told the file was moved"
    moved = list(tmp_path.glob("history.db.damaged-*"))
    moved = [p for p in moved if not p.name.endswith(("-wal", "-shm"))]
    assert len(moved) == 1
    assert str(moved[0]) in s.notice
    assert moved[0].read_bytes() == original
    # what SQLite could still read was recovered into the new database, and the notice says how much
    recovered = [m["text"] for r in s.list_sessions() for m in s.messages(r.id)]
    assert set(recovered) <= {f"hello world {i} " * 20 for i in range(200)}
    assert f"{len(recovered)} message" in s.notice or (not recovered and "no further message" in s.notice)
    if kind == "mangled-page":
        assert len(recovered) > 100  # one damaged page does not cost the whole table
    # the new database works
    sid = s.create_session("fresh start")
    s.add_message(sid, "user", "after the crash")
    assert [r.id for r in s.search("crash")] == [sid]
    s.close()
    assert HistoryStore(path).notice is None  # and is not moved again


def test_second_corrupt_file_does_not_overwrite_the_first(tmp_path):
    path = tmp_path / "history.db"
    first, second = history.SQLITE_MAGIC + b"first bad file" * 50, history.SQLITE_MAGIC + b"second bad file" * 50
    path.write_bytes(first)
    HistoryStore(path).close()
    path.unlink()
    for side in ("-wal", "-shm"):
        Path(str(path) + side).unlink(missing_ok=True)
    path.write_bytes(second)
    HistoryStore(path).close()
    moved = sorted(p for p in tmp_path.glob("history.db.damaged-*") if not p.name.endswith(("-wal", "-shm")))
    assert sorted(p.read_bytes() for p in moved) == sorted([first, second])


def test_a_directory_given_as_the_database_is_not_moved(tmp_path):
    folder = tmp_path / "Documents"
    folder.mkdir()
    (folder / "thesis.txt").write_text("precious")
    with pytest.raises(HistoryError):
        HistoryStore(folder)
    assert (folder / "thesis.txt").read_text() == "precious"
    assert not list(tmp_path.glob("Documents.damaged-*"))


# ---------------------------------------------------------------- processes


def _helper(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(HELPER), *args], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def test_two_processes_writing_at_once(tmp_path):
    path = tmp_path / "history.db"
    s = HistoryStore(path)
    shared = s.create_session("shared")
    s.close()
    procs = [_helper("writer", str(path), shared, "200", tag) for tag in ("a", "b")]
    try:
        for p in procs:  # both are open and waiting before either writes
            assert p.stdout.readline().strip() == "ready", p.stderr.read()
        for p in procs:
            p.stdin.write("go\n")
            p.stdin.flush()
        results = [p.communicate(timeout=120) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    for p, (out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, err
        assert "database is locked" not in err and "busy" not in err, err
        assert out.strip().endswith("done 200")
    s = HistoryStore(path)
    rows = s.conn.execute("SELECT session_id, seq FROM messages").fetchall()
    assert len(rows) == 400
    assert len(set(rows)) == 400
    assert sorted(seq for _, seq in rows) == list(range(1, 401))
    texts = [m["text"] for m in s.messages(shared)]
    for tag in ("a", "b"):  # each writer's messages kept their own order
        mine = [t for t in texts if t.endswith(f"writer {tag}")]
        assert mine == [f"message {i} from writer {tag}" for i in range(200)]
    s.close()


def test_open_waits_for_a_writer_on_a_database_not_yet_in_wal_mode(tmp_path):
    path = tmp_path / "history.db"
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")  # what another process does while it creates the file
    holder.execute("CREATE TABLE being_created (x)")
    outcome: dict = {}

    def open_store() -> None:
        try:
            outcome["store"] = HistoryStore(path)
        except Exception as exc:  # noqa: BLE001
            outcome["error"] = exc

    t = threading.Thread(target=open_store)
    t.start()
    # A correct store is now waiting on its 30 s busy timeout; a broken one has already failed.
    # Either way the lock is released next, so this outcome does not depend on timing when fixed.
    t.join(timeout=3)
    holder.execute("COMMIT")
    holder.close()
    t.join()
    assert "error" not in outcome, outcome.get("error")
    outcome["store"].close()


def test_killed_mid_turn_keeps_the_committed_user_message(tmp_path):
    path = tmp_path / "history.db"
    p = _helper("crash-turn", str(path), "fine-tune a 27B model")
    try:
        line = p.stdout.readline().strip()
        assert line.startswith("saved "), p.stderr.read()
        session_id = line.split()[1]
        p.kill()  # SIGKILL: no cleanup, no commit at exit
        p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == -9
    s = HistoryStore(path)
    assert s.notice is None
    assert [(m["role"], m["text"]) for m in s.messages(session_id)] == [("user", "fine-tune a 27B model")]
    assert s.session(session_id)["title"] == "fine-tune a 27B model"
    assert [r.id for r in s.search("fine-tune")] == [session_id]
    # the session can still be resumed and continued
    from gpu_advisor.assistant.session import Conversation

    conv = Conversation.resume(s, session_id)
    reply = conv.send("fine-tune a 27B model")
    assert reply.content
    assert [m["role"] for m in s.messages(session_id)] == ["user", "user", "assistant"]
    s.close()


# ---------------------------------------------------------------- search


@pytest.mark.parametrize("query", ['"', 'AND OR', 'foo*', "(x", "c++", "NEAR(a b)", "-x", "^a", "*", "'",
                                   "title:x", "a:b", '""', "OR", "NOT", "AND", "{x}", "[x]", "x AND", "  "])
def test_search_takes_raw_user_text(store, query):
    sid = store.create_session("c++ AND (x) tuning")
    store.add_message(sid, "user", 'what about "quotes", foo* and c++ AND OR NOT?')
    result = store.search(query)
    assert isinstance(result, list)


def test_search_treats_operators_as_words(store):
    a = store.create_session("one")
    store.add_message(a, "user", "apples AND oranges")
    b = store.create_session("two")
    store.add_message(b, "user", "apples only")
    assert [r.id for r in store.search("apples AND oranges")] == [a]  # all words must match
    assert {r.id for r in store.search("apples")} == {a, b}
    assert store.search("oranges OR apples") == []  # 'OR' is a word, and no message has it


def test_search_with_a_nul_character(store):
    store.create_session("x")
    assert store.search("a\x00b") == []


def test_search_matches_titles_and_messages(store, fake_clock):
    titled = store.create_session("Quarterly capacity plan")
    store.add_message(titled, "user", "hello there")
    body = store.create_session("Something else")
    store.add_message(body, "user", "our quarterly budget is small")
    found = store.search("quarterly")
    assert sorted(r.id for r in found) == sorted([body, titled])  # each once
    assert "[quarterly]" in next(r for r in found if r.id == body).snippet.lower()
    assert [r.id for r in store.search("capacity")] == [titled]
    assert store.search("nothing-like-this") == []
    assert [r.id for r in store.search("")] == [body, titled]  # empty query lists sessions
    assert len(store.search("quarterly", limit=1)) == 1


def test_search_ranks_by_relevance_then_newest(store, fake_clock):
    once = store.create_session("one")
    store.add_message(once, "user", "qlora " + "and some other words about the plan " * 6)
    often = store.create_session("two")
    store.add_message(often, "user", "qlora qlora qlora: a qlora of a qlora")
    titled = store.create_session("A qlora plan")
    store.add_message(titled, "user", "qlora " + "and some other words about the plan " * 6)
    same = [store.create_session(f"same {n}") for n in range(3)]
    for sid in same:
        store.add_message(sid, "user", "serve mistral")
    ranked = [r.id for r in store.search("qlora")]
    assert ranked[0] in (often, titled) and ranked[-1] == once  # more mentions, or also the title, rank higher
    assert ranked.index(titled) < ranked.index(once)  # the same message, and a title match on top
    assert [r.id for r in store.search("mistral")] == same[::-1]  # equal relevance: newest first
    assert [r.id for r in store.search("mistral", limit=2)] == same[::-1][:2]
    assert all(r.messages == 1 for r in store.search("qlora"))


def test_search_of_a_word_in_every_message_is_bounded_and_newest_first(store, monkeypatch):
    monkeypatch.setattr(history.search, "CANDIDATES", 5)
    sids = [store.create_session(f"s{n}") for n in range(12)]
    for sid in sids:
        store.add_message(sid, "user", "the same words in every message")
    found = [r.id for r in store.search("the")]
    assert found == sids[::-1][:5]  # only the newest candidates are ranked


def test_search_finds_a_short_chinese_word_at_the_end_of_a_text(store):
    sid = store.create_session("x")
    store.add_message(sid, "user", "我想微调")
    one = store.create_session("y")
    store.add_message(one, "user", "调")
    assert [r.id for r in store.search("微调")] == [sid]
    assert {r.id for r in store.search("调")} == {sid, one}
    assert "[微调]" in store.search("微调")[0].snippet


def test_search_finds_chinese_words_inside_sentences(store):
    sid = store.create_session("我想微调一个模型")
    store.add_message(sid, "user", "我想微调一个27B的模型，然后给团队用")
    other = store.create_session("another")
    store.add_message(other, "user", "serve llama to twenty people")
    assert [r.id for r in store.search("微调")] == [sid]  # two characters: below a trigram
    assert [r.id for r in store.search("微调一个")] == [sid]  # through the trigram index
    assert [r.id for r in store.search("团队 27B")] == [sid]  # mixed with a spaced word
    assert "[微调]" in store.search("微调")[0].snippet
    assert store.search("训练") == []


def test_search_ignores_the_suggestion_line_that_ends_every_answer(store):
    from gpu_advisor.assistant.catalog import say

    plain = store.create_session("plain")
    store.add_message(plain, "user", "serve llama 3 8b")
    store.save_reply(plain, "Rent one L4.\n\n" + say("en", "answer.footer"), {}, {}, [])
    asked = store.create_session("asked")
    store.add_message(asked, "user", "what about int4?")
    assert [r.id for r in store.search("int4")] == [asked]
    assert [r.id for r in store.search("rent")] == [plain]


def test_upgrade_indexes_chinese_and_strips_suggestions_of_old_rows(tmp_path, monkeypatch):
    from gpu_advisor.assistant.catalog import say

    path = tmp_path / "history.db"
    full = list(history.MIGRATIONS)
    monkeypatch.setattr(history.migrations, "MIGRATIONS", full[:3])
    old = HistoryStore(path)
    sid = old.create_session("old")
    old.add_message(sid, "user", "我想微调一个模型")
    old.add_message(sid, "assistant", "租一张卡。\n\n" + say("en", "answer.footer"))
    old.close()
    monkeypatch.setattr(history.migrations, "MIGRATIONS", full)
    new = HistoryStore(path)
    assert [r.id for r in new.search("微调一个")] == [sid]
    assert new.search("int4") == []
    assert [m["text"] for m in new.messages(sid)][1].endswith(say("en", "answer.footer"))  # the text is kept whole


def test_withdrawing_the_only_message_removes_the_session(store):
    sid = store.create_session("cancelled")
    message_id = store.add_message(sid, "user", "serve llama")
    assert store.withdraw_message(message_id) is True
    assert store.count_sessions() == 0 and store.search("llama") == []


def test_withdrawing_a_later_message_keeps_the_session(store):
    sid = store.create_session("kept")
    add_turn(store, sid, "serve llama", "rent an L4")
    message_id = store.add_message(sid, "user", "actually 70B")
    assert store.withdraw_message(message_id) is False
    assert [m["text"] for m in store.messages(sid)] == ["serve llama", "rent an L4"]


# ---------------------------------------------------------------- sessions


def test_list_sessions_newest_first(store, fake_clock):
    a = store.create_session("a")
    b = store.create_session("b")
    c = store.create_session("c")
    assert [r.id for r in store.list_sessions()] == [c, b, a]
    store.add_message(a, "user", "bump")  # a message makes a session the most recent
    rows = store.list_sessions()
    assert [r.id for r in rows] == [a, c, b]
    assert [r.messages for r in rows] == [1, 0, 0]
    assert [r.id for r in store.list_sessions(limit=1, offset=1)] == [c]
    assert store.count_sessions() == 3


def test_rename(store):
    sid = store.create_session("old title")
    store.add_message(sid, "user", "x")
    store.rename(sid[:12], "  New\n  name\tfor it ")
    assert store.session(sid)["title"] == "New name for it"
    assert [r.id for r in store.search("name")] == [sid]
    assert store.search("old") == []  # the title index follows the rename
    store.rename(sid, "x" * 500)
    assert len(store.session(sid)["title"]) == 200
    with pytest.raises(HistoryError):
        store.rename(sid, "   ")


def test_delete_removes_messages_tool_calls_and_index(store):
    keep = store.create_session("keep")
    add_turn(store, keep, "keep this unicorn", "kept")
    gone = store.create_session("gone")
    add_turn(store, gone, "delete this unicorn", "deleted")
    assert len(store.tool_calls(gone)) == 1
    store.delete(gone)
    count = lambda table: store.conn.execute(  # noqa: E731
        f"SELECT count(*) FROM {table} WHERE session_id = ?", (gone,)).fetchone()[0]
    assert count("messages") == 0 and count("tool_calls") == 0
    assert store.conn.execute("SELECT count(*) FROM sessions WHERE id = ?", (gone,)).fetchone()[0] == 0
    assert [r.id for r in store.search("unicorn")] == [keep]
    assert [r.id for r in store.list_sessions()] == [keep]
    assert len(store.messages(keep)) == 2 and len(store.tool_calls(keep)) == 1
    with pytest.raises(HistoryError):
        store.messages(gone)


def test_save_reply_commits_reply_tool_calls_state_and_title(store):
    sid = store.create_session("t")
    store.add_message(sid, "user", "q")
    mid = store.save_reply(sid, "answer", {"gpu_advisor": {"kind": "answer"}},
                           {"profile": {"users": 3}, "asked": []},
                           [{"tool": "recommend", "arguments": {"b": 1, "a": 2}, "result": {"ok": True},
                             "duration_ms": 2.0}], title="Renamed by reply")
    s = store.session(sid)
    assert s["title"] == "Renamed by reply"
    assert s["state"] == {"profile": {"users": 3}, "asked": []} and s["profile"] == {"users": 3}
    [m1, m2] = store.messages(sid)
    assert (m1["seq"], m1["role"], m2["seq"], m2["role"], m2["id"]) == (1, "user", 2, "assistant", mid)
    assert m2["payload"] == {"gpu_advisor": {"kind": "answer"}}
    assert store.tool_calls(sid) == [{"message_id": mid, "tool": "recommend", "arguments": {"a": 2, "b": 1},
                                      "result": {"ok": True}, "duration_ms": 2.0}]


def test_export_import_round_trip(store, tmp_path):
    sid = store.create_session("Round trip")
    add_turn(store, sid, "fine-tune a 27B model", "use an A100")
    add_turn(store, sid, "and serve it", "two L40S")
    exported = store.export_json(sid)
    assert exported["format"] == "gpu-advisor-session" and exported["version"] == 1
    new_id = store.import_json(exported)
    assert new_id != sid
    copy = store.export_json(new_id)
    strip = lambda ms: [{k: m[k] for k in ("seq", "role", "text", "payload")} for m in ms]  # noqa: E731
    assert strip(copy["messages"]) == strip(exported["messages"])
    assert copy["session"]["title"] == "Round trip"
    assert copy["session"]["profile"] == exported["session"]["profile"] == {"users": 3}
    assert copy["session"]["state"] == exported["session"]["state"]
    assert store.messages(sid) == store.messages(sid)  # the original is untouched
    assert len(store.list_sessions()) == 2
    # the copy can be imported into another database too
    other = HistoryStore(tmp_path / "other.db")
    other_id = other.import_json(exported)
    assert strip(other.export_json(other_id)["messages"]) == strip(exported["messages"])
    other.close()


def test_export_import_keeps_tool_calls(store):
    sid = store.create_session("Round trip")
    add_turn(store, sid, "fine-tune a 27B model", "use an A100")
    exported = store.export_json(sid)
    assert len(exported["tool_calls"]) == 1
    new_id = store.import_json(exported)
    assert store.export_json(new_id)["tool_calls"] == exported["tool_calls"]


@pytest.mark.parametrize("data", [None, [], "text", {"format": "something-else"}, {"messages": []},
                                  {"format": "gpu-advisor-session", "version": 2, "messages": []},
                                  {"format": "gpu-advisor-session", "version": 1,
                                   "messages": [{"role": "user"}]},
                                  {"format": "gpu-advisor-session", "version": 1, "messages": "nope"}])
def test_import_rejects_what_is_not_an_export(store, data):
    with pytest.raises(HistoryError):
        store.import_json(data)
    assert store.list_sessions() == []


def test_export_markdown(store):
    sid = store.create_session("Plan")
    add_turn(store, sid, "the question", "the answer")
    md = store.export_markdown(sid)
    assert md.startswith("# Plan\n")
    assert sid in md
    assert md.index("**You:**") < md.index("the question") < md.index("**Advisor:**") < md.index("the answer")
    assert md.endswith("the answer\n")


def test_backup_copies_and_never_overwrites(store, tmp_path):
    sid = store.create_session("backed up")
    store.add_message(sid, "user", "hello backup")
    target = store.backup(tmp_path / "backups" / "copy.db")
    assert target.exists()
    copy = HistoryStore(target)
    assert [m["text"] for m in copy.messages(sid)] == ["hello backup"]
    assert [r.id for r in copy.search("backup")] == [sid]
    copy.close()
    before = sha256(target)
    with pytest.raises(HistoryError, match="exists"):
        store.backup(target)
    assert sha256(target) == before


def test_resolve_id(store):
    a = store.create_session("a")
    b = store.create_session("b")
    assert store.resolve_id(a) == a
    common = os.path.commonprefix([a, b])  # noqa: RUF071 - the ids' common characters, not a path
    assert store.resolve_id(a[: len(common) + 1]) == a  # the shortest unambiguous prefix
    assert store.session(b[: len(common) + 1])["id"] == b
    assert common  # ULIDs of the same era share their first characters
    with pytest.raises(HistoryError, match="several"):
        store.resolve_id(common)
    with pytest.raises(HistoryError, match="no session"):
        store.resolve_id("ZZZZZZZZ")


@pytest.mark.parametrize("prefix", ["%", "_", ""])
def test_resolve_id_treats_wildcards_literally(store, prefix):
    store.create_session("the only one")
    with pytest.raises(HistoryError):
        store.resolve_id(prefix)
