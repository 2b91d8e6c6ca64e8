"""Issue 25's keyboard walkthrough (notes/walk-25.md): in a Chinese conversation the app's notices and dialogs
were English (Ctrl+Y's "Asked the terminal to copy…", Ctrl+E before an answer, changing an assumption from the
panel: its title, choices, "type my own" and the sentence put in the box; the sessions screen's delete and export
dialogs and what they say after), and a title said "to 1 users". Each now speaks the conversation's language; every
sentence a Chinese choice sends is read as the English one it stands for."""

from __future__ import annotations

import json
import re

import pytest

from gpu_advisor.assistant.session import Conversation
from gpu_advisor.assistant.writers import session_title
from gpu_advisor.tui.changes import choices, template
from gpu_advisor.tui.screens import ChatScreen, ChoiceScreen, ConfirmScreen, PromptScreen, SessionsScreen
from gpu_advisor.tui.widgets import PromptInput
from tests.test_tui import make_app, say, settle

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

CJK = re.compile(r"[\u3400-\u9fff]")
SIZES = [(80, 24), (120, 40)]
ANSWERED = {"en": "serve qwen2.5-14b to 10 users around the clock in fp8",
            "zh": "全天候给10个用户部署qwen2.5 14b，用fp8"}
UNANSWERED = {"en": "I want to fine-tune something", "zh": "我想微调一个模型"}


def in_language(text: str, lang: str) -> bool:
    """Chinese words in a Chinese notice, none in an English one."""
    return bool(CJK.search(text)) == (lang == "zh")


def last_notice(app) -> str:
    return list(app._notifications)[-1].message


# ---------------------------------------------------------------- notices


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_copying_the_answer_is_said_in_the_conversations_language(store, monkeypatch, lang, size):
    import gpu_advisor.tui.screens  # noqa: F401 - loads tui.screens, read through tui below
    from gpu_advisor import tui

    app = make_app(store)
    async with app.run_test(size=size) as pilot:
        await pilot.press("ctrl+y")  # nothing to copy yet: said in the app's language (English before a language)
        assert in_language(last_notice(app), "en")
        await say(pilot, ANSWERED[lang])
        monkeypatch.setattr(tui.screens, "copy_locally", lambda text: False)
        await pilot.press("ctrl+y")
        asked = last_notice(app)
        assert "OSC 52" in asked and in_language(asked, lang), asked
        monkeypatch.setattr(tui.screens, "copy_locally", lambda text: True)
        await pilot.press("ctrl+y")
        copied = last_notice(app)
        assert copied != asked and in_language(copied, lang), copied


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_math_before_any_answer_is_refused_in_the_conversations_language(store, lang):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, UNANSWERED[lang])
        assert not app.screen.conversation.state.get("results")
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert in_language(last_notice(app), lang), last_notice(app)


# ---------------------------------------------------------------- changing an assumption


def select_assumption(app, slot: str) -> None:
    assumptions = app.screen.query_one("#assumptions")
    slots = [i.slot for i in app.screen.query("#assumptions ListItem")]
    assumptions.index = slots.index(slot)
    assumptions.action_select_cursor()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("lang", "press", "context"), [("en", "1", 4096), ("en", "3", 32768),
                                                        ("zh", "2", 8192), ("zh", "4", 131072)])
async def test_the_change_dialog_speaks_the_conversations_language_and_its_choice_is_read(store, lang, press,
                                                                                         context, size):
    app = make_app(store)
    async with app.run_test(size=size) as pilot:
        await say(pilot, ANSWERED[lang])
        await pilot.press("f3") if size[0] < 110 else None  # the panel is folded away below 110 columns
        await pilot.pause()
        select_assumption(app, "context")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChoiceScreen)
        box = dialog.query_one(".dialog")
        shown = [str(box.border_title), str(box.border_subtitle), dialog.question,
                 *[c[0] for c in dialog.choices], str(dialog.query_one(".dialog-hint").render())]
        for text in shown:
            if CJK.search(text) or lang == "zh":
                assert in_language(text, lang) or re.fullmatch(r"[\d.]+k token", text), text
        await pilot.press(press)
        await settle(pilot)
        assert isinstance(app.screen, ChatScreen)
        said = app.screen.conversation.messages[-2].content
        assert in_language(str(said), lang), said
        assert app.screen.conversation.state["profile"]["context"] == context


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_type_my_own_fills_the_box_with_a_sentence_in_the_conversations_language(store, lang):
    app = make_app(store)
    async with app.run_test(size=(120, 40)) as pilot:
        await say(pilot, ANSWERED[lang])
        select_assumption(app, "context")
        await pilot.pause()
        await pilot.press(str(len(choices(lang)["context"]) + 1))  # the last choice: type my own
        await pilot.pause()
        assert isinstance(app.screen, ChatScreen)
        box = app.screen.query_one(PromptInput)
        assert box.value == template(lang, "context") and in_language(box.value, lang)
        assert in_language(last_notice(app), lang)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen.conversation.state["profile"]["context"] == 16384


# every Chinese choice is read as the English one it stands for, on a conversation of its own language
BASE = {"en": ["fine-tune a 27B model and then let my team chat with it", "not sure", "not sure", "not sure"],
        "zh": ["我想微调一个27B模型然后部署给团队用", "不确定", "不确定", "不确定"]}
PAIRS = [(slot, i) for slot, said in choices("en").items() for i in range(len(said))]


@pytest.fixture(scope="module")
def bases() -> dict[str, Conversation]:
    out = {}
    for lang, turns in BASE.items():
        conv = Conversation()
        for text in turns:
            conv.send(text)
        out[lang] = conv
    return out


def sent(base: Conversation, phrase: str) -> Conversation:
    conv = Conversation()
    conv.messages, conv.state = list(base.messages), json.loads(json.dumps(base.state))
    conv.send(phrase)
    return conv


def test_each_language_offers_the_same_choices():
    en, zh = choices("en"), choices("zh")
    assert set(en) == set(zh) and all(len(en[s]) == len(zh[s]) for s in en)
    for slot in zh:
        for label, phrase in zh[slot]:
            assert CJK.search(phrase) or re.search(r"[\u4e00-\u9fff]", label) or "token" in label, (slot, phrase)


@pytest.mark.parametrize(("slot", "i"), PAIRS)
def test_a_chinese_choice_is_read_as_the_english_one(bases, slot, i):
    en = sent(bases["en"], choices("en")[slot][i][1])
    zh = sent(bases["zh"], choices("zh")[slot][i][1])
    assert zh.state["lang"] == "zh"
    assert zh.state["profile"][slot] is not None and slot not in zh.state["defaulted"]
    assert zh.state["profile"][slot] == en.state["profile"][slot], (slot, choices("zh")[slot][i])


@pytest.mark.parametrize(("slot", "value"), [
    ("context", 16384), ("region", "us"), ("preference", "rent"), ("precision", "int4"),
    ("budget_usd_per_month", 2000.0), ("budget_usd", 10000.0), ("owned", ["2x rtx-4090"]), ("exclude", ["rtx-4090"]),
    ("ttft_ms", 500.0), ("min_tokens_per_s", 20.0),
])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_typed_sentence_is_read_in_either_language(bases, lang, slot, value):
    conv = sent(bases[lang], template(lang, slot))
    assert in_language(template(lang, slot), lang)
    assert conv.state["profile"][slot] == value


# ---------------------------------------------------------------- the sessions screen


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_sessions_dialogs_and_notices_speak_the_conversations_language(store, tmp_path, lang):
    app = make_app(store)
    said: list[str] = []
    notify = app.notify
    app.notify = lambda message, *a, **k: (said.append(str(message)), notify(message, *a, **k))[1]  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, ANSWERED[lang])
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)
        app.screen.query_one("#session-table").focus()
        await pilot.press("ctrl+o")  # export: the prompt and what it says after
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PromptScreen)
        box = prompt.query_one(".dialog")
        assert in_language(prompt.question, lang) and in_language(str(box.border_title), lang)
        assert in_language(str(box.border_subtitle), lang)
        prompt.query_one("#answer").value = str(tmp_path / "out.md")
        await pilot.press("enter")
        await pilot.pause()
        assert (tmp_path / "out.md").exists() and in_language(said[-1].replace(str(tmp_path), ""), lang), said[-1]
        await pilot.press("delete")  # delete: the question, its buttons, what it says after
        await pilot.pause()
        confirm = app.screen
        assert isinstance(confirm, ConfirmScreen)
        assert in_language(re.sub(r"[\"“].*[\"”]", "", confirm.question), lang), confirm.question
        for button in confirm.query("Button"):
            assert in_language(str(button.label), lang), button.label
        await pilot.press("y")
        await pilot.pause()
        notice = said[-1]
        assert in_language(re.sub(r"[\"“].*[\"”]", "", notice), lang), notice
        assert store.list_sessions(10) == []


# ---------------------------------------------------------------- titles


@pytest.mark.parametrize(("lang", "users", "expected"), [
    ("en", 1, "Serve Qwen2.5 32B for 1 user"), ("en", 2, "Serve Qwen2.5 32B to 2 users"),
    ("en", 1200, "Serve Qwen2.5 32B to 1,200 users"),
    ("zh", 1, "部署 Qwen2.5 32B，1 人使用"), ("zh", 30, "部署 Qwen2.5 32B，30 人同时使用"),
])
def test_a_title_counts_its_users_in_the_right_number(lang, users, expected):
    profile = {"model": "qwen2.5-32b", "phase": "serve", "users": users}
    assert session_title(profile, {}, lang) == expected


@pytest.mark.parametrize("text", ["I have an RTX 4090 at home, can I run qwen 2.5 32b on it for myself?",
                                  "serve qwen2.5 32b to 1 user", "serve qwen 2.5 32b for just me"])
def test_a_conversation_for_one_person_is_not_titled_1_users(text):
    conv = Conversation()
    conv.send(text)
    title = session_title(conv.state["profile"], conv.state["defaulted"], "en")
    assert title and "1 users" not in title and title.startswith("Serve Qwen2.5 32B")


# ---------------------------------------------------------------- F1's key column


@pytest.mark.parametrize("keymap", [{}, {"chat.focus_messages": "ctrl+up,alt+up"}, {"message.next": "down,j,n"}])
@pytest.mark.parametrize("area", ["chat", "message", "sessions", "replay"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_keys_words_start_in_one_column_with_a_gap_before_them(lang, area, keymap):
    """'Ctrl+Up / Alt+Up' filled the 16-cell key column and ran into its words ('Ctrl+Up / Alt+Up Move to…')."""
    from rich.cells import cell_len

    from gpu_advisor.tui.screens.help import help_text

    rows = [line for line in help_text(keymap, lang, area).plain.splitlines() if line.startswith("  ")]
    assert len(rows) > 40
    for line in rows:
        keys, gap, _what = re.match(r"  (\S(?:.*?\S)?)( {2,})(\S.*)", line).groups()  # two spaces at least
        assert cell_len(f"  {keys}{gap}") == 18, line
    assert any(line.startswith("  Ctrl+↑ / Alt+↑  ") for line in rows)
