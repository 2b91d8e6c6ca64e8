"""A Chinese reply wraps between characters the way Chinese is set (issue 25): Textual broke lines only at spaces,
so a run of Chinese with no space was one word, and a line ended half-way or began with a full stop. The helper
(tui.cjk_wrap) is checked on generated Chinese/Latin mixes; the app at 80x24 and 120x40 with a Chinese answer."""

from __future__ import annotations

import unicodedata
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich._wrap import divide_line as rich_divide_line
from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Region
from textual.widgets import Markdown, Static

from gpu_advisor.tui import cjk_wrap
from gpu_advisor.tui.cjk_wrap import NO_END, NO_START, divide_line, units
from gpu_advisor.tui.widgets import ChatMessage
from tests.test_tui import make_app, say, steady

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

HAN = st.text(alphabet=st.characters(min_codepoint=0x4E00, max_codepoint=0x4FFF), min_size=1, max_size=12)
MARKS = st.sampled_from(list("，。、；：！？（）《》「」“”"))
LATIN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ", min_size=1, max_size=7)
NUMBER = st.builds(lambda n, unit: f"{n}{unit}", st.integers(0, 99999), st.sampled_from(["", " GB", " 个", "%", "B"]))
SPACE = st.sampled_from(["", " ", "  "])
PIECES = st.lists(st.one_of(HAN, MARKS, LATIN, NUMBER, SPACE), min_size=1, max_size=40)
MIXED = PIECES.map("".join).filter(lambda t: any(cell_len(c) == 2 for c in t))


def lines(text: str, width: int) -> list[str]:
    cuts = [0, *divide_line(text, width), len(text)]
    return [text[a:b] for a, b in pairwise(cuts)]


@given(MIXED, st.integers(4, 100))
def test_no_line_is_wider_than_the_width_and_the_lines_are_the_text(text, width):
    shown = lines(text, width)
    assert "".join(shown) == text  # nothing inserted, nothing lost: the text read back is the text
    assert all(cell_len(line.rstrip()) <= width for line in shown)


@given(MIXED, st.integers(10, 100))
def test_where_every_piece_fits_no_line_starts_with_a_closing_mark_or_ends_with_an_opening_one(text, width):
    if max(cell_len(text[s:e]) for s, e, _ in units(text)) > width:
        return  # a piece longer than a line is folded wherever the width falls
    shown = [line for line in lines(text, width) if line.strip()]
    for before, line in pairwise(shown):
        assert unicodedata.category(line.lstrip()[0]) not in NO_START, (before, line)
        assert unicodedata.category(before.rstrip()[-1]) not in NO_END, (before, line)
        assert not before.rstrip()[-1].isdigit(), (before, line)  # a number stays with what follows it


@given(MIXED, st.integers(10, 100))
def test_a_line_is_broken_only_where_the_next_piece_would_not_fit(text, width):
    shown = lines(text, width)
    if max(cell_len(text[s:e]) for s, e, _ in units(text)) > width:
        return
    for line, after in pairwise(shown):
        first = units(after)[0]
        assert cell_len(line) + cell_len(after[first[0]:first[1]]) > width, (line, after)


@given(st.text(alphabet="abc xyz,.()1234-", max_size=120), st.integers(1, 100))
def test_text_without_a_wide_character_wraps_as_rich_wraps_it(text, width):
    assert divide_line(text, width) == rich_divide_line(text, width)


@pytest.mark.parametrize("text, width, expected", [
    ("按原要求，你说的卡数显存不够；KV 缓存用 FP8（显存和每个 token 的读取量都减半）。", 30,
     ["按原要求，你说的卡数显存不够；", "KV 缓存用 FP8（显存和每个 ", "token 的读取量都减半）。"]),
    ("每张 GPU 占用 20.0 GB（每卡 25.5 GB）；每个用户 36 token/s", 20,
     ["每张 GPU 占用 ", "20.0 GB（每卡 ", "25.5 GB）；每个用户 ", "36 token/s"]),
    ("下面按这个方案（不想这样改请直接说）。", 36, ["下面按这个方案（不想这样改请直接", "说）。"]),
])
def test_known_replies_break_between_characters_keeping_marks_and_numbers_with_their_neighbours(text, width, expected):
    assert lines(text, width) == expected


@given(MIXED, st.integers(6, 100))
def test_textuals_content_wraps_with_it_once_installed(text, width):
    cjk_wrap.install()
    wrapped = Content(text).wrap(width)
    assert all(line.cell_length <= width for line in wrapped)
    assert [line.plain.rstrip() for line in wrapped] == [line.rstrip() for line in lines(text, width)]


# ---------------------------------------------------------------- the app


ZH_SERVE = ["想在两张4090上部署qwen2.5-14b给20个人用", "2"]
ZH_TRAIN = ["我想微调一个qwen2.5 14b，然后给20个同事用", "2", "2"]


def shown_lines(widget: Static) -> tuple[list[str], int]:
    """The lines a paragraph shows on screen, and the cells its text has."""
    width, height = widget.content_region.width, widget.content_region.height
    return [strip.text.rstrip() for strip in widget.render_lines(Region(0, 0, widget.size.width, height))], width


@pytest.mark.parametrize("turns", [ZH_SERVE, ZH_TRAIN], ids=["serve", "fine-tune"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_a_chinese_answer_breaks_its_lines_between_characters_in_the_app(store, size, turns):
    app = make_app(store)
    async with app.run_test(size=size) as pilot:
        for turn in turns:
            await say(pilot, turn)
        answer = list(app.screen.query(ChatMessage))[-1]
        paragraphs = [b for md in answer.query(Markdown) for b in md.query("MarkdownParagraph")]
        assert paragraphs
        checked = 0
        for block in paragraphs:
            rows, width = shown_lines(block)
            rows = [r for r in rows if r.strip()]
            text = block._content.plain  # what the paragraph holds, as written
            assert "".join(r.strip() for r in rows).replace(" ", "") == text.replace(" ", "").replace("\n", "")
            for line, after in pairwise(rows):
                assert cell_len(line) <= width
                assert unicodedata.category(after.lstrip()[0]) not in NO_START, (line, after)
                if any(cell_len(c) == 2 for c in line + after):  # a Chinese line is full before it breaks
                    first = units(after.lstrip())[0]
                    gap = 1  # the space the line may have ended with
                    assert cell_len(line) + gap + cell_len(after.lstrip()[first[0]:first[1]]) > width, (line, after)
                    checked += 1
        assert checked  # the answer has Chinese paragraphs of more than one line at this size


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_snapshot_a_chinese_answer(snap_compare, store, size):
    async def run_before(pilot):
        for turn in ZH_SERVE:
            await say(pilot, turn)
        pilot.app.screen.query_one("#transcript").scroll_home(animate=False)
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=size, run_before=run_before)
