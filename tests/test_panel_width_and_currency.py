"""The side panel at 80x24 (issue 25): a long label or value wraps inside the panel, under the value column, never
past its edge or into its neighbour; a budget said in yuan is shown in yuan, the dollars the options are ranked by
beside it; a list of cards is written as cards, not as a Python list."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from gpu_advisor.assistant.session import Conversation
from gpu_advisor.knowledge import rules
from gpu_advisor.tui.panel import ProfilePanel, profile_rows, profile_text
from tests.test_tui import make_app, say

pytestmark = pytest.mark.usefixtures("settings_file")  # the settings in the test's folder (conftest)

PROFILES = [
    {"phase": "serve", "model": "qwen2.5-14b", "users": 20, "region": "china", "budget_usd": 28000.0,
     "only": ["2x rtx-4090"], "deadline_hours": 48.0, "ttft_ms": 500.0},
    {"phase": "serve", "model": "llama-3.1-70b-instruct", "population": 60, "owned": ["1x rtx-4090", "2x a100-80gb"],
     "budget_usd_per_month": 2800.0, "region": "us", "utilisation": 1.0},
    {"phase": "fine-tune", "model": "qwen2.5-7b", "method": "lora", "train_examples": 50_000, "seq_len": 2048,
     "exclude": ["h100-sxm", "h200", "b200"], "region": "china"},
]
WIDTHS = [31, 33, 24]  # the panel's text at 80 columns (F3), at 120 columns, and narrower than either


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("profile", PROFILES, ids=["serve-china", "serve-us", "fine-tune"])
def test_every_line_fits_the_panel_and_reads_back_as_its_labels_and_values(profile, lang, width):
    rows = profile_rows(profile, lang)
    plain = profile_text(profile, lang, width).plain
    assert all(cell_len(line) <= width for line in plain.splitlines()), plain
    assert squeezed(plain) == squeezed("".join(f"{label}{value if value not in (None, '') else '?'}"
                                               for label, value in rows))
    for line in plain.splitlines():  # a line goes on a value's wrapped words, or starts a label
        if line.startswith(" "):
            assert not any(line.strip().startswith(label) for label, _ in rows)
    assert all("[" not in str(value) for _, value in rows)  # cards are written as cards


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrapped_value_goes_on_under_its_value_column(lang, width):
    profile = PROFILES[1]
    lines = profile_text(profile, lang, width).plain.splitlines()
    label = next(label for label, value in profile_rows(profile, lang) if "4090" in str(value))
    at = next(n for n, line in enumerate(lines) if line.startswith(label))
    rest = lines[at][len(label):]
    if rest.strip():  # beside its label
        start = cell_len(lines[at]) - cell_len(rest.lstrip())
    else:  # under it
        at += 1
        start = cell_len(lines[at]) - cell_len(lines[at].lstrip())
    following = []
    for line in lines[at + 1:]:
        if not line.startswith(" "):
            break
        following.append(line)
    assert following  # this value is longer than the panel is wide
    assert {cell_len(line) - cell_len(line.lstrip()) for line in following} == {start}
    assert start <= width // 2 + 1 or not rest.strip()


@pytest.mark.parametrize(("said", "lang", "yuan"), [
    ("想在两张4090上部署qwen2.5-14b给20个人用，预算二十万", "zh", 200_000),
    ("想在两张4090上部署qwen2.5-14b给20个人用，预算20万元", "zh", 200_000),
    ("部署qwen2.5-14b给20个人用，预算 150000 元", "zh", 150_000),
    ("部署qwen2.5-14b给20个人用，每月预算两万", "zh", 20_000),
    ("serve qwen2.5-14b to 20 users, we have a budget of 20k yuan a month", "en", 20_000),
])
def test_a_budget_said_in_yuan_is_shown_in_yuan_with_its_dollars(store, said, lang, yuan):
    conv = Conversation(store)
    conv.send(said)
    profile = conv.state["profile"]
    usd = profile.get("budget_usd") or profile.get("budget_usd_per_month")
    assert usd == pytest.approx(yuan * rules().usd_per_cny, rel=0.01)
    value = dict(profile_rows(profile, lang))[next(label for label, v in profile_rows(profile, lang) if "¥" in str(v))]
    assert value == f"¥{yuan:,.0f} (${usd:,.0f})"
    assert "$" not in profile_text(profile, lang, 31).plain.split("¥")[0]  # no dollars before the yuan


@pytest.mark.parametrize("said", ["serve qwen2.5-14b to 20 users, budget $28k", "serve qwen2.5-14b to 20 users with $5000 a month"])
def test_a_budget_said_in_dollars_stays_in_dollars(store, said):
    conv = Conversation(store)
    conv.send(said)
    profile = conv.state["profile"]
    usd = profile.get("budget_usd") or profile.get("budget_usd_per_month")
    assert usd
    values = [str(v) for _, v in profile_rows(profile, "en")]
    assert f"${usd:,.0f}" in values and not any("¥" in v for v in values)


@pytest.mark.parametrize(("turns", "yuan"), [
    (["想在两张4090上部署qwen2.5-14b给20个人用，预算二十万"], "¥200,000"),
    (["serve llama 3.1 70b to our team of 60 engineers in china, budget 20k yuan a month"], "¥20,000"),
], ids=["zh", "en"])
async def test_the_panel_at_80x24_fits_and_shows_the_budget_in_yuan(store, turns, yuan):
    app = make_app(store)
    async with app.run_test(size=(80, 24)) as pilot:
        for turn in turns:
            await say(pilot, turn)
        await pilot.press("f3")
        await pilot.pause()
        panel = app.screen.query_one("#profile", ProfilePanel)
        width = panel.content_region.width
        assert 20 <= width <= 32
        from textual.geometry import Region

        shown = [strip.text.rstrip() for strip in panel.render_lines(Region(0, 0, panel.size.width, panel.size.height))]
        laid_out = profile_text(panel.profile, panel.lang, width).plain
        assert panel.size.height == len(laid_out.split("\n"))  # its rows and the blank line after them: none wraps again
        assert all(cell_len(line) <= width for line in shown), shown
        assert any(yuan in line for line in shown), shown


@pytest.mark.parametrize("turn", ["想在两张4090上部署qwen2.5-14b给20个人用，预算二十万",
                                  "serve llama 3.1 70b to our team of 60 engineers in china, budget 20k yuan a month"],
                         ids=["zh", "en"])
def test_snapshot_the_panel_at_80x24(snap_compare, store, turn):
    from tests.test_tui import steady

    async def run_before(pilot):
        await say(pilot, turn)
        await pilot.press("f3")
        await steady(pilot)

    assert snap_compare(make_app(store), terminal_size=(80, 24), run_before=run_before)
