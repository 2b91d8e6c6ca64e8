"""A plan that uses part of a machine sold only whole (4 of an 8-card H20 server) says, in its rent-or-buy
paragraph, which cards each figure counts: the rent the plan's cards, the purchase the whole server; and a
rent quoted for a whole machine says what the whole machine costs beside the plan's share of it."""

from __future__ import annotations

import pytest

from tests.conversation import run_conversation

PLAN = {"en": "serve qwen2.5 72b to 100 concurrent users on H20, around the clock",
        "zh": "部署qwen2.5 72b给100人同时用，用H20，全天候运行"}
PART = {"en": "so buying prices the whole server. The rent counts only what the plan uses: 4 × NVIDIA H20 96GB.",
        "zh": "所以购买价是整台服务器的价格。租用只按方案所用的 4 × NVIDIA H20 96GB 计价。"}


def _answer(turns: list[str]):
    reply = run_conversation(turns)[-1]
    return reply.content, reply.additional_kwargs["gpu_advisor"]["results"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rent_or_buy_says_which_cards_each_figure_counts(lang: str):
    text, r = _answer([PLAN[lang]])
    best, rb = r["recommend"]["best"], r["recommend"]["rent_or_buy"]
    assert (best["gpu"], best["gpus"], best["sold_in"]) == ("h20", 4, 8)
    paragraph = next(line for line in text.splitlines() if line.startswith(("**Rent or buy", "**租还是买")))
    assert PART[lang] in paragraph
    # the rent is the plan's 4 cards at the table's hourly price, every hour of the horizon
    assert rb["rent_total_usd"] == pytest.approx(best["usd_per_hour"] * rb["horizon_months"] * 730, rel=0.01)


QUOTED = {"en": "we were quoted ¥60,000 a month for a whole 8x H20 server. serve qwen2.5 72b to 100 concurrent users "
                "around the clock",
          "zh": "有人给我们报价：8卡H20服务器每月6万元。部署qwen2.5 72b给100人同时用，全天候"}
WHOLE = {"en": "The price is for whole 8-card machines", "zh": "这个报价是 8 卡整机的价格"}
MACHINES = {"en": "whole machines only: 1 × 8 cards, ¥60,0", "zh": "只能整机租的话：1 台 8 卡整机，每月 ¥60,0"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rent_quoted_for_a_whole_machine_says_the_whole_machine_beside_the_share(lang: str):
    text, r = _answer([QUOTED[lang]])
    best = r["recommend"]["best"]
    assert (best["gpu"], best["gpus"]) == ("h20", 4)
    line = next(x for x in text.splitlines() if WHOLE[lang] in x)
    assert MACHINES[lang] in line
    assert "does not pay for itself" not in text or lang == "en"  # no English in a Chinese reply
