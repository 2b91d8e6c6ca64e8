"""Issue 25, "F1 explains the focused area with its keys; ... the welcome text and placeholder follow remapped
keys" and "usage errors point at the subcommand's own help and say what was expected": F1 says where the focus is
and lists that area's keys first; the welcome text and the message box's hint name the keys as remapped in the
settings file; an argument error names the subcommand's help and the form it takes, on one line."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from gpu_advisor.tui.app import GPUAdvisorApp
from gpu_advisor.tui.cli.program import build_parser, main, subcommands
from gpu_advisor.tui.screens import HelpScreen
from gpu_advisor.tui.widgets import AssumptionList, ChatMessage, PromptInput, QuickReplies
from gpu_advisor.tui.words import words
from tests.test_tui import say, settle

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

EN = "serve llama 3 8b to 3 users around the clock"
ZH = "给3个人全天候部署llama 3 8b"
SECTION = {"chat": "chat", "chips": "chat", "assumptions": "chat", "message": "message", "sessions": "sessions",
           "replay": "replay"}


def shown(app) -> str:
    return app.screen.query_one(Static).render().plain


async def focus(pilot, area: str) -> None:
    """Put the focus in `area` the way a user does: a key, or the widget itself where Tab order varies."""
    app = pilot.app
    if area == "chips":
        app.screen.query_one(QuickReplies).buttons()[0].focus()
    elif area == "assumptions":
        app.screen.query_one(AssumptionList).focus()
    elif area == "message":
        await pilot.press("ctrl+up")
    elif area == "sessions":
        await pilot.press("ctrl+s")
    elif area == "replay":
        await pilot.press("ctrl+r")
    else:
        app.screen.query_one(PromptInput).focus()
    await settle(pilot)


@pytest.mark.parametrize("area", ["chat", "chips", "assumptions", "message", "sessions", "replay"])
@pytest.mark.parametrize(("text", "lang"), [(EN, "en"), (ZH, "zh")])
async def test_f1_says_where_the_focus_is_and_lists_its_keys_first(store, settings_file, area, text, lang):
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text(f'language = "{lang}"\n', encoding="utf-8")
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        if area != "chips":  # the first screen's quick replies are the chips; the other areas need an answer
            await say(pilot, text)
        await focus(pilot, area)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.area == area
        text_shown = shown(app)
        here = words(lang, "help.here", what=words(lang, f"help.here.{area}"))
        assert here in text_shown.splitlines()
        # the first section after the "here" line is the focused area's own
        after = text_shown.split(here, 1)[1].strip().splitlines()[0]
        assert after == words(lang, f"help.section.{SECTION[area]}")
        # every section is still listed, each once
        for section in ("app", "chat", "message", "sessions", "replay"):
            assert text_shown.count(f"\n{words(lang, f'help.section.{section}')}\n") == 1
        other = "zh" if lang == "en" else "en"
        assert words(other, f"help.here.{area}") not in text_shown


async def test_f1_on_a_focused_message_lists_its_remapped_keys_first(store, settings_file):
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text('[keys]\n"message.copy" = "y"\n', encoding="utf-8")
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await say(pilot, EN)
        await pilot.press("ctrl+up")
        await settle(pilot)
        assert isinstance(app.screen.focused, ChatMessage)
        await pilot.press("f1")
        await pilot.pause()
        lines = shown(app).splitlines()
        start = lines.index(words("en", "help.section.message"))
        assert lines[start + 1].startswith("  Y ") and "Copy this message" in lines[start + 1]
        assert start < lines.index(words("en", "help.section.app"))


# ---------------------------------------------------------------- the welcome text and the hint, as remapped


@pytest.mark.parametrize(("keys", "math", "scroll"), [
    ("", "Ctrl+E", "PgUp/PgDn"),
    ('"chat.math" = "f6"\n"chat.page_up" = "ctrl+b"\n', "F6", "Ctrl+B/PgDn"),
    ('"chat.math" = "ctrl+g,f7"\n"chat.page_down" = "ctrl+f"\n', "Ctrl+G", "PgUp/Ctrl+F"),
])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_welcome_and_the_hint_name_the_keys_as_remapped(store, settings_file, keys, math, scroll, lang):
    settings_file.parent.mkdir(parents=True, exist_ok=True)
    settings_file.write_text(f'language = "{lang}"\n[keys]\n{keys}', encoding="utf-8")
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        welcome = str(app.screen.query_one("#welcome", Static).render())
        hint = app.screen.query_one(PromptInput).placeholder
        assert math in welcome and ("Ctrl+E" in welcome) == (math == "Ctrl+E")
        assert scroll in hint and ("PgUp/PgDn" in hint) == (scroll == "PgUp/PgDn")
        assert hint.startswith("Message:" if lang == "en" else "输入消息")
        await say(pilot, EN if lang == "en" else ZH)  # the hint keeps the remapped keys after a turn
        assert scroll in app.screen.query_one(PromptInput).placeholder


# ---------------------------------------------------------------- usage errors


@pytest.mark.parametrize(("argv", "usage"), [
    (["sessions", "export"], "gpu-advisor sessions export ID [options]"),
    (["sessions", "show"], "gpu-advisor sessions show ID [options]"),
    (["size", "training"], "gpu-advisor size training --model M --method METHOD [options]"),
    (["config", "set", "theme"], "gpu-advisor config set KEY VALUE [options]"),
    (["recommend", "--model", "llama-3-8b", "--users", "many"], "gpu-advisor recommend --model M [options]"),
    (["sessions"], "gpu-advisor sessions COMMAND"),
    (["no-such-command"], "gpu-advisor COMMAND [options]"),
])
def test_a_usage_error_says_the_form_expected_and_points_at_the_commands_help(capsys, argv, usage):
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    command = " ".join(["gpu-advisor", *[a for a in argv[:2] if not a.startswith("-")]])
    if argv == ["no-such-command"]:
        command = "gpu-advisor"
    assert err.count("\n") == 1 and err.startswith("gpu-advisor: ")
    assert f"; usage: `{usage}` (see `{command} --help`)" in err, err


def test_every_commands_usage_is_one_line_naming_what_it_requires():
    for name, parser in subcommands(build_parser()):
        form = parser.expected()  # type: ignore[attr-defined]
        assert "\n" not in form and form.startswith(parser.prog), name
        for action in parser._actions:
            if action.required and action.option_strings:
                assert f" {action.option_strings[0]} " in f" {form} ", (name, action.option_strings)
