"""The price this user pays (h-used): a card said used is priced at its sourced used price, said as used; one card
has one China price in every path (the China street price of a card sold there only through grey channels); a
budget said approximately allows a small overshoot, said so, while 'at most' is a hard cap."""
from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, rules, used_prices
from gpu_advisor.knowledge.china_prices import china_price_usd, china_prices
from gpu_advisor.knowledge.purchase import host_usd
from gpu_advisor.tools.recommend import BUDGET_LEEWAY_PCT, Workload, recommend
from tests.conversation import payload, run_states

# ---------------------------------------------------------------- used: the words

USED_EN = [
    "should I get two used 3090s or one 4090 for qwen2.5 32b?",
    "a used 3090 or a new 4090 to run llama 3.1 8b at home",
    "buying a 3090 used vs a 4090, for local llm",
    "thinking of a second-hand RTX 3090 for my home lab",
    "pre-owned 3090 for running models at home, worth it?",
    "refurbished 3090 or new 4060 ti 16gb for my pc?",
    "3090 second-hand, or a 4090? just me at home",
    "found a 3090 on ebay, good for qwen2.5 14b?",
]
USED_ZH = [
    "买两张3090二手还是一张4090好，本地跑qwen2.5 32b",
    "二手3090还是新的4090，家里跑大模型",
    "闲鱼上收一张3090跑qwen2.5 14b行不行",
    "矿卡3090能跑qwen2.5 32b吗，自己玩",
    "3090二手的和4060ti 16g选哪个，自己用",
    "想买一张二手的3090，本地跑模型",
    "二手3090一张跑deepseek r1 32b够吗",
    "拆机卡3090靠谱吗，家里跑qwen2.5 14b",
]


@pytest.mark.parametrize("text", USED_EN + USED_ZH)
def test_a_card_said_used_is_read_as_used(text):
    assert understand(text).updates.get("used_ok") is True, text


@pytest.mark.parametrize("text", [
    "3090 or 4090 for qwen2.5 32b at home?", "a new 4090 for my pc", "3090和4090选哪个，家里跑模型",
    "不要二手，买一张4090", "no used cards, buy a new 4090"])
def test_new_or_unsaid_is_not_used(text):
    assert understand(text).updates.get("used_ok") is not True, text


def test_used_prices_carry_source_and_date_for_the_cards_people_buy_used():
    prices = used_prices()
    for gpu_id in ("rtx-3090", "rtx-3090-ti", "rtx-4090"):
        p = prices[gpu_id]
        assert p.source.startswith("http") and p.as_of.year >= 2026, gpu_id
        new = find_gpu(gpu_id).buy_price_usd
        assert new is None or p.usd < new, gpu_id  # used is cheaper than new


# ---------------------------------------------------------------- used: the price in the answer

COMPARE_USED = [
    ("en", "used 3090 or a 4090 to run qwen2.5 32b at home, which one?"),
    ("en", "should I buy a 3090 second-hand or a 4090 for local llama 3.1 8b?"),
    ("zh", "二手3090还是4090，家里跑qwen2.5 32b，选哪个"),
    ("zh", "3090二手的还是4090，本地跑qwen2.5 32b哪个好"),
]


@pytest.mark.parametrize("lang, text", COMPARE_USED)
def test_a_card_said_used_is_priced_used_in_a_card_to_card_answer(lang, text):
    state = run_states([text])[-1]
    reply = state["messages"][-1]
    assert state["profile"]["used_cards"] == ["rtx-3090"], (text, state["profile"])  # the 4090 is bought new
    used = used_prices()["rtx-3090"].usd
    if lang == "en":
        assert f"${used:,.0f} used" in reply.content, (text, reply.content)
        assert f"${find_gpu('rtx-4090').buy_price_usd:,.0f}" in reply.content
        assert f"${used_prices()['rtx-4090'].usd:,.0f} used" not in reply.content  # the 4090 is not said used
    else:
        assert f"(${used:,.0f})（二手）" in reply.content, (text, reply.content)
        street = china_price_usd("rtx-4090")
        assert street is not None and f"¥{street / rules().usd_per_cny:,.0f}" in reply.content
    assert "no used price on record" not in reply.content and "没有二手价格的记录" not in reply.content


@pytest.mark.parametrize("text", [
    "预算5万块以内，想自己攒机跑本地大模型，主要是deepseek r1 蒸馏版 32b 写代码用，买两张3090二手还是一张4090好",
    "budget 7000 dollars for a home pc for deepseek r1 distill qwen 32b: two used 3090s or one 4090?",
])
def test_two_used_3090s_against_a_4090_priced_as_said(text):
    reply = run_states([text])[-1]["messages"][-1]
    d = payload(reply)["decision"]
    assert d["action"] == "buy" and d["gpu"] == "rtx-3090" and d["gpus"] == 2, (text, reply.content[:600])
    assert d["meets"]["budget"] is True


# ---------------------------------------------------------------- one China price per card


def test_the_4090_has_one_china_price_in_every_path():
    street = china_price_usd("rtx-4090")
    assert street is not None and street > find_gpu("rtx-4090").buy_price_usd  # above the US list price
    assert china_prices()["rtx-4090"].source
    # the card-to-card answer
    reply = run_states(["H20和4090在国内现在哪个更好买？价格大概多少"])[-1]["messages"][-1]
    cards = {c["id"]: c for c in payload(reply)["results"]["cards"]}
    assert cards["rtx-4090"]["buy_price_usd"] == pytest.approx(street)
    assert f"¥{street / rules().usd_per_cny:,.0f}" in reply.content
    # a plan bought in China: the card at the same price, the PC around it on top
    w = Workload(model="qwen2.5-7b", region="china", preference="buy", candidates=["rtx-4090"], users=1)
    best = recommend(w).best
    assert best is not None and best.gpu == "rtx-4090"
    gpu = find_gpu("rtx-4090")
    assert best.purchase_usd == pytest.approx(street + host_usd(gpu, 1))
    # outside China: the list price
    best = recommend(w.model_copy(update={"region": "us"})).best
    assert best is not None and best.purchase_usd == pytest.approx(gpu.buy_price_usd + host_usd(gpu, 1))


@pytest.mark.parametrize("text", ["4090和5090哪个划算，国内买", "在国内买5090还是4090跑模型"])
def test_a_controlled_card_with_no_china_price_says_its_price_there_is_unknown(text):
    reply = run_states([text])[-1]["messages"][-1]
    cards = {c["id"]: c for c in payload(reply)["results"]["cards"]}
    assert cards["rtx-5090"].get("list_only") is True
    assert "国内实际成交价没有记录" in reply.content
    assert cards["rtx-4090"]["buy_price_usd"] == pytest.approx(china_price_usd("rtx-4090"))


# ---------------------------------------------------------------- a budget said approximately, or a hard cap

ABOUT = ["预算一万五左右，家里跑qwen2.5 32b", "大概一万五的预算，自己跑qwen2.5 32b", "预算大约1.5万元，自己玩qwen2.5 32b",
         "budget around $2,100 for qwen2.5 32b at home", "about 2100 dollars budget, qwen2.5 32b on my own pc",
         "qwen2.5 32b at home, budget roughly $2100", "budget is $2,100 or so, qwen2.5 32b at home"]
CAP = ["预算最多一万五，家里跑qwen2.5 32b", "预算不超过1.5万元，自己跑qwen2.5 32b", "预算1.5万以内，自己玩qwen2.5 32b",
       "budget at most $2,100 for qwen2.5 32b at home", "no more than 2100 dollars, qwen2.5 32b on my own pc",
       "qwen2.5 32b at home, budget $2100 max"]


@pytest.mark.parametrize("text", ABOUT)
def test_a_budget_said_approximately_has_leeway(text):
    u = understand(text).updates
    assert u.get("budget_usd") and u.get("budget_leeway") == BUDGET_LEEWAY_PCT, (text, u)


@pytest.mark.parametrize("text", CAP)
def test_a_budget_said_as_a_cap_has_none(text):
    u = understand(text).updates
    assert u.get("budget_usd") and not u.get("budget_leeway"), (text, u)


@pytest.mark.parametrize("leeway, meets", [(BUDGET_LEEWAY_PCT, True), (0.0, False)])
def test_the_leeway_decides_a_plan_just_over_the_budget(leeway, meets):
    gpu = find_gpu("rtx-4090")  # (the 3090 is sold used only and priced used: h-rank4; the 4090 keeps its new price)
    cost = gpu.buy_price_usd + host_usd(gpu, 1)
    w = Workload(model="qwen2.5-14b", preference="buy", candidates=["rtx-4090"], users=1, personal=True,
                 budget_usd=round(cost / 1.05), budget_leeway=leeway)
    best = recommend(w, with_levers=False).options[0]
    assert best.meets["budget"] is meets


@pytest.mark.parametrize("lang, text, gpus", [
    ("zh", "家里想攒一台机器本地跑大模型，预算一万五左右（人民币），主要跑qwen2.5-14b或者32b聊天写东西。买一张二手3090还是新的4060ti 16g两张？", 1),
    ("en", "I want to run Qwen2.5 32B at home on my own PC, budget around $2,100 for the whole build, used cards are fine", 1),
])
def test_an_approximate_budget_buys_the_card_just_over_it_and_says_so(lang, text, gpus):
    reply = run_states([text])[-1]["messages"][-1]
    d = payload(reply)["decision"]
    assert d["action"] == "buy" and d["gpu"] == "rtx-3090" and d["gpus"] == gpus, (text, reply.content[:600])
    assert d["meets"]["budget"] is True
    assert ("a little over your budget" if lang == "en" else "略多") in reply.content
