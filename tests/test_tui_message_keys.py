"""A message of the transcript, once focused (Ctrl+↑ or Alt+↑, then ↑/↓), can be copied, asked again, opened in
$EDITOR (F4) or read in a pager; its keys show in the key bar and in F1."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from gpu_advisor.tui import message_keys
from gpu_advisor.tui.app import GPUAdvisorApp
from gpu_advisor.tui.screens import HelpScreen, TextScreen
from gpu_advisor.tui.widgets import ChatMessage, PromptInput
from tests.test_tui import footer_keys_fit, say, settle

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

ENGLISH = ("serve llama 3 8b to 3 users around the clock", "what about int4?")
CHINESE = ("给3个人全天候部署llama 3 8b", "换成int4呢？")


def focused(app) -> ChatMessage | None:
    widget = app.screen.focused
    return widget if isinstance(widget, ChatMessage) else None


def last_note(app) -> str:
    return list(app._notifications)[-1].message


async def two_turns(pilot, turns) -> list[ChatMessage]:
    for text in turns:
        await say(pilot, text)
    return list(pilot.app.screen.query(ChatMessage))


@pytest.mark.parametrize("key", ["ctrl+up", "alt+up"])
@pytest.mark.parametrize("turns", [ENGLISH, CHINESE])
async def test_up_and_down_move_between_the_messages_and_esc_goes_back(store, key, turns):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        messages = await two_turns(pilot, turns)
        assert [m.role for m in messages] == ["user", "assistant", "user", "assistant"]
        await pilot.press(key)
        assert focused(app) is messages[3]
        await pilot.press("up", "up")
        assert focused(app) is messages[1]
        await pilot.press("up", "up", "up")  # stops at the first
        assert focused(app) is messages[0]
        await pilot.press("down")
        assert focused(app) is messages[1]
        await pilot.press("escape")
        assert isinstance(app.screen.focused, PromptInput)


async def test_tab_passes_the_messages_by(store):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await two_turns(pilot, ENGLISH)
        for _ in range(6):
            await pilot.press("tab")
            assert focused(app) is None


async def test_typing_on_a_message_goes_to_the_message_box(store):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await two_turns(pilot, ENGLISH)
        await pilot.press("ctrl+up", "w", "h")
        prompt = app.screen.query_one(PromptInput)
        assert prompt.has_focus and prompt.value == "wh"


@pytest.mark.parametrize(("turns", "copied", "asked"), [(ENGLISH, "Copied this message", "OSC 52"),
                                                         (CHINESE, "已把这条消息复制", "OSC 52")])
async def test_c_copies_the_focused_message_itself(store, monkeypatch, turns, copied, asked):
    import gpu_advisor.tui.screens  # noqa: F401 - loads tui.screens, read through tui below
    from gpu_advisor import tui

    app = GPUAdvisorApp(store=store, preload=False)
    sent: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        messages = await two_turns(pilot, turns)
        monkeypatch.setattr(app, "copy_to_clipboard", sent.append)
        monkeypatch.setattr(tui.screens, "copy_locally", lambda text: True)
        await pilot.press("ctrl+up", "up")  # the second question
        await pilot.press("c")
        assert sent == [turns[1]]
        assert last_note(app).startswith(copied)
        monkeypatch.setattr(tui.screens, "copy_locally", lambda text: False)
        await pilot.press("up", "c")  # the first answer
        assert sent[-1] == messages[1].text and "1 × " in sent[-1]
        assert asked in last_note(app)
        assert app.screen.query_one(PromptInput).value == ""  # "c" was a key, not typed


@pytest.mark.parametrize("turns", [ENGLISH, CHINESE])
@pytest.mark.parametrize(("moves", "asked"), [((), 1), (("up",), 1), (("up", "up"), 0), (("up", "up", "up"), 0)])
async def test_r_asks_the_message_or_the_question_it_answers_again(store, turns, moves, asked):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        before = await two_turns(pilot, turns)
        await pilot.press("ctrl+up", *moves, "r")
        await settle(pilot)
        after = list(app.screen.query(ChatMessage))
        assert len(after) == len(before) + 2
        assert (after[-2].role, after[-2].text) == ("user", turns[asked])
        assert after[-1].role == "assistant"
        assert isinstance(app.screen.focused, PromptInput)
        assert [m["text"] for m in store.messages(store.list_sessions()[0].id) if m["role"] == "user"][-1] == turns[asked]


async def test_f4_opens_the_message_in_the_editor_and_an_edited_question_comes_back(store, monkeypatch):
    ran: list[list[str]] = []

    def editor(app, command, path):
        ran.append(command)
        assert path.read_text(encoding="utf-8") in (ENGLISH[1], shown[-1].text)
        path.write_text("what about int8?\n", encoding="utf-8")

    monkeypatch.setattr(message_keys, "run_program", editor)
    monkeypatch.setenv("VISUAL", "")
    monkeypatch.setenv("EDITOR", "code -w")
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await two_turns(pilot, ENGLISH)
        await pilot.press("ctrl+up", "f4")  # an answer: read, nothing comes back
        prompt = app.screen.query_one(PromptInput)
        assert ran == [["code", "-w"]] and prompt.value == ""
        await pilot.press("ctrl+up", "up", "f4")  # a question: edited, back in the box to send
        assert prompt.value == "what about int8?" and prompt.has_focus
        assert "Enter sends" in last_note(app)
        assert len(list(app.screen.query(ChatMessage))) == 4  # nothing sent yet


async def test_an_editor_that_cannot_run_is_said(store, monkeypatch):
    def missing(app, command, path):
        raise FileNotFoundError(2, "No such file or directory")

    monkeypatch.setattr(message_keys, "run_program", missing)
    monkeypatch.setenv("VISUAL", "no-such-editor")
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await two_turns(pilot, CHINESE)
        await pilot.press("ctrl+up", "f4")
        assert last_note(app).startswith("无法运行 no-such-editor")


async def test_p_opens_the_pager_and_falls_back_to_a_dialog(store, monkeypatch):
    ran: list[tuple[list[str], str]] = []
    real = message_keys.run_program
    monkeypatch.setattr(message_keys, "run_program", lambda app, command, path: ran.append(
        (command, path.read_text(encoding="utf-8"))))
    monkeypatch.setenv("PAGER", "less -R")
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = await two_turns(pilot, ENGLISH)
        await pilot.press("ctrl+up", "p")
        assert ran == [(["less", "-R"], shown[-1].text)]
        monkeypatch.setattr(message_keys, "run_program", real)  # a test app cannot hand the terminal over
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and app.screen.markdown == shown[-1].text


@pytest.mark.parametrize(("turns", "keys"), [(ENGLISH, {"Copy", "Re-ask", "Edit", "Pager"}),
                                             (CHINESE, {"复制", "再问", "编辑", "阅读"})])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_message_keys_are_in_the_key_bar_and_it_fits(store, turns, keys, size):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=size) as pilot:
        await two_turns(pilot, turns)
        shown = {k.description for k in app.screen.query(FooterKey)}
        assert not keys - {"Copy", "复制"} & shown
        await pilot.press("ctrl+up")
        await pilot.pause()
        shown = {k.description for k in app.screen.query(FooterKey)}
        assert keys <= shown
        assert footer_keys_fit(app.screen)
        await pilot.press("ctrl+e")  # the last answer's keys are off while a message is chosen
        await settle(pilot)
        assert len(list(app.screen.query(ChatMessage))) == 4
        await pilot.press("escape")
        await pilot.pause()
        assert not keys - {"Copy", "复制"} & {k.description for k in app.screen.query(FooterKey)}


async def test_f1_lists_the_message_keys_as_remapped(store, settings_file):
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text('[keys]\n"message.copy" = "y"\n', encoding="utf-8")
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = app.screen.query_one("Static").render().plain
        for line in ("Y               Copy this message", "R               Ask this", "F4              Open this message",
                     "P               Read this message", "Ctrl+↑ / Alt+↑  Move to the messages"):
            assert line in shown, line


async def test_no_message_yet_is_said(store):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+up")
        assert focused(app) is None
        assert last_note(app) == "No message to move to yet."
