"""A Chinese conversation gets the app's own words in Chinese (F1 help, the sessions screen, the panel's values,
replay and its tool-calls panel), from the first Chinese message or the `language` setting; columns line up by
cells on screen. The tool-calls panel shows each call's arguments and a summary of its result."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from textual.widgets import DataTable, Input, Static
from textual.widgets._footer import FooterKey

from gpu_advisor.assistant.session import Conversation
from gpu_advisor.tui import bindings, settings
from gpu_advisor.tui.app import GPUAdvisorApp
from gpu_advisor.tui.calls import arguments, calls_text, result_summary
from gpu_advisor.tui.panel import profile_text
from gpu_advisor.tui.screens import HelpScreen, ReplayScreen, SessionsScreen
from gpu_advisor.tui.widgets import ChatMessage, PromptInput, QuickReplies, key_words
from gpu_advisor.tui.words import catalog
from tests.test_tui import say

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

ZH = "给3个人全天候部署llama 3 8b"
EN = "serve llama 3 8b to 3 users around the clock"
CJK = re.compile(r"[\u3400-\u9fff]")
ALL = bindings.APP_BINDINGS + bindings.CHAT_BINDINGS + bindings.MESSAGE_BINDINGS + bindings.SESSIONS_BINDINGS \
    + bindings.REPLAY_BINDINGS


def footer(app) -> set[str]:
    return {k.description for k in app.screen.query(FooterKey) if k.description}


# ---------------------------------------------------------------- the catalogs


def test_the_app_catalogs_have_the_same_keys_and_templates():
    en, zh = catalog("en"), catalog("zh")
    assert set(en) == set(zh)
    for key in en:
        names = set(re.findall(r"\{(\w+)", str(en[key])))
        assert names == set(re.findall(r"\{(\w+)", str(zh[key]))), key
        if isinstance(en[key], str) and en[key] != zh[key]:  # ('{action} {count} × {gpu}' is the same in both)
            assert CJK.search(zh[key]), key  # written in Chinese
            assert not CJK.search(en[key]), key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_binding_has_help_words_and_every_shown_key_short_words(lang):
    for b in ALL:
        if b.action != "next_field":
            assert catalog(lang).get(f"help.{b.id}"), b.id
        if b.show:
            said = key_words(lang, b.action)
            assert said or lang == "en", b.action
            if lang == "zh":
                assert CJK.search(said or ""), b.action


# ---------------------------------------------------------------- F1


def help_shown(app) -> str:
    return app.screen.query_one(Static).render().plain


@pytest.mark.parametrize(("text", "titles", "not_there"), [
    (ZH, ["任何地方", "对话", "对话记录中的一条消息", "会话", "回放"], ["Everywhere", "Send the message", "Quit"]),
    (EN, ["Everywhere", "Chat", "A message in the transcript", "Sessions", "Replay"], ["任何地方", "发送消息"]),
])
async def test_f1_speaks_the_conversations_language_and_lines_up_by_cells(store, text, titles, not_there):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await say(pilot, text)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = help_shown(app)
        for title in titles:
            assert f"\n{title}\n" in shown, title
        for words in not_there:
            assert words not in shown
        rows = [line for line in shown.splitlines() if line.startswith("  ") and len(line.strip()) > 2]
        assert len(rows) > 40
        # every description starts at the same cell: the key column is padded by cells, not characters
        starts = {cell_len(line[:len(line) - len(line[2:].split("  ", 1)[-1].lstrip())]) for line in rows
                  if "  " in line[2:]}
        assert starts == {18}, starts


# ---------------------------------------------------------------- the sessions screen


@pytest.mark.parametrize(("text", "headings", "search", "count"), [
    (ZH, ["更新时间（UTC）", "标题", "消息", "编号"], "搜索会话", "共 1 个会话，显示 1 个 · Enter 打开"),
    (EN, ["updated (UTC)", "title", "msgs", "id"], "Search sessions", "1 of 1 session · Enter open"),
])
async def test_the_sessions_screen_speaks_the_conversations_language(store, monkeypatch, text, headings, search,
                                                                       count):
    monkeypatch.setenv("TZ", "UTC")
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await say(pilot, text)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)
        table = app.screen.query_one(DataTable)
        assert [str(c.label) for c in table.columns.values()] == headings
        assert app.screen.query_one(Input).placeholder.startswith(search)
        assert str(app.screen.query_one("#session-count", Static).render()).startswith(count)
        if text == ZH:
            assert {"回放", "重新运行", "返回", "退出"} <= footer(app)
        # the title column is cut by cells: the row fits the table's width
        row = table.get_row_at(0)
        assert sum(cell_len(str(c)) for c in row) <= 80


# ---------------------------------------------------------------- the panel


@pytest.mark.parametrize(("lang", "values"), [
    ("zh", {"阶段": "部署服务", "利用率": "全天候", "地区": "中国", "截止时间": "48 小时", "首 token 延迟": "500 毫秒",
            "微调方式": None}),
    ("en", {"phase": "serving", "utilisation": "around the clock", "region": "china", "deadline": "48 h",
            "first token": "500 ms"}),
])
def test_the_panel_values_are_in_the_conversations_language_and_line_up(lang, values):
    profile = {"phase": "serve", "model": "llama-3-8b", "users": 3, "utilisation": 1.0, "region": "china",
               "deadline_hours": 48.0, "ttft_ms": 500.0, "context": 8192}
    shown = profile_text(profile, lang).plain
    for label, value in values.items():
        if value is None:
            assert label not in shown
            continue
        line = next(line for line in shown.splitlines() if line.startswith(label))
        assert line.endswith(value), line
        assert cell_len(line) - cell_len(value) == (14 if lang == "zh" else 13), line  # the same cell for every value
    assert profile_text({**profile, "utilisation": 0.24}, lang).plain.count("24%") == 1


async def test_a_chinese_conversation_shows_chinese_panel_values(store):
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await say(pilot, ZH)
        await pilot.pause()
        panel = app.screen.query_one("#profile", Static).render().plain
        assert "全天候" in panel and "部署服务" in panel and "中国" in panel
        assert not re.search(r"\b(china|serve|around)\b", panel)


# ---------------------------------------------------------------- the language setting


@pytest.mark.parametrize("value", ["zh", "ZH"])
async def test_the_language_setting_makes_the_first_screen_chinese(store, settings_file, value):
    settings.set_value("language", value, settings_file)
    assert settings.load(settings_file).language == "zh"
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert "退出" in footer(app)
        assert app.screen.query_one(PromptInput).placeholder.startswith("输入消息")
        assert str(app.screen.query_one("#welcome", Static).render()).startswith("你好")
        chips = [str(b.label) for b in app.screen.query_one(QuickReplies).buttons()]
        assert chips[0] == "1 试用模型"
        await say(pilot, EN)  # an English conversation takes its own language
        assert "Quit" in footer(app)
        assert [str(m.query_one(".who").render()) for m in app.screen.query(ChatMessage)] == ["You", "Advisor"]


def test_a_language_setting_that_does_not_exist_is_refused(settings_file):
    with pytest.raises(settings.SettingsError, match="auto, en, zh"):
        settings.set_value("language", "fr", settings_file)
    assert settings.load(settings_file).language == "auto"
    assert settings.get_value("language", settings.load(settings_file)) == "auto"


# ---------------------------------------------------------------- replay and its tool calls


def recommend_call() -> dict:
    return {"tool": "recommend", "duration_ms": 12.5,
            "arguments": {"utilisation": 1.0, "model": "llama-3-8b", "users": 3, "budget_usd": None, "cheapest": False,
                          "exclude": [], "context": 8192, "region": "china"},
            "result": {"action": "rent", "best": {"gpus": 1, "gpu_name": "NVIDIA GeForce RTX 4090 24GB"}}}


def memory_call(fits: bool) -> dict:
    return {"tool": "inference_memory", "duration_ms": 0.3,
            "arguments": {"model": "llama-3-8b", "gpu": "rtx-4090", "gpus": 1, "precision": "fp8", "batch": 3},
            "result": {"per_gpu_total_bytes": 13.9e9 if fits else 30.2e9, "gpu_capacity_bytes": 25.5e9, "fits": fits}}


def test_a_calls_arguments_are_the_ones_set_leading_ones_first():
    assert arguments(recommend_call()["arguments"]) == "model=llama-3-8b users=3 context=8,192 region=china utilisation=1"
    many = {f"k{n}": n for n in range(1, 13)}
    assert arguments(many, "en").endswith("+4 more")
    assert arguments(many, "zh").endswith("另有 4 个")
    assert arguments({"model": "\x1b[31mevil"}) == "model=evil"  # stored text: never a terminal command


@pytest.mark.parametrize(("call", "lang", "summary"), [
    (recommend_call(), "en", "rent 1 × NVIDIA GeForce RTX 4090 24GB"),
    (recommend_call(), "zh", "租用 1 × NVIDIA GeForce RTX 4090 24GB"),
    (memory_call(True), "en", "13.9 of 25.5 GB per GPU, fits"),
    (memory_call(False), "en", "30.2 of 25.5 GB per GPU, does not fit"),
    (memory_call(True), "zh", "每张 GPU 13.9 GB（每卡 25.5 GB），放得下"),
    ({"tool": "x", "arguments": {}, "result": None}, "en", "no result"),
    ({"tool": "x", "arguments": {}, "result": {"error": "unknown model"}}, "zh", "失败：unknown model"),
])
def test_a_calls_result_is_summed_up_in_one_line(call, lang, summary):
    assert result_summary(call["tool"], call["result"], lang) == summary


def test_the_calls_panel_names_each_call_with_its_arguments_and_result():
    shown = calls_text([recommend_call(), memory_call(True)], "en").plain
    assert shown.splitlines() == [
        "recommend (12.5 ms)", "  model=llama-3-8b users=3 context=8,192 region=china utilisation=1",
        "  → rent 1 × NVIDIA GeForce RTX 4090 24GB", "",
        "inference_memory (0.3 ms)", "  model=llama-3-8b gpu=rtx-4090 gpus=1 precision=fp8 batch=3",
        "  → 13.9 of 25.5 GB per GPU, fits"]
    assert calls_text([], "zh").plain == "这条消息没有工具调用"


@pytest.mark.parametrize(("text", "title", "calls", "status"), [
    (ZH, "回放：", "工具调用", "第 2 条，共 2 条 · 已暂停"), (EN, "Replay: ", "Tool calls", "message 2 of 2 · paused")])
async def test_replay_shows_the_calls_arguments_and_results_in_the_sessions_language(store, text, title, calls, status):
    conv = Conversation(store)
    conv.send(text)
    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        app.push_screen(ReplayScreen(store, conv.session_id))
        await pilot.pause()
        await pilot.press("right")
        await pilot.pause()
        screen = app.screen
        assert screen.sub_title.startswith(title)
        assert str(screen.query_one(".panel-title").render()) == calls
        assert str(screen.query_one("#replay-status", Static).render()).startswith(status)
        panel = screen.query_one("#calls", Static).render().plain
        assert "recommend (" in panel and "model=llama-3-8b" in panel and "users=3" in panel
        assert re.search(r"→ (租用|购买) \d+ × " if text == ZH else r"→ (rent|buy) \d+ × ", panel), panel


# ---------------------------------------------------------------- the CLI's list


def test_sessions_list_lines_up_chinese_titles_by_cells(store, capsys, monkeypatch):
    from gpu_advisor.tui.cli import main

    monkeypatch.setenv("TZ", "UTC")
    for text in (ZH, EN, "微调 qwen2.5 7b"):
        Conversation(store).send(text)
    assert main(["sessions", "list", "--db", str(store.path)]) in (0, None)
    lines = capsys.readouterr().out.splitlines()
    header, rows = lines[0], lines[2:]
    assert len(rows) == 3 and any(CJK.search(r) for r in rows)
    column = cell_len(header[:header.index("messages")]) + len("messages")
    assert {cell_len(r.rstrip()) for r in rows} == {column}  # the counts end where the header ends
