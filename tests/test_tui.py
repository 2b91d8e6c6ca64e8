"""Pilot tests of the Textual app's main flows, and snapshot tests of its screens."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from pathlib import Path

import pytest
from textual.widgets import Button, DataTable, Input

from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.assistant.session import Conversation
from gpu_advisor.tui.app import GPUAdvisorApp
from gpu_advisor.tui.screens import (
    ChatScreen,
    ConfirmScreen,
    HelpScreen,
    PromptScreen,
    ReplayScreen,
    SessionsScreen,
)
from gpu_advisor.tui.widgets import ChatMessage, MemoryChart, PromptInput

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

SIZE = (120, 40)
NEWCOMER = ["fine-tune a 27B model and then let my team chat with it", "not sure", "about 15", "working hours"]


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


def label(button) -> str:
    """A quick reply's label without the number that presses it ("2 Fine-tune" -> "Fine-tune")."""
    return re.sub(r"^[1-9] ", "", str(button.label))


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
        buttons = {label(b): b for b in app.screen.query(Button)}
        await pilot.click(f"#{buttons['Fine-tune, then serve'].id}")
        await settle(pilot)
        assert transcript_roles(app) == ["user", "assistant"]
        await say(pilot, "27B")
        labels = [label(b) for b in app.screen.query("#choices Button")]
        assert labels == ["QLoRA (4-bit)", "LoRA (16-bit)", "Full", "Not sure"]
        not_sure = next(b for b in app.screen.query("#choices Button") if label(b) == "Not sure")
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
        assert next(label(b) for b in app.screen.query("#choices Button")) == "1-5"
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


@pytest.fixture
def held_turns(monkeypatch):
    """Turns wait for `release` before the engine runs, so that a test can act while one runs."""
    release = threading.Event()
    real_respond = Conversation.respond

    def slow_respond(self, text, keep=None):
        release.wait(timeout=30)
        return real_respond(self, text, keep)

    monkeypatch.setattr(Conversation, "respond", slow_respond)
    return release


async def test_escape_cancels_a_running_turn_and_restores_the_prompt(store, held_turns):
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
        held_turns.set()
        await settle(pilot)
        assert transcript_roles(app) == []
        assert app.screen.conversation.state == {} and app.screen.conversation.session_id is None
    assert store.count_sessions() == 0  # a cancelled first message leaves no session behind


async def test_a_cancelled_message_is_not_saved_and_not_shown_twice_on_resume(store, held_turns):
    held_turns.set()
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        session_id = app.screen.conversation.session_id
        held_turns.clear()
        prompt = app.screen.query_one(PromptInput)
        prompt.value = "actually 70B"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        held_turns.set()
        await settle(pilot)
        await say(pilot, "actually 70B")  # sent again, for real this time
    assert [m["text"] for m in store.messages(session_id) if m["role"] == "user"] == [
        "serve llama 3 8b to 3 users 24/7", "actually 70B"]
    app = make_app(store, resume=session_id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert transcript_roles(app) == ["user", "assistant"] * 2


async def test_the_message_shows_at_once_with_a_working_indicator(store, held_turns):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        prompt = app.screen.query_one(PromptInput)
        prompt.value = "serve llama 3 8b"
        await pilot.press("enter")
        await pilot.pause()
        assert transcript_roles(app) == ["user"]  # before the engine has answered
        assert app.screen.query_one("#working").display
        held_turns.set()
        await settle(pilot)
        assert not app.screen.query("#working")
        assert transcript_roles(app) == ["user", "assistant"]


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


async def test_show_the_math_key_keeps_a_chinese_conversation_chinese(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "给3个人全天候部署llama 3 8b")
        await pilot.press("ctrl+e")
        await settle(pilot)
        last = list(app.screen.query(ChatMessage))[-1]
        assert last.text.startswith("## ") and "计算" in last.text.split("\n")[0]


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


async def test_the_action_keys_work_from_the_search_box(tmp_path):
    store = seeded_store(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        search, table = screen.query_one("#search", Input), screen.query_one(DataTable)
        await pilot.press(*"llama 3")
        await pilot.pause()
        assert app.focused is search and [r.id for r in screen.rows] == ["01JAAAAAAAAAAAAAAAAAAAAAA2"]
        await pilot.press("left", "left", "backspace", "right", "right")  # editing keys still edit the query
        assert search.value == "llam 3"
        await pilot.press("backspace", "backspace", "a", " ", "3")
        assert search.value == "llama 3"
        await pilot.press("ctrl+k")  # re-run, not "delete to the end of the line"
        await settle(pilot)
        from gpu_advisor.tui.screens import TextScreen

        assert isinstance(app.screen, TextScreen) and search.value == "llama 3"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen) and app.screen.session_id == "01JAAAAAAAAAAAAAAAAAAAAAA2"
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is search
        await pilot.press("down")  # into the list
        assert app.focused is table and table.cursor_row == 0
        await pilot.press("up")  # and back from its first row
        assert app.focused is search
        await pilot.press("delete")  # in the box Del edits (nothing right of the cursor here)
        assert search.value == "llama 3" and isinstance(app.screen, SessionsScreen)
        status = str(screen.query_one("#session-count").render())
        assert "Ctrl+K re-run" in status and "Del delete (in the list)" in status
        await pilot.press("down", "delete")  # from the list, Del deletes (after asking)
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)


async def test_search_results_show_the_count_a_snippet_and_use_the_width(tmp_path):
    from rich.cells import cell_len

    store = seeded_store(tmp_path / "h.db")
    long_title = "Serving Llama 3 70B to fifty users around the clock for the support team, with a budget"
    store.rename("01JAAAAAAAAAAAAAAAAAAAAAA2", long_title)
    app = make_app(store)
    for size in [(80, 24), (120, 40), (200, 60)]:
        async with app.run_test(size=size) as pilot:
            await pilot.press("ctrl+s")
            await pilot.pause()
            await pilot.press(*"users")
            await pilot.pause()
            await pilot.pause()
            screen = app.screen
            table = screen.query_one(DataTable)
            assert {r.id for r in screen.rows} == {"01JAAAAAAAAAAAAAAAAAAAAAA1", "01JAAAAAAAAAAAAAAAAAAAAAA2"}
            assert table.virtual_size.width <= table.size.width, size  # the id whole, no scrollbar
            by_id = {str(table.get_row_at(n)[3]): table.get_row_at(n) for n in range(table.row_count)}
            assert str(by_id["01JAAAAAAAAAAAAAAAAAAAAAA1"][2]) == "8"  # the message count
            assert str(by_id["01JAAAAAAAAAAAAAAAAAAAAAA2"][2]) == "2"
            title_width = list(table.columns.values())[1].width
            for row in by_id.values():
                title, snippet = str(row[1]).split("\n")
                assert "users" in snippet.lower() and cell_len(snippet) <= title_width
                assert cell_len(title) <= title_width
            shown = str(by_id["01JAAAAAAAAAAAAAAAAAAAAAA2"][1]).split("\n")[0]
            # the title uses the room the date, count and id leave
            assert shown == long_title or cell_len(shown) == title_width
            assert table.size.width - sum(c.get_render_width(table) for c in table.columns.values()) <= 3
        app = make_app(store)


@contextlib.asynccontextmanager
async def replaying(tmp_path: Path, size: tuple[int, int]):
    """The app at this size with the seeded session open in the replay screen."""
    store = seeded_store(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=size) as pilot:
        app.push_screen(ReplayScreen(store, "01JAAAAAAAAAAAAAAAAAAAAAA1"))
        await pilot.pause()
        yield app, pilot


async def test_replay_steps_forward_and_back(tmp_path):
    async with replaying(tmp_path, SIZE) as (app, pilot):
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


async def test_replay_steps_add_and_take_away_one_message_and_the_status_matches(tmp_path):
    async with replaying(tmp_path, (80, 24)) as (app, pilot):
        screen = app.screen

        def shown() -> list[ChatMessage]:
            return list(screen.query(ChatMessage))

        def status() -> str:
            return str(screen.query_one("#replay-status").render())

        first = shown()[0]
        for keys, position in [(["left"], 1), (["left", "left"], 1), (["right"] * 3, 4), (["left"], 3),
                               (["right"] * 9, 8), (["home"], 1), (["end"], 8), (["home", "right"], 2)]:
            await pilot.press(*keys)
            await pilot.pause()
            assert screen.position == position, keys
            assert [m.text for m in shown()] == [m["text"] for m in screen.messages[:position]], keys
            assert f"message {position} of 8 · paused" in status(), keys
            assert shown()[0] is first  # a step adds or takes away messages; the transcript is not rebuilt
        await pilot.press("end", "space")  # play from the end starts again at the first message
        await pilot.pause()
        # playing steps on a timer: on a loaded machine one step may already have passed before this look
        position = screen.position
        assert position in (1, 2) and len(shown()) == position and f"message {position} of 8 · playing" in status()
        await pilot.press("space")
        assert f"message {screen.position} of 8 · paused" in status() and screen.position <= 3


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
        assert target.read_text(encoding="utf-8").startswith("# Serve Llama 3 70B to 50 users")
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
    from gpu_advisor.tui import bindings

    all_bindings = (bindings.APP_BINDINGS + bindings.CHAT_BINDINGS + bindings.SESSIONS_BINDINGS
                    + bindings.REPLAY_BINDINGS)
    assert all(b.id and b.description for b in all_bindings)
    assert len({b.id for b in all_bindings}) == len(all_bindings)


# ---------------------------------------------------------------- keyboard, small windows


def in_view(transcript, widget) -> bool:
    """The first line of `widget` is inside the transcript's visible part (screen coordinates)."""
    region, visible = widget.region, transcript.region
    return region.height > 0 and visible.y <= region.y < visible.bottom


async def test_the_transcript_scrolls_from_the_input(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        transcript = app.screen.query_one("#transcript")
        prompt = app.screen.query_one(PromptInput)
        assert transcript.max_scroll_y > 0
        await pilot.press("ctrl+end")
        assert transcript.scroll_y == transcript.max_scroll_y
        await pilot.press("pageup")
        assert transcript.scroll_y < transcript.max_scroll_y
        await pilot.press("ctrl+home")
        assert transcript.scroll_y == 0
        await pilot.press("pagedown")
        assert transcript.scroll_y > 0
        assert app.focused is prompt  # the input kept the focus all along


async def test_a_new_answer_is_shown_from_its_top(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        await pilot.press("ctrl+e")
        await settle(pilot)
        await pilot.pause()
        transcript = app.screen.query_one("#transcript")
        math = list(app.screen.query(ChatMessage))[-1]
        assert math.text.startswith("## The math behind")
        assert math.size.height > transcript.scrollable_content_region.height  # longer than the window
        assert in_view(transcript, math)
        assert in_view(transcript, math.query_one("Markdown"))  # more than the "Advisor" label


async def test_a_pasted_paragraph_is_kept_whole_and_sent_as_one_message(store):
    from textual import events

    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = app.screen.query_one(PromptInput)
        app.post_message(events.Paste("fine-tune a 27B model\nand then\nlet my team chat with it"))  # as a terminal sends it
        await pilot.pause()
        assert prompt.value == "fine-tune a 27B model\nand then\nlet my team chat with it"
        await pilot.press("ctrl+j")
        await pilot.press(*"24/7")
        assert prompt.value.endswith("chat with it\n24/7")
        await pilot.press("enter")
        await settle(pilot)
        assert store.messages(app.screen.conversation.session_id)[0]["text"] == \
            "fine-tune a 27B model\nand then\nlet my team chat with it\n24/7"


async def test_tab_lands_on_the_quick_replies_and_arrows_and_numbers_choose(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        buttons = list(app.screen.query("#choices Button"))
        await pilot.press("tab")
        assert app.focused is buttons[0]
        await pilot.press("right")
        assert app.focused is buttons[1]
        await pilot.press("left", "left")
        assert app.focused is buttons[-1]
        await pilot.press("4")  # "4 Fine-tune, then serve"
        await settle(pilot)
        assert store.messages(app.screen.conversation.session_id)[0]["text"] == buttons[3].choice_value
        assert label(buttons[3]) == "Fine-tune, then serve"


async def test_an_empty_assumption_list_is_not_in_the_tab_order(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.screen.query_one("#assumptions").can_focus
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        assert app.screen.query_one("#assumptions").can_focus


async def test_the_assumption_list_highlights_its_first_item_when_it_gains_the_focus(store):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        assumptions = app.screen.query_one("#assumptions")
        for _ in range(6):
            await pilot.press("tab")
            if app.focused is assumptions:
                break
        await pilot.pause()
        assert app.focused is assumptions
        first = app.screen.query("#assumptions ListItem").first()
        assert assumptions.index == 0 and assumptions.highlighted_child is first and first.has_class("-highlight")
        await pilot.press("down")
        assert assumptions.index == 1


async def test_an_assumption_without_a_question_is_changed_from_the_panel(store):
    from gpu_advisor.tui.screens import ChoiceScreen

    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        assumptions = app.screen.query_one("#assumptions")
        slots = [i.slot for i in app.screen.query("#assumptions ListItem")]
        assumptions.index = slots.index("context")
        assumptions.action_select_cursor()
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("3")  # 32k tokens
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        assert app.screen.conversation.state["profile"]["context"] == 32768


def test_every_panel_change_is_understood_by_the_reader():
    from gpu_advisor.tui.changes import CHANGES

    base = Conversation()
    for text in ["fine-tune a 27B model and then let my team chat with it", "not sure", "not sure", "not sure"]:
        base.send(text)
    for slot, choices in CHANGES.items():
        for _label, phrase in choices:
            conv = Conversation()
            conv.messages, conv.state = list(base.messages), json.loads(json.dumps(base.state))
            conv.send(phrase)
            assert slot not in conv.state["defaulted"] or conv.state["profile"].get(slot) == \
                base.state["profile"].get(slot), (slot, phrase)
            assert conv.state["profile"].get(slot) is not None, (slot, phrase)


async def test_the_side_panel_folds_below_110_columns_and_f3_shows_it(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        side = app.screen.query_one("#side")
        assert not side.display or side.region.width == 0
        await pilot.press("f3")
        await pilot.pause()
        assert side.region.width > 0
    app = make_app(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.screen.query_one("#side").region.width > 0
        await pilot.press("f3")
        await pilot.pause()
        assert app.screen.query_one("#side").region.width == 0


async def test_the_side_panel_headings_fit_at_80_columns_and_the_panel_grows_on_wide_screens(store):
    from rich.cells import cell_len

    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "fine-tune a 27B model and then let my team chat with it")
        await say(pilot, "not sure")
        await pilot.press("f3")
        await pilot.pause()
        titles = list(app.screen.query(".panel-title"))
        assert [str(t.content) for t in titles] == ["What I know", "Assumptions (select to change)"]
        for title in titles:
            assert title.size.height == 1 and title.content_region.width >= cell_len(str(title.content))
    app = make_app(store)
    async with app.run_test(size=(200, 60)) as pilot:
        await say(pilot, "fine-tune a 27B model and then let my team chat with it")
        await say(pilot, "not sure")
        await pilot.pause()
        side, profile = app.screen.query_one("#side"), app.screen.query_one("#profile")
        lines = str(profile.content).split("\n")
        assert any("fine-tuning, then serving" in line for line in lines)
        assert profile.size.height == len(lines)  # no line wraps
        assert side.outer_size.width > 36
        items = list(app.screen.query("#assumptions ListItem"))
        assert items and all(item.size.height == 1 for item in items if cell_len(item.words) <= 44)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert side.outer_size.width == 36


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_options_table_fits_and_keeps_the_price(store, size):
    app = make_app(store)
    async with app.run_test(size=size) as pilot:
        await say(pilot, "fine-tune a 27B model and then let my team chat with it")
        for _ in range(3):
            await say(pilot, "not sure")
        await pilot.pause()
        answer = list(app.screen.query(ChatMessage))[-1]
        table = answer.query_one(DataTable)
        labels = [str(c.label) for c in table.columns.values()]
        assert labels[0] == "option" and labels[-1] in ("per hour", "$/h")
        assert table.virtual_size.width <= table.size.width  # no column cut off at the right
        assert any("$" in str(table.get_row_at(0)[i]) for i in range(len(labels)))


def table_lines(table) -> list[str]:
    """The lines a DataTable draws now (its header first)."""
    return ["".join(segment.text for segment in table.render_line(y)) for y in range(table.size.height)]


async def test_answer_tables_are_laid_out_again_on_every_resize(store):
    app = make_app(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        for size in [(80, 24), (120, 40), (200, 60), (80, 24), (200, 60), (120, 40)]:
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            table = list(app.screen.query(ChatMessage))[-1].query_one(DataTable)
            assert table.virtual_size.width <= table.size.width, size
            lines = table_lines(table)
            for n in range(table.row_count):
                cells = [str(c) for c in table.get_row_at(n)]
                assert cells[0] in lines[n + 1] and cells[-1] in lines[n + 1], (size, lines[n + 1])  # never cut
                assert "$" in cells[-1]


def test_fit_table_shortens_before_it_drops_and_never_drops_the_price():
    from gpu_advisor.tui.format import fit_table, table_width

    columns = ["option", "fits", "memory to spare", "tokens/s per user", "first token", "per hour"]
    rows = [["2 × NVIDIA GeForce RTX 5090 32GB", "yes", "37%", "55", "469 ms", "$2.01"]]
    assert fit_table(columns, rows, 200) == (columns, rows, [])
    cols, body, dropped = fit_table(columns, rows, 60)
    assert dropped == [] and cols[-1] == "$/h" and body[0][0] == "2 × RTX 5090 32GB"
    cols, body, dropped = fit_table(columns, rows, 30)
    assert cols[0] == "option" and cols[-1] == "$/h" and body[0][-1] == "$2.01" and dropped
    assert table_width(cols, body) <= 30


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_dialogs_fit_the_window(tmp_path, size):
    store = seeded_store(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        help_box = app.screen.query_one("#help")
        assert help_box.region.right <= size[0] and help_box.region.bottom <= size[1]
        await pilot.press("escape", "ctrl+s")
        await pilot.pause()
        await pilot.press("delete")
        await pilot.pause()
        dialog = app.screen.query_one(".dialog")
        assert dialog.region.right <= size[0] and dialog.region.x >= 0


async def test_quick_reply_labels_never_break_inside_a_word(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for button in app.screen.query("#choices Button"):
            assert button.size.height == 1 and button.size.width >= len(str(button.label))


async def test_the_chosen_theme_is_remembered_on_restart(store, settings_file):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.theme = "nord"
        await pilot.pause()
    assert 'theme = "nord"' in settings_file.read_text(encoding="utf-8")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "nord"


async def test_keys_are_remapped_by_binding_id_from_the_settings(store, settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text('[keys]\n"chat.math" = "f5"\n', encoding="utf-8")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        await pilot.press("f5")
        await settle(pilot)
        assert list(app.screen.query(ChatMessage))[-1].text.startswith("## The math behind")


@pytest.mark.parametrize(("key", "value", "words"), [
    ("theme", "nonsense", "no theme 'nonsense'"),
    ("keys.chat.math", "ctrl+shift+banana", "'ctrl+shift+banana' is not a key"),
    ("keys.chat.math", "ctrl+", "is not a key"),
    ("keys.chat.math", "f5,hyperdrive+x", "'hyperdrive+x' is not a key"),
])
def test_config_set_refuses_themes_and_keys_that_do_not_exist(settings_file, capsys, key, value, words):
    from gpu_advisor.tui.cli.program import main

    assert main(["config", "set", "keys.chat.copy", "ctrl+y"]) == 0
    before = settings_file.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["config", "set", key, value]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1
    assert settings_file.read_text(encoding="utf-8") == before  # a refused value changes nothing


def test_config_set_takes_textual_key_names_and_every_theme(settings_file):
    from textual.theme import BUILTIN_THEMES

    from gpu_advisor.tui import settings

    for value, stored in [("f5", "f5"), ("Ctrl+E", "ctrl+e"), ("ctrl+shift+up", "ctrl+shift+up"),
                          ("plus, equals_sign", "plus,equals_sign"), ("E", "E"), ("pagedown", "pagedown")]:
        assert settings.set_value("keys.chat.math", value).keys["chat.math"] == stored
    for theme in BUILTIN_THEMES:
        assert settings.set_value("theme", theme).theme == theme


async def test_a_settings_file_with_a_bad_key_keeps_the_default_key(store, settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text('theme = "nonsense"\n[keys]\n"chat.math" = "ctrl+shift+banana"\n', encoding="utf-8")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        assert any("is not a key" in n.message and "no theme" in n.message for n in app._notifications)
        await pilot.press("ctrl+e")
        await settle(pilot)
        assert list(app.screen.query(ChatMessage))[-1].text.startswith("## The math behind")


async def test_a_damaged_settings_file_is_reported_not_fatal(store, settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text("theme = [not toml", encoding="utf-8")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChatScreen)
        assert any("settings file" in n.message for n in app._notifications)


async def test_the_palette_offers_rename_and_rerun(store):
    from gpu_advisor.tui.commands import COMMANDS

    actions = {action for _name, _help, action in COMMANDS}
    assert {"rename_session", "rerun_session"} <= actions
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        await app.run_action("rename_session")
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        app.screen.query_one(Input).value = "Llama for the team"
        await pilot.press("enter")
        await pilot.pause()
        assert store.session(app.screen.conversation.session_id)["title"] == "Llama for the team"
        await app.run_action("rerun_session")
        await settle(pilot)
        from gpu_advisor.tui.screens import TextScreen

        assert isinstance(app.screen, TextScreen) and "says the same" in app.screen.markdown


async def test_copy_says_copied_only_when_it_is_known(store, monkeypatch):
    import gpu_advisor.tui.screens  # noqa: F401 - loads tui.screens, read through tui below
    from gpu_advisor import tui

    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        monkeypatch.setattr(tui.screens, "copy_locally", lambda text: False)
        await pilot.press("ctrl+y")
        assert "OSC 52" in list(app._notifications)[-1].message
        monkeypatch.setattr(tui.screens, "copy_locally", lambda text: True)
        await pilot.press("ctrl+y")
        assert list(app._notifications)[-1].message.startswith("Copied")


async def test_replay_keeps_the_message_it_names_in_view(tmp_path):
    async with replaying(tmp_path, (80, 24)) as (app, pilot):
        await pilot.press(*["right"] * 7)
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert "message 8 of" in str(screen.query_one("#replay-status").render())
        assert in_view(screen.query_one("#replay-transcript"), list(screen.query(ChatMessage))[-1])


def footer_keys_fit(screen) -> bool:
    """Every key of the footer is drawn whole: inside the window and clear of the next one (the
    palette key sits at the right edge)."""
    from itertools import pairwise

    from textual.widgets._footer import FooterKey

    keys = sorted(screen.query(FooterKey), key=lambda k: k.region.x)
    ends_clear = all(a.region.right <= b.region.x for a, b in pairwise(keys))
    return bool(keys) and ends_clear and keys[-1].region.right <= screen.size.width


@pytest.mark.parametrize("which", ["chat", "sessions", "replay"])
async def test_every_footer_fits_80_columns(tmp_path, which):
    store = seeded_store(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        if which == "sessions":
            await pilot.press("ctrl+s")
        elif which == "replay":
            app.push_screen(ReplayScreen(store, "01JAAAAAAAAAAAAAAAAAAAAAA1"))
        await pilot.pause()
        await pilot.pause()
        assert footer_keys_fit(app.screen), which


# ---------------------------------------------------------------- snapshots


async def steady(pilot) -> None:
    """A blinking cursor would make screenshots differ from run to run."""
    from textual.widgets import TextArea

    for screen in pilot.app.screen_stack:
        for widget in [*screen.query(Input), *screen.query(TextArea)]:
            widget.cursor_blink = False
    await pilot.pause()
    await pilot.pause()


SIZES = {"80x24": (80, 24), "120x40": (120, 40), "200x60": (200, 60)}


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_chat_with_a_question(snap_compare, store, size):
    async def run_before(pilot):
        await say(pilot, "fine-tune a 27B model and then let my team chat with it")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_chat_with_an_answer_table_and_chart(snap_compare, store, size):
    async def run_before(pilot):
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        pilot.app.screen.query_one("#transcript").scroll_home(animate=False)
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZES[size], run_before=run_before)


def test_snapshot_side_panel_shown_at_80x24(snap_compare, store):
    async def run_before(pilot):
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        await pilot.press("f3")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", ["80x24", "120x40"])
def test_snapshot_help(snap_compare, store, size):
    async def run_before(pilot):
        await pilot.press("f1")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_sessions_screen(snap_compare, tmp_path, size):
    store = seeded_store(tmp_path / "h.db")

    async def run_before(pilot):
        await pilot.press("ctrl+s")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZES[size], run_before=run_before)


@pytest.mark.parametrize("size", ["80x24", "120x40"])
def test_snapshot_replay(snap_compare, tmp_path, size):
    store = seeded_store(tmp_path / "h.db")

    async def run_before(pilot):
        pilot.app.push_screen(ReplayScreen(store, "01JAAAAAAAAAAAAAAAAAAAAAA1"))
        await pilot.pause()
        await pilot.press("right", "right")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=SIZES[size], run_before=run_before)


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


# ---------------------------------------------------------------- a session deleted while open


async def test_deleting_the_open_session_from_the_sessions_screen_starts_a_new_one(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        deleted = app.screen.conversation.session_id
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("delete")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert store.count_sessions() == 0
        assert any("new conversation" in n.message for n in app._notifications)  # CRASHCHECK
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ChatScreen)
        assert app.screen.conversation.session_id is None and transcript_roles(app) == []
        await say(pilot, "serve llama 3 8b to 3 users 24/7")  # no crash: a new session holds it
        assert transcript_roles(app) == ["user", "assistant"]
        assert app.screen.conversation.session_id not in (None, deleted)
    assert store.count_sessions() == 1


@pytest.mark.parametrize(("first", "then", "line"), [
    ("serve llama 3 8b to 3 users 24/7", "actually 70B", "was deleted"),
    ("给3个人全天候部署llama 3 8b", "换成70B", "被删除"),
])
async def test_a_session_deleted_elsewhere_is_said_in_the_chat_not_crashed_on(tmp_path, first, then, line):
    store = HistoryStore(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, first)
        sid = app.screen.conversation.session_id
        other = HistoryStore(tmp_path / "h.db")  # another terminal: `gpu-advisor sessions delete`
        other.delete(sid)
        other.close()
        await say(pilot, then)
        assert isinstance(app.screen, ChatScreen)
        assert transcript_roles(app) == ["user", "assistant", "user", "assistant"]  # still answered
        notes = [str(n.render()) for n in app.screen.query(".notice")]
        assert len(notes) == 1 and line in notes[0]
        assert app.screen.conversation.store is None  # the rest of this conversation is not saved
        await say(pilot, "what about 4-bit?")
        assert len(app.screen.query(".notice")) == 1  # said once
    assert store.count_sessions() == 0


async def test_a_session_deleted_while_its_reply_is_computed_is_said_not_crashed_on(tmp_path, held_turns):
    store = HistoryStore(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        held_turns.set()
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        held_turns.clear()
        sid = app.screen.conversation.session_id
        prompt = app.screen.query_one(PromptInput)
        prompt.value = "actually 70B"
        await pilot.press("enter")
        await pilot.pause()
        other = HistoryStore(tmp_path / "h.db")
        other.delete(sid)
        other.close()
        held_turns.set()
        await settle(pilot)
        assert transcript_roles(app) == ["user", "assistant"] * 2
        assert len(app.screen.query(".notice")) == 1
    assert store.count_sessions() == 0


# ---------------------------------------------------------------- quick replies that do what they say


async def test_a_number_typed_in_the_message_box_picks_the_chip_with_that_number(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        buttons = list(app.screen.query("#choices Button"))
        assert str(buttons[3].label) == "4 Fine-tune, then serve"  # the chips are numbered
        await say(pilot, "4")
        sent = store.messages(app.screen.conversation.session_id)[0]["text"]
        assert sent == buttons[3].choice_value
        assert app.screen.conversation.state["profile"]["phase"] == "train-and-serve"


async def test_at_the_users_question_a_number_picks_a_chip_and_a_larger_one_is_a_count(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "serve llama 3 8b")
        assert app.screen.conversation.state["pending"] == "users"
        chips = [(label(b), b.choice_value) for b in app.screen.query("#choices Button")]
        await say(pilot, "3")
        assert store.messages(app.screen.conversation.session_id)[-2]["text"] == chips[2][1]
        assert app.screen.conversation.state["profile"]["users"] != 3
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "serve llama 3 8b")
        await say(pilot, "12")  # no chip has that number: twelve people
        assert app.screen.conversation.state["profile"]["users"] == 12


async def test_arrow_keys_pressed_quickly_land_on_the_chip_they_count_to(store):
    from textual import events

    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        buttons = list(app.screen.query("#choices Button"))
        for key in ["tab", "right", "right", "right", "down", "left"]:  # sent at once, before any focus is given
            app.post_message(events.Key(key, None))
        await pilot.pause()
        await pilot.pause()
        assert app.focused is buttons[3]
        for key in ["left", "right", "enter"]:  # and Enter, typed as quickly, presses the chip they name
            app.post_message(events.Key(key, None))
        await settle(pilot)
        assert store.messages(app.screen.conversation.session_id)[0]["text"] == buttons[3].choice_value


@pytest.mark.parametrize(("keys", "chip"), [(["tab", "enter"], 0), (["tab", "right", "right", "enter"], 2),
                                            (["tab", "left", "enter"], 5)])
async def test_tab_arrows_and_enter_typed_at_once_choose_the_chip_they_name(store, keys, chip):
    from textual import events

    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        buttons = list(app.screen.query("#choices Button"))
        for key in keys:  # as a terminal delivers a burst: before any of them is handled
            app.post_message(events.Key(key, None))
        for _ in range(200):  # on a loaded machine the burst and the turn it starts take several frames
            await settle(pilot)
            if app.screen.conversation.session_id and app.screen._active_turn is None \
                    and len(list(app.screen.query(ChatMessage))) == 2:
                break
        assert store.messages(app.screen.conversation.session_id)[0]["text"] == buttons[chip].choice_value


@pytest.mark.parametrize(("first", "chip", "said", "assumed"), [
    ("serve llama 3 8b", "20-100", "20-100 users at once", "100 people generating at once: the top of the 20-100"),
    ("serve llama 3 8b", "100+", "100+ users at once", "100 people generating at once: the least of the 100+"),
    ("部署llama 3 8b", "20-100 人", "同时 20-100 个用户", "按同时 100 人在生成测算：取你说的 20-100 人的上限"),
])
async def test_a_range_chip_sends_what_it_says_and_the_point_sized_is_a_visible_assumption(store, first, chip, said,
                                                                                         assumed):
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, first)
        button = next(b for b in app.screen.query("#choices Button") if label(b) == chip)
        assert button.choice_value == chip  # what it says, not a number typed in the user's name
        await pilot.click(f"#{button.id}")
        await settle(pilot)
        sid = app.screen.conversation.session_id
        assert store.messages(sid)[-2]["text"] == chip
        assert said in list(app.screen.query(ChatMessage))[-1].text  # acknowledged as the range
        lines = str(app.screen.query_one("#profile").content).split("\n")
        users_line = next(line for line in lines if line.startswith(("users", "并发用户")))
        assert chip.split(" ")[0] in users_line  # the panel shows the range said
        await say(pilot, "not sure")
        answer = list(app.screen.query(ChatMessage))[-1]
        assert answer.payload["kind"] == "answer" and assumed in answer.text
        items = {i.slot: i for i in app.screen.query("#assumptions ListItem")}
        assert assumed in items["users"].words  # listed, and selecting it asks the question again
        assumptions = app.screen.query_one("#assumptions")
        assumptions.index = list(items).index("users")
        assumptions.action_select_cursor()
        await pilot.pause()
        await say(pilot, "40")
        assert app.screen.conversation.state["profile"]["users"] == 40
        assert "users" not in app.screen.conversation.state["defaulted"]
