"""A power price said is read and used in the buy figures (review CD #12: '电费八毛一度' was dropped; CD #3: an 8-card
server bought for a one-card plan added one card's power). '毛' is a tenth of a yuan, '/度' is per kWh; the price is
listed under what the user said, the buy-or-rent lines use it, and a server bought whole draws power for every card."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

ZH_PRICES = [("电费八毛一度", 0.8), ("电费0.8元/度", 0.8), ("电费八毛钱一度", 0.8), ("每度电0.8元", 0.8),
             ("电费八毛五一度", 0.85), ("电价两毛一度", 0.2), ("电费一块二一度", 1.2)]
ZH_FRAMES = ["部署qwen2.5-72b给五十个人同时用，{p}，买还是租", "{p}，要私有化部署一个模型，五十个人同时用",
             "买昇腾服务器部署qwen2.5-72b，{p}"]
EN_PRICES = [("power 0.14/kWh", 0.14), ("electricity is 0.14/kWh", 0.14), ("power is $0.14 per kwh", 0.14),
             ("electricity 14 cents per kwh", 0.14)]
EN_FRAMES = ["serve qwen2.5-72b to 50 users at once, {p}, buy or rent?", "{p}. buying 8 h20s for qwen2.5-72b"]


@pytest.mark.parametrize(("frame", "said"), list(itertools.product(ZH_FRAMES, ZH_PRICES)))
def test_a_power_price_in_yuan_is_read(frame: str, said: tuple[str, float]) -> None:
    text, yuan = said
    u = understand(frame.format(p=text), None)
    usd = u.updates.get("electricity_usd_per_kwh")
    assert usd is not None and abs(usd / 0.14 - yuan) < 0.01, u.updates


@pytest.mark.parametrize(("frame", "said"), list(itertools.product(EN_FRAMES, EN_PRICES)))
def test_a_power_price_in_dollars_is_read(frame: str, said: tuple[str, float]) -> None:
    u = understand(frame.format(p=said[0]), None)
    assert u.updates.get("electricity_usd_per_kwh") == pytest.approx(said[1]), u.updates


def _money(text: str) -> float:
    return float(text.replace(",", ""))


@pytest.mark.parametrize(("turn", "price"),
                         [("buy 4090s to serve qwen2.5-14b to 10 users at once around the clock, power 0.14/kWh, buy or rent?",
                           r"of power at \$0\.14 per kWh"),
                          ("买4090部署qwen2.5-14b给十个人同时用，全天候，电费八毛一度，买还是租", r"的电费（每度 ¥0\.80")])
def test_the_buy_or_rent_lines_use_the_price_said(turn: str, price: str) -> None:
    reply = run_conversation([turn])[-1].content
    assert re.search(price, reply), reply


def test_a_whole_server_bought_draws_power_for_every_card() -> None:
    # 1 H100 is the plan; the H100 is sold as 8-card servers: $320,000 + 8 cards' power and hosting over 36 months
    reply = run_conversation(["startup here, budget is 250k USD, thinking of buying an 8x H100 server vs renting. "
                              "electricity is 0.14/kWh. we'd serve qwen3 32b for our chat app, 18 users at once, "
                              "around the clock. buy or rent??", "rent or buy?"])[-1].content
    found = re.search(r"renting costs \$([\d,]+) and owning \$([\d,]+)", reply)
    assert found, reply
    power_and_hosting = _money(found.group(2)) - 320_000
    # 8 cards x 700 W x 1.3 at the wall x 26,280 h x $0.14 = $26,785; hosting 8 x $100 x 36 = $28,800
    assert power_and_hosting == pytest.approx(26_785 + 28_800, abs=2), reply


def test_conversation_cd12_lists_the_power_price() -> None:
    reply = run_conversation(["信创项目不能上N卡，要私有化部署我们自研的一个MoE模型，总参数两千三百亿，激活二百二十亿，bf16，"
                              "上下文六十四k，五十个人同时用，电费八毛一度，买昇腾服务器的话预算三百万够不够"])[-1].content
    said = next(line for line in reply.splitlines() if line.startswith("**你说的**"))
    assert "电价每度 ¥0.8 ($0.112)" in said, said
