"""Pilot tests of what the keyboard-only walkthrough of issue 25 found broken or annoying (notes walk-25:
B1-B6, A1, A9, A10): each reproduces the walkthrough's keys and asserts what the user now gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.tui.app import GPUAdvisorApp
from gpu_advisor.tui.screens import ChatScreen, SessionsScreen
from gpu_advisor.tui.widgets import ChatMessage, PromptInput
from tests.test_tui import say, settle  # the app tests' steps

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

SIZE = (120, 40)


def make_app(store: HistoryStore | None = None, **kwargs) -> GPUAdvisorApp:
    return GPUAdvisorApp(store=store, preload=False, **kwargs)


async def recalled(pilot, times: int) -> list[str]:
    """What ↑ brings into the message box, pressed `times` times."""
    prompt = pilot.app.screen.query_one(PromptInput)
    prompt.focus()
    seen = []
    for _ in range(times):
        await pilot.press("up")
        seen.append(prompt.value)
    return seen


# ---------------------------------------------------------------- B1: ↑/↓ recall on every new chat screen

FIRST = {"en": ("serve llama 3 8b to 3 users 24/7", "actually 70B"), "zh": ("给3个人全天候部署llama 3 8b", "换成70B")}


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_recall_survives_opening_a_saved_session(store, lang):
    one, two = FIRST[lang]
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, one)
        await say(pilot, two)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ChatScreen) and app.screen.conversation.session_id is not None
        assert await recalled(pilot, 2) == [two, one]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_recall_survives_a_new_conversation(store, lang):
    one, two = FIRST[lang]
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, one)
        await say(pilot, two)
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert app.screen.conversation.session_id is None
        assert await recalled(pilot, 2) == [two, one]


async def test_recall_survives_deleting_the_open_session(store):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        other = app.screen.conversation.session_id
        await pilot.press("ctrl+n")
        await pilot.pause()
        await say(pilot, "fine-tune a 7B model")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("delete")  # on the first row: the open session is the newest
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ChatScreen) and app.screen.conversation.session_id is None
        assert [r.id for r in store.list_sessions()] == [other]
        assert (await recalled(pilot, 1))[0] == "serve llama 3 8b to 3 users 24/7"


async def test_recall_is_carried_over_when_nothing_is_saved():
    app = make_app(None)
    app.store = None
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.conversation.store = app.store = None
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert await recalled(pilot, 1) == ["serve llama 3 8b to 3 users 24/7"]
        assert [m.role for m in app.screen.query(ChatMessage)] == []


# ---------------------------------------------------------------- B6: a session the app left is free again


def held_elsewhere(path: Path, session_id: str) -> bool:
    """Whether another process (`gpu-advisor ask --cid`, `sessions delete`) is refused this session."""
    import subprocess
    import sys

    code = ("import sys\nfrom gpu_advisor.assistant.history import HistoryStore, HistoryError\n"
            "s = HistoryStore(sys.argv[1])\ntry:\n    s.claim(sys.argv[2])\nexcept HistoryError:\n    sys.exit(3)\n")
    done = subprocess.run([sys.executable, "-c", code, str(path), session_id], check=False, timeout=120)
    assert done.returncode in (0, 3)
    return done.returncode == 3


@pytest.mark.parametrize("leave", ["ctrl+n", "open another"])
async def test_a_session_the_app_left_is_free_for_another_process(tmp_path, leave):
    store = HistoryStore(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        first = app.screen.conversation.session_id
        assert held_elsewhere(store.path, first)  # open here: refused elsewhere
        if leave == "ctrl+n":
            await pilot.press("ctrl+n")
            await pilot.pause()
            await say(pilot, "给3个人全天候部署llama 3 8b")
        else:
            await pilot.press("ctrl+n")
            await pilot.pause()
            await say(pilot, "给3个人全天候部署llama 3 8b")
            second = app.screen.conversation.session_id
            await pilot.press("ctrl+s")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SessionsScreen)
            row = next(n for n, r in enumerate(screen.rows) if r.id == first)
            screen.query_one("DataTable").move_cursor(row=row)
            screen.query_one("DataTable").focus()
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen.conversation.session_id == first
            assert held_elsewhere(store.path, first)  # opened again: held again
            assert not held_elsewhere(store.path, second)
            return
        assert not held_elsewhere(store.path, first)
        assert held_elsewhere(store.path, app.screen.conversation.session_id)


async def test_reopening_the_open_session_keeps_it_held(tmp_path):
    store = HistoryStore(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        sid = app.screen.conversation.session_id
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.screen.query_one("DataTable").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen.conversation.session_id == sid
        assert held_elsewhere(store.path, sid)


# ---------------------------------------------------------------- B5: the history file deleted while the app runs


def remove_database(path: Path) -> None:
    for side in ("", "-wal", "-shm"):
        Path(f"{path}{side}").unlink(missing_ok=True)


@pytest.mark.parametrize(("first", "then", "line"), [
    ("serve llama 3 8b to 3 users 24/7", "actually 70B", "was deleted"),
    ("给3个人全天候部署llama 3 8b", "换成70B", "被删除"),
])
async def test_the_history_file_deleted_under_the_app_is_started_again_and_said_once(tmp_path, first, then, line):
    path = tmp_path / "h.db"
    app = make_app(HistoryStore(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, first)
        remove_database(path)
        await say(pilot, then)
        screen = app.screen
        assert screen.query_one(PromptInput).value == ""  # sent, nothing typed lost
        assert [m.role for m in screen.query(ChatMessage)] == ["user", "assistant"] * 2
        notes = [str(n.render()) for n in screen.query(".notice")]
        assert len(notes) == 1 and line in notes[0] and str(path) in notes[0]
        await say(pilot, "what about 4-bit?" if first.startswith("serve") else "用4位量化呢？")
        assert len(screen.query(".notice")) == 1  # said once
        assert [m.role for m in screen.query(ChatMessage)] == ["user", "assistant"] * 3
        sid = screen.conversation.session_id
        assert sid is not None and app.store is not None
    assert path.is_file()
    again = HistoryStore(path)
    saved = again.messages(sid)
    assert [m["role"] for m in saved] == ["user", "assistant"] * 3  # the conversation so far, then the rest
    assert saved[0]["text"] == first and saved[2]["text"] == then
    assert again.count_sessions() == 1


async def test_without_a_new_history_file_the_conversation_goes_on_unsaved(tmp_path, monkeypatch):
    path = tmp_path / "h.db"
    app = make_app(HistoryStore(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        remove_database(path)
        monkeypatch.setattr(GPUAdvisorApp, "reopen_history", lambda self: None)
        await say(pilot, "actually 70B")
        await say(pilot, "what about 4-bit?")
        screen = app.screen
        assert [m.role for m in screen.query(ChatMessage)] == ["user", "assistant"] * 3
        notes = [str(n.render()) for n in screen.query(".notice")]
        assert len(notes) == 1 and "no longer saved" in notes[0]
        assert screen.conversation.store is None and "not saved" in screen.sub_title


# ---------------------------------------------------------------- B2: replay scrolls with the keys it lists


async def test_replay_scrolls_a_long_answer_with_the_keys_it_lists(store):
    from gpu_advisor.tui.screens import ReplayScreen

    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, "serve qwen2.5-14b to 10 users around the clock in fp8")
        sid = app.screen.conversation.session_id
        app.push_screen(ReplayScreen(store, sid))
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        screen = app.screen
        status = str(screen.query_one("#replay-status").render())
        for listed in ("PgUp", "PgDn", "↑", "↓", "scroll"):
            assert listed in status
        transcript = screen.query_one("#replay-transcript")
        assert transcript.max_scroll_y > 0  # the answer is taller than the window
        top = transcript.scroll_y
        await pilot.press("pagedown")
        await pilot.pause()
        assert transcript.scroll_y > top
        paged = transcript.scroll_y
        await pilot.press("down")
        await pilot.pause()
        assert transcript.scroll_y == min(paged + 1, transcript.max_scroll_y)
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert transcript.scroll_y == transcript.max_scroll_y  # the end of the answer can be read
        await pilot.press("up")
        await pilot.pause()
        assert transcript.scroll_y == transcript.max_scroll_y - 1
        await pilot.press("pageup", "pageup", "pageup", "ctrl+home")
        await pilot.pause()
        assert transcript.scroll_y == 0
        assert screen.position == 2  # scrolling never stepped


# ---------------------------------------------------------------- B4: one default for the people at once


@pytest.mark.parametrize("said", ["serve llama 3.1 8b around the clock", "全天候部署 llama 3.1 8b",
                                  "around the clock, serve llama 3.1 8b please", "llama 3.1 8b 全天候 部署一下"])
def test_recommend_and_the_conversation_size_the_same_users_when_none_are_said(said, settings_file):
    from gpu_advisor.assistant.session import Conversation
    from gpu_advisor.tui.cli.program import build_parser

    args = build_parser().parse_args(["recommend", "-m", "llama-3.1-8b", "--phase", "serve"])
    conv = Conversation()
    conv.oneshot = True
    conv.send(said)
    assert "users" in conv.state["defaulted"]  # not said: assumed, and said so
    assert args.users == conv.state["profile"]["users"] == 5


@pytest.mark.parametrize(("command", "options"), [
    ("recommend", ("--users", "--utilisation", "--context", "--region", "--top")),
    ("cost", ("--utilisation", "--gpus", "--horizon-months")),
])
def test_help_shows_the_defaults_of_the_values_a_command_assumes(command, options, settings_file):
    from gpu_advisor.tui.cli.program import build_parser, subcommands

    parser = dict(subcommands(build_parser()))[command]
    for action in parser._actions:
        if set(action.option_strings) & set(options):
            shown = parser._get_formatter()._expand_help(action)
            assert "default" in shown, action.option_strings


# ---------------------------------------------------------------- A1, A9: the sessions screen


def seeded(path: Path) -> HistoryStore:
    from gpu_advisor.assistant.session import Conversation

    s = HistoryStore(path)
    for text in ("serve qwen2.5 14b to 30 people around the clock", "给3个人全天候部署llama 3 8b",
                 "fine-tune a 7B model"):
        Conversation(s).send(text)
    return s


async def test_down_on_opening_the_sessions_screen_lands_on_the_first_row(tmp_path):
    store = seeded(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        table = app.screen.query_one("DataTable")
        assert not table.show_cursor  # nothing shown chosen yet
        await pilot.press("down")
        await pilot.pause()
        assert table.show_cursor and table.cursor_row == 0
        await pilot.press("down")
        await pilot.pause()
        assert table.cursor_row == 1
        await pilot.press("up", "up")  # back over the first row to the search box
        await pilot.pause()
        assert app.screen.focused.id == "search"
        await pilot.press("down")
        await pilot.pause()
        assert app.screen.focused is table and table.cursor_row == 0
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChatScreen)
        assert app.screen.conversation.session_id == store.list_sessions()[0].id


@pytest.mark.parametrize(("query", "found"), [
    ("qwen", "qwen2.5"), ("QWEN", "qwen2.5"), ("Qwen2", "qwen2.5"), ("qwen 14", "qwen2.5"), ("qw", "qwen2.5"),
    ("lla", "llama"), ("部署", "llama"), ("全天候", "llama"), ("7B", "7B"), ("fine", "7B"),
])
def test_search_finds_the_start_of_a_word_and_chinese_inside_text(tmp_path, query, found):
    store = seeded(tmp_path / "h.db")
    titles = {r.id: r.title for r in store.list_sessions()}
    texts = {sid: " ".join(m["text"] for m in store.messages(sid)).lower() for sid in titles}
    hits = store.search(query)
    assert hits, query
    assert all(found.lower() in texts[r.id] for r in hits), (query, [titles[r.id] for r in hits])


async def test_typing_qwen_in_the_sessions_screen_finds_qwen2_5(tmp_path):
    store = seeded(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("q", "w", "e", "n")
        await pilot.pause()
        rows = app.screen.rows
        assert len(rows) == 1 and "Qwen2.5" in rows[0].title


# ---------------------------------------------------------------- B3: light themes are readable


def contrast(a, b) -> float:
    """WCAG contrast ratio of two textual Colors."""
    def lum(c) -> float:
        def ch(x: int) -> float:
            v = x / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b)

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", ["textual-light", "solarized-light", "catppuccin-latte", "textual-dark", "nord"])
async def test_headings_labels_and_chart_colours_are_readable_in_every_theme(store, theme):
    from textual.color import Color

    from gpu_advisor.tui.widgets import FREE, SEGMENTS, MemoryChart, theme_colour

    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        app.theme = theme
        await pilot.pause()
        await say(pilot, "fine-tune llama 3 8b with qlora then serve it to 5 users working hours")
        await pilot.pause()
        screen = app.screen
        styled = [*screen.query(".who"), *screen.query(".panel-title")]
        assert len(styled) >= 4  # You, Advisor, "What I know", "Assumptions"
        for widget in styled:
            background = widget.background_colors[1]
            ratio = contrast(widget.styles.color, background)
            assert ratio >= 3, (theme, str(widget.render()), round(ratio, 2))
        assert screen.query(MemoryChart)
        background = Color.parse(app.get_css_variables()["background"])
        for variable in [*(v for _k, _l, v in SEGMENTS), FREE]:
            colour = Color.parse(theme_colour(app, variable))
            assert contrast(colour, background) >= 3, (theme, variable)
        if theme == "textual-light":  # the chart follows the theme: not the colours it has in the dark one
            light = [theme_colour(app, v) for _k, _l, v in SEGMENTS]
            app.theme = "textual-dark"
            await pilot.pause()
            assert [theme_colour(app, v) for _k, _l, v in SEGMENTS] != light


# ---------------------------------------------------------------- item 8: import twice, dialogs, palette, Esc


@pytest.mark.parametrize("first", ["serve llama 3 8b to 3 users 24/7", "给3个人全天候部署llama 3 8b"])
def test_importing_the_same_file_twice_says_so_and_saves_it_once(tmp_path, first, capsys, settings_file):
    import json

    from gpu_advisor.assistant.session import Conversation
    from gpu_advisor.tui.cli.program import main

    db = tmp_path / "h.db"
    store = HistoryStore(db)
    conv = Conversation(store)
    conv.send(first)
    store.close()
    target = tmp_path / "s.json"
    assert main(["sessions", "export", conv.session_id, "-o", str(target), "--db", str(db)]) in (0, None)
    assert main(["sessions", "import", str(target), "--db", str(db)]) in (0, None)
    assert "Imported as session" in capsys.readouterr().out
    copy = HistoryStore(db).list_sessions()[0].id
    assert main(["sessions", "import", str(target), "--db", str(db), "--json"]) in (0, None)
    again = json.loads(capsys.readouterr().out)
    assert again["imported_before"] == copy  # the first import of this file, not the exported session
    assert main(["sessions", "import", str(target), "--db", str(db)]) in (0, None)
    out = capsys.readouterr().out
    assert "Imported as session" in out and f"imported before, as session {copy}" in out


async def test_every_dialog_has_a_title_and_says_how_to_close_it(tmp_path):
    from gpu_advisor.tui.screens import ChoiceScreen, ConfirmScreen, HelpScreen, PromptScreen, TextScreen

    app = make_app(HistoryStore(tmp_path / "h.db"))
    async with app.run_test(size=(80, 24)) as pilot:
        for dialog in (ConfirmScreen('Delete "a rather long session title that wraps at eighty columns" and all '
                                     "its messages?"), PromptScreen("Rename this session", "x"),
                       ChoiceScreen("Change: region", [("US", "in the us")]), TextScreen("Re-run", "same"),
                       HelpScreen()):
            app.push_screen(dialog)
            await pilot.pause()
            box = next(w for w in dialog.query("*") if w.border_title)
            assert box.border_title and "Esc" in str(box.border_subtitle), type(dialog).__name__
            if isinstance(dialog, ConfirmScreen):  # the long question wraps at 80 columns, not cut
                assert dialog.query_one(".dialog-question").size.height >= 2
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ChatScreen), type(dialog).__name__


async def test_the_palette_shows_each_commands_key_as_remapped(store, settings_file):
    from gpu_advisor.tui.commands import COMMANDS, key_of

    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text('[keys]\n"chat.math" = "f5"\n', encoding="utf-8")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        keys = {action: key_of(app, action) for _n, _h, action in COMMANDS}
        assert keys["new_session"] == "Ctrl+N" and keys["sessions"] == "Ctrl+S" and keys["replay"] == "Ctrl+R"
        assert keys["copy_answer"] == "Ctrl+Y" and keys["toggle_panel"] == "F3" and keys["help"] == "F1"
        assert keys["math"] == "F5"  # remapped
        await pilot.press("ctrl+p")
        await pilot.pause()
        for ch in "new conv":
            await pilot.press(ch if ch != " " else "space")
        await pilot.pause()
        await pilot.pause()
        shown = " ".join(str(w.render()) for w in app.screen.query("CommandList Option, CommandList")) + \
            " ".join(str(o.prompt) for o in app.screen.query_one("CommandList")._options)
        assert "Ctrl+N" in shown


async def test_esc_closes_the_palettes_keys_panel(tmp_path):
    store = HistoryStore(tmp_path / "h.db")
    app = make_app(store)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "serve llama 3 8b to 3 users 24/7")
        for opened in ("chat", "sessions"):
            if opened == "sessions":
                await pilot.press("ctrl+s")
                await pilot.pause()
            app.action_show_help_panel()
            await pilot.pause()
            assert app.screen.query("HelpPanel")
            await pilot.press("escape")
            await pilot.pause()
            assert not app.screen.query("HelpPanel")
            assert isinstance(app.screen, SessionsScreen if opened == "sessions" else ChatScreen)
