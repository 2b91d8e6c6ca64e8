"""Pilot tests of the Textual app's main flows, and snapshot tests of its screens."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input

from assistant.history import HistoryStore
from assistant.session import Conversation
from tui.app import GPUAdvisorApp
from tui.screens import ChatScreen, ConfirmScreen, HelpScreen, PromptScreen, ReplayScreen, SessionsScreen
from tui.widgets import ChatMessage, MemoryChart, PromptInput

SIZE = (120, 40)
NEWCOMER = ["fine-tune a 27B model and then let my team chat with it", "not sure", "about 15", "working hours"]


@pytest.fixture
def store(tmp_path: Path) -> HistoryStore:
    return HistoryStore(tmp_path / "history.db")


def make_app(store: HistoryStore, **kwargs) -> GPUAdvisorApp:
    return GPUAdvisorApp(store=store, preload=False, **kwargs)


async def settle(pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def say(pilot, text: str) -> None:
    prompt = pilot.app.screen.query_one(PromptInput)
    prompt.focus()
    prompt.value = text
    await pilot.press("enter")
    await settle(pilot)


def transcript_roles(app) -> list[str]:
    return [m.role for m in app.screen.query(ChatMessage)]


def seeded_store(path: Path) -> HistoryStore:
    """A store with fixed ids and times, so that screens render the same every run."""
    s = HistoryStore(path)
    conv = Conversation(s)
    for text in NEWCOMER:
        conv.send(text)
    other = Conversation(s)
    other.send("serve llama 3 70b to 50 users 24/7")
    s.conn.execute("PRAGMA foreign_keys = OFF")
    with s._write():
        for n, (old, new) in enumerate(((conv.session_id, "01JAAAAAAAAAAAAAAAAAAAAAA1"),
                                        (other.session_id, "01JAAAAAAAAAAAAAAAAAAAAAA2"))):
            stamp = f"2026-11-0{n + 1}T09:00:00.000+00:00"
            s.conn.execute("UPDATE sessions SET id = ?, created = ?, updated = ? WHERE id = ?", (new, stamp, stamp, old))
            s.conn.execute("UPDATE messages SET session_id = ?, created = ? WHERE session_id = ?", (new, stamp, old))
            s.conn.execute("UPDATE tool_calls SET session_id = ?, duration_ms = 1.0 WHERE session_id = ?", (new, old))
    s.conn.execute("PRAGMA foreign_keys = ON")
    return s


# ---------------------------------------------------------------- flows


async def test_a_newcomer_reaches_an_answer_with_quick_replies(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        buttons = {str(b.label): b for b in app.screen.query(Button)}
        await pilot.click(f"#{buttons['Fine-tune, then serve'].id}")
        await settle(pilot)
        assert transcript_roles(app) == ["user", "assistant"]
        await say(pilot, "27B")
        labels = [str(b.label) for b in app.screen.query("#choices Button")]
        assert labels == ["QLoRA (4-bit)", "LoRA (16-bit)", "Full", "Not sure"]
        not_sure = [b for b in app.screen.query("#choices Button") if str(b.label) == "Not sure"][0]
        await pilot.click(f"#{not_sure.id}")
        await settle(pilot)
        await say(pilot, "about 15")
        await say(pilot, "working hours")
        last = list(app.screen.query(ChatMessage))[-1]
        assert last.payload["kind"] == "answer"
        assert last.query_one(DataTable).row_count >= 3
        assert len(last.query(MemoryChart)) == 2
        assert not app.screen.query("#choices Button")
        session_id = app.screen.conversation.session_id
    saved = store.messages(session_id)
    assert [m["role"] for m in saved] == ["user", "assistant"] * 5
    assert saved[-1]["payload"]["gpu_advisor"]["kind"] == "answer"


async def test_typing_a_correction_updates_the_answer(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve qwen2.5-7b to 5 users working hours")
        await say(pilot, "actually 70B")
        last = list(app.screen.query(ChatMessage))[-1]
        assert last.payload["kind"] == "answer"
        assert "_Updated for: model._" in last.text
        assert app.screen.conversation.state["profile"]["model"] == "70B"


async def test_input_history_recalls_earlier_messages(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "hi")
        await say(pilot, "serve qwen2.5-7b")
        prompt = app.screen.query_one(PromptInput)
        await pilot.press("up")
        assert prompt.value == "serve qwen2.5-7b"
        await pilot.press("up")
        assert prompt.value == "hi"
        await pilot.press("down", "down")
        assert prompt.value == ""


async def test_resume_continues_a_saved_session(store):
    conv = Conversation(store)
    for text in NEWCOMER[:2]:
        conv.send(text)
    app = make_app(store, resume=conv.session_id[:12])
    async with app.run_test(size=SIZE) as pilot:
        assert transcript_roles(app) == ["user", "assistant", "user", "assistant"]
        assert [str(b.label) for b in app.screen.query("#choices Button")][0] == "1-5"
        await say(pilot, "about 15")
        await say(pilot, "working hours")
        assert list(app.screen.query(ChatMessage))[-1].payload["kind"] == "answer"
    assert len(store.messages(conv.session_id)) == 8


async def test_selecting_an_assumption_asks_that_question_again(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "fine-tune a 27B model and then let my team chat with it")
        for _ in range(3):
            await say(pilot, "not sure")
        items = app.screen.query("#assumptions ListItem")
        slots = [i.slot for i in items]
        assert "users" in slots
        app.screen.query_one("#assumptions").index = slots.index("users")
        app.screen.query_one("#assumptions").action_select_cursor()
        await pilot.pause()
        last = list(app.screen.query(ChatMessage))[-1]
        assert last.payload == {"kind": "question", "slot": "users", "choices": last.payload["choices"]}
        await say(pilot, "40 users")
        assert app.screen.conversation.state["profile"]["users"] == 40


async def test_escape_cancels_a_running_turn_and_restores_the_prompt(store, monkeypatch):
    release = threading.Event()
    real_respond = Conversation.respond

    def slow_respond(self, text, keep=None):
        release.wait(timeout=30)
        return real_respond(self, text, keep)

    monkeypatch.setattr(Conversation, "respond", slow_respond)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        prompt = app.screen.query_one(PromptInput)
        prompt.value = "serve llama 3 8b"
        await pilot.press("enter")
        await pilot.pause()
        assert transcript_roles(app) == ["user"]
        await pilot.press("escape")
        await pilot.pause()
        assert prompt.value == "serve llama 3 8b"
        assert transcript_roles(app) == []
        release.set()
        await settle(pilot)
        assert transcript_roles(app) == []
        session_id = app.screen.conversation.session_id
        assert app.screen.conversation.state == {}
    assert [m["role"] for m in store.messages(session_id)] == ["user"]


async def test_an_engine_error_becomes_a_notification(store, monkeypatch):
    def broken(self, text, keep=None):
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(Conversation, "respond", broken)
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b")
        assert any("engine exploded" in n.message for n in app._notifications)
        assert app.screen.query_one(PromptInput).value == "serve llama 3 8b"
        assert isinstance(app.screen, ChatScreen)


async def test_show_the_math_and_copy_are_one_key_away(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        await pilot.press("ctrl+e")
        await settle(pilot)
        last = list(app.screen.query(ChatMessage))[-1]
        assert last.text.startswith("## The math behind")
        await pilot.press("ctrl+y")
        assert app.clipboard.startswith("## The math behind")


async def test_sessions_screen_searches_as_you_type_and_opens(tmp_path):
    store = seeded_store(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SessionsScreen)
        table = screen.query_one(DataTable)
        assert table.row_count == 2
        assert [r.id for r in screen.rows] == ["01JAAAAAAAAAAAAAAAAAAAAAA2", "01JAAAAAAAAAAAAAAAAAAAAAA1"]
        await pilot.press("l", "l", "a", "m", "a")
        await pilot.pause()
        assert screen.query_one("#search", Input).value == "llama"
        assert [r.id for r in screen.rows] == ["01JAAAAAAAAAAAAAAAAAAAAAA2"]
        screen.query_one(DataTable).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChatScreen)
        assert app.screen.conversation.session_id == "01JAAAAAAAAAAAAAAAAAAAAAA2"
        assert transcript_roles(app) == ["user", "assistant"]


async def test_replay_steps_forward_and_back(tmp_path):
    store = seeded_store(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ReplayScreen(store, "01JAAAAAAAAAAAAAAAAAAAAAA1"))
        await pilot.pause()
        screen = app.screen
        assert screen.position == 1
        await pilot.press("right", "right", "right")
        assert screen.position == 4
        await pilot.press("left")
        assert screen.position == 3
        assert len(screen.query(ChatMessage)) == 3
        await pilot.press("end")
        assert screen.position == 8
        assert "recommend" in str(screen.query_one("#calls").render())


async def test_export_writes_a_report_and_never_overwrites(tmp_path):
    store = seeded_store(tmp_path / "h.db")
    app = make_app(store)
    target = tmp_path / "report.md"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert target.read_text(encoding="utf-8").startswith("# serve llama 3 70b to 50 users 24/7")
        target.write_text("keep me", encoding="utf-8")
        await pilot.press("ctrl+o")
        await pilot.pause()
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert target.read_text(encoding="utf-8") == "keep me"
        json_target = tmp_path / "s.json"
        await pilot.press("ctrl+o")
        await pilot.pause()
        app.screen.query_one(Input).value = str(json_target)
        await pilot.press("enter")
        await pilot.pause()
        assert json.loads(json_target.read_text(encoding="utf-8"))["format"] == "gpu-advisor-session"


async def test_delete_asks_for_confirmation(tmp_path):
    store = seeded_store(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert store.count_sessions() == 2
        await pilot.press("delete")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert store.count_sessions() == 1
        assert app.screen.query_one(DataTable).row_count == 1


async def test_help_lists_every_key_and_theme_toggles(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        dark = app.current_theme.dark
        app.action_toggle_theme()
        assert app.current_theme.dark is not dark


def test_every_binding_has_an_id_and_a_description():
    from tui import bindings

    all_bindings = (bindings.APP_BINDINGS + bindings.CHAT_BINDINGS + bindings.SESSIONS_BINDINGS
                    + bindings.REPLAY_BINDINGS)
    assert all(b.id and b.description for b in all_bindings)
    assert len({b.id for b in all_bindings}) == len(all_bindings)


# ---------------------------------------------------------------- snapshots


async def steady(pilot) -> None:
    """A blinking cursor would make screenshots differ from run to run."""
    for widget in pilot.app.screen.query(Input):
        widget.cursor_blink = False
    await pilot.pause()


def test_snapshot_chat_with_a_question(snap_compare, store):
    async def run_before(pilot):
        await say(pilot, "fine-tune a 27B model and then let my team chat with it")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZE, run_before=run_before)


def test_snapshot_chat_with_an_answer_table_and_chart(snap_compare, store):
    async def run_before(pilot):
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        pilot.app.screen.query_one("#transcript").scroll_home(animate=False)
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZE, run_before=run_before)


def test_snapshot_sessions_screen(snap_compare, tmp_path):
    store = seeded_store(tmp_path / "h.db")

    async def run_before(pilot):
        await pilot.press("ctrl+s")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZE, run_before=run_before)


def test_snapshot_replay(snap_compare, tmp_path):
    store = seeded_store(tmp_path / "h.db")

    async def run_before(pilot):
        pilot.app.push_screen(ReplayScreen(store, "01JAAAAAAAAAAAAAAAAAAAAAA1"))
        await pilot.pause()
        await pilot.press("right", "right")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZE, run_before=run_before)


# ---------------------------------------------------------------- hostile stored text

HOSTILE = "[/INST] fine-tune a 27B model [/] [/b] [bold red]x[/] [link=file:///etc/passwd]y \x1b]52;c;aGk=\x07"


def hostile_store(path: Path) -> tuple[HistoryStore, str, str]:
    """A session whose title and messages are chat-template markup, and one whose message payload
    and state are damaged."""
    s = HistoryStore(path)
    marked = Conversation(s)
    marked.send(HOSTILE)
    s.rename(marked.session_id, HOSTILE)
    damaged = s.create_session("[/] damaged")
    s.add_message(damaged, "user", "serve llama 3 70b")
    s.save_reply(damaged, "[/b] an answer", {"gpu_advisor": {"kind": "answer", "table": {"columns": ["[/]"],
                 "rows": [["[/b]", 1]]}, "results": {"serving_memory": "nope"}}}, {"profile": {"users": "many"},
                 "pending": 3, "results": {"recommend": None}}, [])
    s.conn.execute("UPDATE messages SET payload = '{broken' WHERE session_id = ? AND role = 'user'", (damaged,))
    return s, marked.session_id, damaged


async def test_hostile_titles_and_messages_show_as_text_and_resume(tmp_path):
    store, marked, damaged = hostile_store(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SessionsScreen) and screen.query_one(DataTable).row_count == 2
        for key in ("[", "/"):  # searching with markup characters
            await pilot.press(key)
        await pilot.pause()
        screen.query_one("#search", Input).value = ""
        await pilot.pause()
        for session_id in (marked, damaged):
            app.open_session(session_id)
            await pilot.pause()
            assert isinstance(app.screen, ChatScreen) and app.screen.conversation.session_id == session_id
            await say(pilot, "about 15 users")
            assert transcript_roles(app)[-2:] == ["user", "assistant"]
            await pilot.press("ctrl+s")
            await pilot.pause()
        app.push_screen(ReplayScreen(store, damaged))
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        await pilot.press("delete")  # the confirmation names the title
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert store.count_sessions() == 1


async def test_a_hostile_session_resumes_at_start(tmp_path):
    store, marked, _damaged = hostile_store(tmp_path / "h.db")
    app = make_app(store, resume=marked)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChatScreen)
        assert HOSTILE.split("\x1b")[0].strip() in app.screen.sub_title or app.screen.sub_title
