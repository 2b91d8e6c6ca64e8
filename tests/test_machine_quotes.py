"""A price said for a whole machine ('8卡H20整机一个月4.2万', 'a whole 8x H100 node at $27k a month') is the
machine's: each card costs the machine's price over its cards, and a plan that needs N machines pays for N
machines on both sides of rent-or-buy."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.cost import HOURS_PER_MONTH
from tests.conversation import payload, run_conversation

PERIOD_HOURS = {"month": HOURS_PER_MONTH, "year": HOURS_PER_MONTH * 12}

# (form, period): {c} the card as said, {n} the machine's cards, {a} the amount as said
FORMS_ZH = [
    ("{n}卡{c}整机 一个月租金{a}", "month"),
    ("{c}整机每月{a}", "month"),
    ("{c} 一台每月{a}", "month"),
    ("{c}每台每月{a}", "month"),
    ("{c}一整台每月{a}", "month"),
    ("{c} {n}卡机每月{a}", "month"),
    ("{c} {n}卡服务器每月{a}", "month"),
    ("租{n}卡{c}整机一个月{a}", "month"),
    ("{c}整机一年{a}", "year"),
]
CARDS_ZH = {"H20": ("h20", 8), "A800": ("a800-80gb-sxm", 8), "H800": ("h800-sxm", 8)}
AMOUNTS_ZH = [("4.2万", 42000.0), ("6万", 60000.0), ("60000", 60000.0)]

FORMS_EN = [
    ("coreweave wants {a} a month for a whole {n}x {c} node", "month"),
    ("{c} whole node {a} per month", "month"),
    ("an {n}x {c} box is {a} a month", "month"),
    ("{c} per box {a} a month", "month"),
    ("{c} {n}x box {a}/month", "month"),
    ("{c} {a} a month per server", "month"),
    ("{c} {a} per node per month", "month"),
]
CARDS_EN = {"H100": ("h100-sxm", 8), "A100 80GB": ("a100-80gb-sxm", 8), "H200": ("h200", 8)}
AMOUNTS_EN = [("$27k", 27000.0), ("$27,000", 27000.0), ("$32000", 32000.0)]


def _one_quote(text: str) -> dict:
    got = understand(text, None).quotes
    assert len(got) == 1, (text, got)
    return got[0]


@pytest.mark.parametrize(("form", "period"), FORMS_ZH)
def test_a_machine_rent_in_chinese_is_shared_over_its_cards(form, period):
    rate = rules().usd_per_cny
    for (said, (gpu, n)), (a_said, yuan) in itertools.product(CARDS_ZH.items(), AMOUNTS_ZH):
        text = form.format(c=said, n=n, a=a_said)
        q = _one_quote(text)
        assert q["gpu"] == gpu, text
        assert q["usd_per_gpu_hour"] == pytest.approx(yuan * rate / n / PERIOD_HOURS[period], rel=1e-3), text
        assert q["reserved"] is True, text


@pytest.mark.parametrize(("form", "period"), FORMS_EN)
def test_a_machine_rent_in_english_is_shared_over_its_cards(form, period):
    for (said, (gpu, n)), (a_said, usd) in itertools.product(CARDS_EN.items(), AMOUNTS_EN):
        text = form.format(c=said, n=n, a=a_said)
        q = _one_quote(text)
        assert q["gpu"] == gpu, text
        assert q["usd_per_gpu_hour"] == pytest.approx(usd / n / PERIOD_HOURS[period], rel=1e-3), text


def test_the_experts_figures():
    """42,000 / 8 / 730 = ¥7.19 per card-hour; $27k / 8 / 730 = $4.62."""
    rate = rules().usd_per_cny
    q = _one_quote("8卡H20整机 一个月租金4.2万，买的话整机110万")
    assert q["usd_per_gpu_hour"] / rate == pytest.approx(7.19, abs=0.005)
    assert q["buy_usd_per_gpu"] == pytest.approx(1_100_000 * rate / 8)
    assert _one_quote("coreweave wants 27k a month for a whole 8x H100 node")["usd_per_gpu_hour"] == \
        pytest.approx(4.62, abs=0.005)


def test_buy_and_rent_of_a_machine_are_both_the_machines():
    rate = rules().usd_per_cny
    u = understand("昇腾910B 8卡服务器报价一台180万，或者租整机每月6万", None)
    assert u.prices == {"buy_usd_machine": pytest.approx(1_800_000 * rate),
                        "rent_usd_per_month_machine": pytest.approx(60_000 * rate)}
    assert u.quotes[0]["usd_per_gpu_hour"] / rate == pytest.approx(60_000 / 8 / HOURS_PER_MONTH, rel=1e-3)


def test_a_sixteen_card_plan_buys_two_machines():
    rate = rules().usd_per_cny
    replies = run_conversation(["部署满血DeepSeek-R1，100个用户同时用，要99.9%可用，首token延迟2秒以内，只能用H20",
                                "租每卡每小时7块5，买一台8卡H20一百二十万，租还是买？"])
    rb = payload(replies[-1])["results"]["rent_or_buy"]
    assert rb["gpus"] == 16
    assert rb["rent_total_usd"] == pytest.approx(7.5 * rate * 16 * HOURS_PER_MONTH * rb["horizon_months"], rel=1e-3)
    running = rb["buy_total_usd"] - 2 * 1_200_000 * rate  # two machines, then power and hosting for 16 cards
    assert 0 < running < 1_200_000 * rate, rb
    assert "2 台 8 卡整机" in replies[-1].content


def test_a_16_card_plan_rents_and_buys_two_machines():
    rate = rules().usd_per_cny
    replies = run_conversation(["只用国产卡部署Qwen2.5-32B，200个用户同时用，16k上下文，只用昇腾910B，全天候运行",
                                "昇腾910B 8卡服务器报价一台180万，或者租整机每月6万，租还是买？"])
    rb = payload(replies[-1])["results"]["rent_or_buy"]
    assert rb["gpus"] == 16  # one copy, TP8 x PP2: the fewest cards of the first layouts that meet every target
    machines = 2
    assert rb["rent_total_usd"] == pytest.approx(machines * 60_000 * rate * rb["horizon_months"], rel=1e-3)
    running = rb["buy_total_usd"] - machines * 1_800_000 * rate
    assert 0 < running < 1_800_000 * rate, rb
    assert "2 台 8 卡整机" in replies[-1].content


HOURLY_ZH = ["{c}整机每小时{a}", "{c} 一台每小时{a}元", "{n}卡{c}整机一小时{a}块"]
HOURLY_EN = ["{c} {a} per node per hour", "an {n}x {c} node is {a}/hr", "a whole {n}x {c} server at {a} an hour"]


@pytest.mark.parametrize("form", HOURLY_ZH)
def test_a_machine_rent_by_the_hour_in_chinese_is_shared_over_its_cards(form):
    rate = rules().usd_per_cny
    for (said, (gpu, n)), yuan in itertools.product(CARDS_ZH.items(), (300, 60, 480)):
        text = form.format(c=said, n=n, a=yuan)
        q = _one_quote(text)
        assert (q["gpu"], q["reserved"]) == (gpu, False), text
        assert q["usd_per_gpu_hour"] == pytest.approx(yuan * rate / n, rel=1e-3), text


@pytest.mark.parametrize("form", HOURLY_EN)
def test_a_machine_rent_by_the_hour_in_english_is_shared_over_its_cards(form):
    for (said, (gpu, n)), usd in itertools.product(CARDS_EN.items(), (40, 19.92, 28)):
        text = form.format(c=said, n=n, a=f"${usd}")
        q = _one_quote(text)
        assert (q["gpu"], q["reserved"]) == (gpu, False), text
        assert q["usd_per_gpu_hour"] == pytest.approx(usd / n, rel=1e-3), text


@pytest.mark.parametrize(("text", "used", "aside"), [
    ("coreweave wants 27k a month for a whole 8x H100 node, runpod quoted us 2.49/hr per H100",
     2.49, 27000 / 8 / HOURS_PER_MONTH),
    ("runpod quoted us 2.49/hr per H100, coreweave wants 27k a month for a whole 8x H100 node",
     2.49, 27000 / 8 / HOURS_PER_MONTH),
    ("coreweave wants 16k a month for a whole 8x H100 node, runpod quoted us 3.10/hr per H100",
     16000 / 8 / HOURS_PER_MONTH, 3.10),
])
def test_two_rents_for_one_card_price_the_plan_at_the_lower_and_say_the_other(text, used, aside):
    q = _one_quote(text)
    assert q["usd_per_gpu_hour"] == pytest.approx(used, rel=1e-3)
    assert q["aside_usd_per_gpu_hour"] == pytest.approx(aside, rel=1e-3)
    assert q["reserved"] is (used != 2.49 and used != 3.10)


def test_the_rent_set_aside_is_said_back():
    reply = run_conversation(["serve gemma 3 27b to 120 users, we rent only, around the clock. coreweave wants 27k a "
                              "month for a whole 8x H100 node, runpod quoted us 2.49/hr per H100"])[-1]
    assert "You gave two rents for the NVIDIA H100 SXM 80GB: $2.49 and $4.62 a card-hour" in reply.content
    assert "at $2.49 per card-hour" in reply.content
