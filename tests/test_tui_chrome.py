"""The app's own words follow the conversation's language; ↑/↓ recall outlives a session and a
restart; `gpu-advisor chat "…"` opens with that message sent."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.assistant.session import Conversation
from gpu_advisor.tui.app import GPUAdvisorApp
from gpu_advisor.tui.cli.chat import cmd_chat
from gpu_advisor.tui.screens import ReplayScreen
from gpu_advisor.tui.widgets import ChatMessage, PromptInput, message_langs
from tests.test_tui import footer_keys_fit, say, settle  # the app tests' steps

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

SIZE = (120, 40)


def who(app) -> list[str]:
    return [str(m.query_one(".who").render()) for m in app.screen.query(ChatMessage)]


def footer(app) -> set[str]:
    return {k.description for k in app.screen.query(FooterKey) if k.description}


async def test_a_chinese_conversation_gets_chinese_chrome(store):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert {"Quit", "Help", "Math", "Copy"} <= footer(app)
        assert app.screen.query_one(PromptInput).placeholder.startswith("Message:")
        await say(pilot, "给3个人全天候部署llama 3 8b")
        await pilot.pause()
        assert who(app) == ["你", "顾问"]
        assert {"退出", "帮助", "计算过程", "复制"} <= footer(app)
        assert not {"Quit", "Help", "Math", "Copy"} & footer(app)
        assert app.screen.query_one(PromptInput).placeholder.startswith("输入消息")
        assert app.screen.query_one("#known-title").render().plain == "已知信息"


async def test_an_english_conversation_keeps_english_chrome_and_a_bare_number_changes_nothing(store):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve qwen2.5 7b")
        await say(pilot, "15")
        assert who(app) == ["You", "Advisor", "You", "Advisor"]
        assert "Quit" in footer(app)


async def test_the_chinese_key_bar_fits_80_columns(store):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "给3个人全天候部署llama 3 8b")
        await pilot.pause()
        assert "退出" in footer(app)
        assert footer_keys_fit(app.screen)


def test_stored_messages_take_the_language_the_conversation_had_then():
    messages = [{"role": "user", "text": "部署qwen2.5 7b"},
                {"role": "assistant", "text": "…", "payload": {"gpu_advisor": {"decision": {"lang": "zh"}}}},
                {"role": "user", "text": "15"},
                {"role": "assistant", "text": "…", "payload": {}},
                {"role": "user", "text": "what about int4?"}]
    assert message_langs(messages) == ["zh", "zh", "zh", "zh", "en"]


async def test_a_resumed_and_a_replayed_chinese_session_keep_their_labels(store):
    conv = Conversation(store)
    conv.send("给3个人全天候部署llama 3 8b")
    app = GPUAdvisorApp(store=store, preload=False, resume=conv.session_id)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert who(app) == ["你", "顾问"]
        assert "退出" in footer(app)
        app.push_screen(ReplayScreen(store, conv.session_id))
        await pilot.pause()
        await pilot.pause()
        assert who(app)[:1] == ["你"]


async def test_up_recalls_messages_from_earlier_sessions_after_a_restart(tmp_path):
    path = tmp_path / "history.db"
    first = HistoryStore(path)
    Conversation(first).send("serve llama 3 8b to 5 users")
    conv = Conversation(first)
    conv.send("fine-tune qwen2.5 7b")
    conv.send("with qlora")
    first.close()
    app = GPUAdvisorApp(store=HistoryStore(path), preload=False)  # a new run, a new conversation
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        prompt = app.screen.query_one(PromptInput)
        prompt.focus()
        await pilot.press("up")
        assert prompt.value == "with qlora"
        await pilot.press("up", "up")
        assert prompt.value == "serve llama 3 8b to 5 users"
        await pilot.press("down", "down", "down")
        assert prompt.value == ""


def test_recent_user_texts_are_the_last_ones_oldest_first(tmp_path):
    store = HistoryStore(tmp_path / "h.db")
    conv = Conversation(store)
    for text in ("serve llama 3 8b", "about 15", "working hours"):
        conv.send(text)
    assert store.recent_user_texts(2) == ["about 15", "working hours"]
    assert store.recent_user_texts(0) == []


async def test_the_first_message_is_sent_as_the_app_opens_and_saved(store):
    app = GPUAdvisorApp(store=store, preload=False, first_message="  serve llama 3 8b to 5 users ")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await settle(pilot)
        messages = list(app.screen.query(ChatMessage))
        assert [m.role for m in messages] == ["user", "assistant"]
        assert messages[0].text == "serve llama 3 8b to 5 users"
    sid = store.list_sessions()[0].id
    assert [m["role"] for m in store.messages(sid)] == ["user", "assistant"]


def test_chat_plain_sends_its_first_message_before_reading_stdin(monkeypatch, capsys, tmp_path):
    import argparse
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("about 15\n"))
    args = argparse.Namespace(plain=True, json=False, resume=None, no_save=True, db=str(tmp_path / "h.db"),
                              message="serve llama 3 8b")
    cmd_chat(args)
    out = capsys.readouterr().out
    assert out.index("Llama 3 8B") < out.index("15 users")
