"""Session 14's mends of session 13's last merges, each over several phrasings in both languages:
- a card tried 'instead' while weighed against the plan ('why not 2x L40S instead, theyre cheaper', '算了，我打算买一张
  二手3090，会更好吗') is a comparison, not the plan's new count (reading.fixed_count.read_count_instead);
- hours of use stated beside 'mostly X, occasionally Y' ('每天用个八小时左右') are the utilisation, kept (only one
  read from 'occasionally' is dropped: reading.aside_train.read_side_use);
- '我就这一张卡' is the one card named before, owned."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.fixed_count import read_count_instead
from gpu_advisor.assistant.reading.message import Understanding, prepare

WEIGHED = ["why not 2x L40S instead, theyre cheaper", "why not use 2x L40S instead?",
           "wouldn't 2x L40S be cheaper instead", "2x L40S instead, is that better?",
           "算了，换成两张L40S会不会更便宜", "换成2张L40S是不是更划算", "改用两张L40S，会更好吗"]
TAKEN = ["ok scratch that, 2x L40S instead", "forget it, 2x L40S instead", "算了，换成两张L40S", "那算了，改用2张L40S"]


def _recount(text: str) -> tuple | None:
    m = prepare(text, None)
    card = next(g for _s, _e, g, _n in m.gpus)
    u = Understanding(whatif_gpus=(2, card))
    read_count_instead(m, u)
    return u.recount


@pytest.mark.parametrize("text", WEIGHED)
def test_a_card_weighed_instead_is_no_new_count(text):
    assert _recount(text) is None


@pytest.mark.parametrize("text", TAKEN)
def test_a_card_taken_instead_is_the_new_count(text):
    assert _recount(text)[:2] == (2, "l40s")


HOURS = ["每天用个八小时左右", "每天大概用8小时", "一天用八个小时", "about 8 hours a day", "roughly 8h a day"]
SIDE = [("主要做7B到14B模型的LoRA微调，偶尔推理，{h}", "zh"), ("mostly lora on 7b-14b models, occasionally inference, {h}", "en")]


@pytest.mark.parametrize("hours", HOURS)
@pytest.mark.parametrize(("side", "lang"), SIDE)
def test_hours_of_use_beside_a_side_job_are_kept(hours, side, lang):
    if (lang == "zh") != any("\u4e00" <= c <= "\u9fff" for c in hours):
        pytest.skip("one language per message")
    u = understand(side.format(h=hours))
    assert u.updates.get("utilisation") == pytest.approx(8 / 24, abs=0.001)


@pytest.mark.parametrize("side", ["主要做LoRA微调，偶尔推理", "mostly lora finetuning, occasionally inference"])
def test_occasionally_alone_is_no_utilisation(side):
    assert "utilisation" not in understand(side).updates


@pytest.mark.parametrize("text", ["我就这一张卡", "我就这一张", "只有这一张卡", "就这一张，不打算再买"])
def test_the_one_card_said_in_chinese_is_owned(text):
    u = understand(text)
    assert u.owns_named == "one" and "preference" not in u.updates
