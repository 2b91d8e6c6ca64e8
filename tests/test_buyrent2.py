"""One price for a bought server everywhere (review AH #16): '考虑买一台8卡A800整机大概多少钱，和租比多久回本' is
answered with the whole server's price (cards + the chassis they go into, knowledge.purchase_usd) first, and the
turn that asks and the plan after it weigh the same purchase; a Chinese buy-or-rent states power in yuan."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.knowledge import find_gpu, purchase_usd
from tests.conversation import payload, run_conversation

A800_ASKS = [
    ("买还是租？我们想长期跑一个Qwen2.5-72B的服务，7x24小时，考虑买一台8卡A800整机大概多少钱，和租比多久回本", "20个人左右吧"),
    ("8卡A800整机，7x24跑72B服务，买的话多少钱，跟租比几个月回本", "20人左右"),
    ("how much is an 8x A800 server, and how long until buying pays off against renting? running qwen2.5-72b 24/7",
     "about 20 people"),
    ("rent or buy? qwen2.5 72b served 24/7, what would a box with 8x a800 cost and when does it pay off", "20 users"),
]


def _yuan(text: str) -> list[int]:
    return [int(x.replace(",", "")) for x in re.findall(r"¥([\d,]+)(?![\d.])", text)]


@pytest.mark.parametrize("turns", A800_ASKS)
def test_the_server_price_asked_is_said_first_and_both_turns_weigh_it(turns):
    replies = run_conversation(list(turns))
    first, second = payload(replies[0]), payload(replies[1])
    whole = purchase_usd(find_gpu("a800"), 8)  # the cards and the HGX chassis
    rb1 = first["results"]["rent_or_buy"]
    rb2 = second["results"]["recommend"]["rent_or_buy"]
    assert rb1["buy_total_usd"] == pytest.approx(rb2["buy_total_usd"], rel=1e-6)
    owned = next(t for t in rb1["terms"] if t["key"] == "buy_total_usd")["inputs"]
    assert owned["purchase_usd_per_gpu"] * 8 == pytest.approx(whole)
    body = [x for x in replies[0].content.splitlines() if x.strip() and not x.startswith("##")]
    said = next(i for i, x in enumerate(body) if "A800" in x and ("整机" in x or "server" in x))
    assert said <= 1  # right after the echo of what was understood, before the totals
    yuan = round(whole / first["results"]["usd_per_cny"])
    assert yuan in _yuan(body[said])
    # the conversation's money in the assumptions too: 'rent ¥5.71 ($0.80)/card-hour', not '0.80 美元'
    assert "美元" not in replies[0].content and " USD" not in replies[0].content


ZH_SETUPS = [
    "我们想买一台8卡H200的服务器，还是直接租？大概60%的时间在用，用两年，电费每度0.8元，主要全参微调70B",
    "买还是租：8张H200，全参微调70B模型，用两年，利用率60%，电费0.8元一度",
    "电费一度0.8元，用两年，60%的时间在用，买一台8卡H200还是租？全参微调70B",
]


@pytest.mark.parametrize("text", ZH_SETUPS)
def test_a_chinese_buy_or_rent_prices_the_server_and_power_in_yuan(text):
    reply = run_conversation([text])[-1]
    v = payload(reply)["setup_buy_rent"]
    assert v["cards_usd"] == pytest.approx(purchase_usd(find_gpu("h200"), 8))
    block = reply.content.split("##")[0]
    assert "美元" not in block and "每度 ¥0.80" in block
    assert "整机" in block.splitlines()[0]


@pytest.mark.parametrize("text", [
    "buy an 8x h200 server or rent? full fine-tune of a 70b, busy 60% of the time, over 2 years, electricity "
    "$0.15/kwh",
    "rent vs buy for 8x H200 over 24 months at 60% utilisation, full finetuning 70b, power costs 0.15 usd per kwh",
])
def test_an_english_buy_or_rent_prices_the_whole_server(text):
    reply = run_conversation([text])[-1]
    v = payload(reply)["setup_buy_rent"]
    assert v["cards_usd"] == pytest.approx(purchase_usd(find_gpu("h200"), 8))
    assert "$0.15/kWh" in reply.content and "server is about **$336,000**" in reply.content.splitlines()[0]


DOMESTIC_BUDGET = [
    "我们是国企，只能用国产卡，要做一个内部知识库问答，模型用Qwen2.5-72B，同时大概50人在线，预算两百万以内买设备，够吗",
    "预算200万，打算买国产卡跑Qwen2.5-72B做知识库问答，50人同时在线，够不够",
    "we're a state-owned company and can only use domestic chinese accelerators. internal knowledge-base QA on "
    "Qwen2.5-72B, about 50 people online at once, we have a budget of 2 million yuan to buy the hardware. is that enough?",
]


@pytest.mark.parametrize("text", DOMESTIC_BUDGET)
def test_a_budget_to_buy_unpriced_cards_is_answered_not_leaned_to_renting(text):
    reply = run_conversation([text])[-1]
    data = payload(reply)
    rec = data["results"]["recommend"]
    best = rec["best"]
    assert best["purchase_usd"] is None and data["profile"]["preference"] == "buy"
    per_card = round(2_000_000 / best["gpus"])  # the budget over the cards: what each may cost, server included
    assert per_card in _yuan(reply.content)
    assert "倾向于租" not in reply.content and "leans to renting" not in reply.content
