"""The sessions list people read (CLI `sessions list`/`search` and the app's sessions screen): local
times with the zone in the header (JSON keeps ISO UTC), the shortest unique id prefix (8 characters at
least, accepted by every command taking an id), an empty state saying what to do, and columns aligned
by display cells. Every test sets TZ itself (time.tzset), so none depends on the machine's zone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from gpu_advisor.assistant.history import HistoryStore
from gpu_advisor.assistant.history.common import short_id
from gpu_advisor.tui.cli import main

# (id, title, updated in UTC) newest first: ids sharing 25, 9 and 3 characters with a neighbour
SESSIONS = [
    ("01JD00001YAAAAAAAAAAAAAAAA", "Serve Llama 3.1 70B to 200 users", "2026-07-15T12:00:00.000+00:00"),
    ("01JD00001XAAAAAAAAAAAAAAAA", "微调 Qwen2.5 14B", "2026-03-01T23:30:00.000+00:00"),
    ("01JB00000000AAAAAAAAAAAAAB", "rent or buy 8 H100", "2026-01-15T12:00:00.000+00:00"),
    ("01JB00000000AAAAAAAAAAAAAA", "给 50 人部署 DeepSeek 模型", "2026-01-10T08:05:00.000+00:00"),
]
SHORT = {"01JD00001YAAAAAAAAAAAAAAAA": "01JD00001Y", "01JD00001XAAAAAAAAAAAAAAAA": "01JD00001X",
         "01JB00000000AAAAAAAAAAAAAB": "01JB00000000AAAAAAAAAAAAAB",
         "01JB00000000AAAAAAAAAAAAAA": "01JB00000000AAAAAAAAAAAAAA"}
# the same four times as each zone's clock shows them, and the zone names in the header
ZONES = {
    "Europe/Berlin": (["2026-07-15 14:00", "2026-03-02 00:30", "2026-01-15 13:00", "2026-01-10 09:05"], "CEST, CET"),
    "Asia/Shanghai": (["2026-07-15 20:00", "2026-03-02 07:30", "2026-01-15 20:00", "2026-01-10 16:05"], "CST"),
    "America/New_York": (["2026-07-15 08:00", "2026-03-01 18:30", "2026-01-15 07:00", "2026-01-10 03:05"], "EDT, EST"),
    "UTC": (["2026-07-15 12:00", "2026-03-01 23:30", "2026-01-15 12:00", "2026-01-10 08:05"], "UTC"),
}
EMPTY = ("No saved sessions yet: ask a question with `gpu-advisor ask \"...\"` or open the app with "
         "`gpu-advisor chat`.\n")


def seeded(path: Path, sessions=SESSIONS) -> HistoryStore:
    store = HistoryStore(path)
    for session_id, title, stamp in sessions:
        made = store.create_session(title)
        store.add_message(made, "user", f"question about {title}")
        store.conn.execute("PRAGMA foreign_keys = OFF")
        with store._write():
            store.conn.execute("UPDATE sessions SET id = ?, created = ?, updated = ? WHERE id = ?",
                               (session_id, stamp, stamp, made))
            store.conn.execute("UPDATE messages SET session_id = ? WHERE session_id = ?", (session_id, made))
        store.conn.execute("PRAGMA foreign_keys = ON")
    return store


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) in (0, None)
    return capsys.readouterr().out


@pytest.mark.parametrize("name", list(ZONES))
def test_the_list_shows_local_times_and_names_the_zone(tmp_path, capsys, zone, name):
    seeded(tmp_path / "h.db").close()
    zone(name)
    times, zones = ZONES[name]
    lines = run(capsys, "sessions", "list", "--db", str(tmp_path / "h.db")).splitlines()
    assert lines[0].split()[:3] == ["id", "updated", f"({zones.split(',')[0]}{',' if ',' in zones else ')'}"]
    assert f"updated ({zones})" in lines[0]
    rows = lines[2:]
    assert [r.split()[0] for r in rows] == [SHORT[s[0]] for s in SESSIONS]
    assert [" ".join(r.split()[1:3]) for r in rows] == times
    # --json keeps the stored ISO UTC value and the full id, whatever the zone
    data = json.loads(run(capsys, "sessions", "list", "--json", "--db", str(tmp_path / "h.db")))
    assert [(d["id"], d["updated"]) for d in data] == [(s[0], s[2]) for s in SESSIONS]


@pytest.mark.parametrize(("name", "query", "expected"), [
    ("Asia/Shanghai", "微调", [("01JD00001X", "2026-03-02 07:30")]),
    ("Europe/Berlin", "微调", [("01JD00001X", "2026-03-02 00:30")]),
    ("Europe/Berlin", "llama", [("01JD00001Y", "2026-07-15 14:00")]),
    ("America/New_York", "rent", [("01JB00000000AAAAAAAAAAAAAB", "2026-01-15 07:00")]),
])
def test_search_shows_the_same_short_ids_and_local_times(tmp_path, capsys, zone, name, query, expected):
    seeded(tmp_path / "h.db").close()
    zone(name)
    lines = run(capsys, "sessions", "search", query, "--db", str(tmp_path / "h.db")).splitlines()
    assert "updated (" in lines[0]
    assert [(r.split()[0], " ".join(r.split()[1:3])) for r in lines[2:]] == expected


def test_every_shown_id_names_its_session_in_every_command(tmp_path, capsys):
    seeded(tmp_path / "h.db").close()
    db = str(tmp_path / "h.db")
    full = {s[0] for s in SESSIONS}
    assert set(run(capsys, "sessions", "list", "--ids", "--db", db).split()) == full  # scripts get full ids
    for session_id, title, _stamp in SESSIONS:
        short = SHORT[session_id]
        for shown in (short, short.lower()):
            assert json.loads(run(capsys, "sessions", "show", shown, "--json", "--db", db))["session"]["title"] == title
            assert f"# {title}" in run(capsys, "sessions", "export", shown, "--db", db)
        if len(short) > 8:  # one character less matches two sessions: said, not guessed
            assert main(["sessions", "show", short[:-1], "--db", db]) == 2
            assert "matches several sessions" in capsys.readouterr().err
    assert run(capsys, "sessions", "delete", SHORT[SESSIONS[0][0]], "--yes", "--db", db) == f"Deleted {SESSIONS[0][0]}\n"


@given(st.lists(st.text(alphabet="01A", min_size=10, max_size=10), min_size=1, max_size=12, unique=True))
def test_short_ids_are_the_shortest_unique_prefixes_of_eight_or_more(ids):
    ordered = sorted(ids)
    for i, session_id in enumerate(ordered):
        shown = short_id(session_id, ordered[max(0, i - 1):i] + ordered[i + 1:i + 2])
        assert session_id.startswith(shown) and len(shown) >= 8
        assert [other for other in ids if other.startswith(shown)] == [session_id]
        if len(shown) > 8:
            assert len([other for other in ids if other.startswith(shown[:-1])]) > 1


def test_the_store_shortens_against_every_saved_session_not_only_those_shown(tmp_path):
    store = seeded(tmp_path / "h.db")
    assert store.short_ids([SESSIONS[0][0]]) == {SESSIONS[0][0]: "01JD00001Y"}  # its neighbour is not asked for
    assert store.short_ids([s[0] for s in SESSIONS]) == SHORT
    assert store.short_ids([]) == {}


@pytest.mark.parametrize("db_exists", [True, False])
def test_an_empty_list_says_what_to_do(tmp_path, capsys, db_exists):
    if db_exists:
        HistoryStore(tmp_path / "h.db").close()
    assert run(capsys, "sessions", "list", "--db", str(tmp_path / "h.db")) == EMPTY
    assert run(capsys, "sessions", "search", "llama", "--db", str(tmp_path / "h.db")) == "No session matches.\n"
    assert run(capsys, "sessions", "list", "--json", "--db", str(tmp_path / "h.db")) == "[]\n"


@pytest.mark.parametrize("titles", [
    ["微调 Qwen2.5 14B", "Serve Llama 3.1 70B", "部署"],
    ["全参数微调一个七十亿参数的模型然后给二十个人用它聊天写代码做总结", "a", "ＦＵＬＬ　ＷＩＤＴＨ"],
    ["plain ascii", "中文", "mixed 中 English 文"],
])
def test_columns_align_by_display_cells_with_chinese_titles(tmp_path, capsys, titles):
    sessions = [(f"01JE{n:022d}", title, f"2026-02-0{n + 1}T10:00:00.000+00:00") for n, title in enumerate(titles)]
    seeded(tmp_path / "h.db", sessions).close()
    lines = run(capsys, "sessions", "list", "--db", str(tmp_path / "h.db")).splitlines()
    header, rule, rows = lines[0], lines[1], lines[2:]
    ends = [cell_len(header[:header.index("messages") + len("messages")])]
    ends += [cell_len(r) for r in rows]  # the message count, right-aligned, ends every line at one cell
    assert len(set(ends)) == 1 and cell_len(rule) == ends[0]
    for row in rows:
        title_start = cell_len(row[:row.index("2026")]) + len("2026-02-01 10:00") + 2
        assert cell_len(header[:header.index("title")]) == title_start
    title_start = cell_len(header[:header.index("title")])
    assert ends[0] - title_start - len("  messages") <= 50  # titles cut at 50 cells, "…" included
    if cell_len(titles[1]) > 50:
        assert rows[1].split()[3].endswith("…")


async def _screen_rows(store: HistoryStore):
    from textual.widgets import DataTable, Static

    from gpu_advisor.tui.app import GPUAdvisorApp
    from gpu_advisor.tui.screens import SessionsScreen

    app = GPUAdvisorApp(store=store, preload=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SessionsScreen)
        table = screen.query_one(DataTable)
        labels = [str(c.label) for c in table.columns.values()]
        cells = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        status = str(screen.query_one("#session-count", Static).render())
        return labels, cells, status


@pytest.mark.parametrize("name", ["Europe/Berlin", "Asia/Shanghai"])
async def test_the_apps_sessions_screen_shows_local_times_and_short_ids(tmp_path, zone, name):
    store = seeded(tmp_path / "h.db")
    zone(name)
    labels, cells, status = await _screen_rows(store)
    times, zones = ZONES[name]
    assert labels[0] == f"updated ({zones})" and labels[3] == "id"
    assert [row[0] for row in cells] == times
    assert [row[3] for row in cells] == [SHORT[s[0]] for s in SESSIONS]
    assert status.startswith("4 of 4 sessions")


async def test_the_apps_empty_sessions_screen_says_what_to_do(tmp_path, zone):
    zone("Asia/Shanghai")
    _labels, cells, status = await _screen_rows(HistoryStore(tmp_path / "h.db"))
    assert cells == [] and status.startswith("No saved sessions yet: ask a question in the chat")
