"""On demand against a reservation, at the user's own two hourly prices: the reservation is paid for every
hour of its term, on demand only for the hours used, so it pays off above reserved / on-demand use."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.cost import HOURS_PER_MONTH, ReservedInput, reserved_vs_on_demand
from tests.conversation import payload, run_conversation


def test_four_h100s_around_the_clock_by_hand():
    r = reserved_vs_on_demand(ReservedInput(gpu="h100-sxm", gpus=4, on_demand_usd_per_gpu_hour=2.49,
                                            reserved_usd_per_gpu_hour=1.85))
    assert r.on_demand_usd_per_month == pytest.approx(2.49 * 4 * 730)
    assert r.reserved_usd_per_month == pytest.approx(1.85 * 4 * 730)
    assert r.break_even_utilisation == pytest.approx(1.85 / 2.49)
    assert r.cheaper == "reserved" and r.saving_fraction == pytest.approx(1 - 1.85 / 2.49)
    assert r.reserved_term_usd == pytest.approx(1.85 * 4 * 730 * 12)


@settings(max_examples=60, deadline=None)
@given(od=st.floats(0.1, 20), share=st.floats(0.05, 0.99), use=st.floats(0.01, 1.0))
def test_the_reservation_wins_exactly_above_its_break_even(od, share, use):
    r = reserved_vs_on_demand(ReservedInput(gpu="a100-80gb-sxm", on_demand_usd_per_gpu_hour=od,
                                            reserved_usd_per_gpu_hour=od * share, utilisation=use))
    assert r.break_even_utilisation == pytest.approx(share)
    if abs(use - share) > 1e-6:
        assert (r.cheaper == "reserved") == (use > share)
    assert r.on_demand_usd_per_month == pytest.approx(od * HOURS_PER_MONTH * use)


SAID = {
    "en": ["{card} is {a}/hr on demand or {b}/hr reserved for a year, which is better",
           "lambda quotes ${a}/hr on-demand per {card}, ${b}/hr on a 1-year commitment. which should we take?",
           "on-demand {card} at ${a} an hour vs reserved at ${b} an hour - which is cheaper?"],
    "zh": ["{card}按量付费每小时{a}元，包年每小时{b}元，哪个划算", "{card}按需{a}元一小时，预留{b}元一小时，选哪个"],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_hourly_prices_one_reserved_are_read_as_that_question(lang):
    for form, card, (a, b) in itertools.product(SAID[lang], ["h100", "A100", "4090"], [(2.49, 1.85), (18, 13)]):
        text = form.format(card=card, a=a, b=b)
        u = understand(text, None)
        assert "reserve" in u.intents and "rent_buy" not in u.intents, (text, u.intents)
        rate = 1.0 if lang == "en" else 0.14
        assert u.prices["rent_usd_per_hour"] == pytest.approx(a * rate, rel=0.02), (text, u.prices)
        assert u.prices["reserved_usd_per_hour"] == pytest.approx(b * rate, rel=0.02), (text, u.prices)
        assert "budget_usd" not in u.updates and "users" not in u.updates, (text, u.updates)


def test_with_a_workload_the_plan_is_rented_on_the_card_priced_then_compared():
    reply, = run_conversation(["we serve llama 3.1 70b to 40 users 24/7. lambda quotes 2.49/hr on-demand per h100 "
                               "or 1.85/hr reserved for a year. which is better?"])
    data = payload(reply)
    best = data["results"]["recommend"]["best"]
    assert best["gpu"] == "h100-sxm" and data["decision"]["action"] == "rent"
    reserved = data["also"][0]["reserved"]
    assert reserved["gpus"] == best["gpus"] and reserved["cheaper"] == "reserved"
    assert "Take the reservation: it saves 26%" in reply.content


def test_at_working_hours_use_on_demand_stays_cheaper_in_chinese():
    _first, second = run_conversation(["给20个人部署qwen2.5 32b，工作时间用", "A100按量付费每小时9元，包年每小时7元，哪个划算"])
    r = payload(second)["results"]["reserved"]
    assert r["cheaper"] == "on_demand" and r["utilisation"] < r["break_even_utilisation"]
    assert "继续按量付费" in second.content


@pytest.mark.parametrize(("text", "key", "usd"), [
    ("we're looking at buying an 8x H100 box, quote is 280k, vs renting at $2.10/hr per gpu.", "buy_usd_machine", 280000),
    ("那H100呢 租15块一小时 买一台8卡的要两百二十万", "buy_usd_machine", 2_200_000 * 0.14),
    ("我们在看8卡H100服务器，租每卡每小时15元，买一张要25万", "buy_usd", 250_000 * 0.14),
    ("rent a server at 20/hr, or buy one card for 30k?", "buy_usd", 30000),
    ("autodl 4090 1.98元每小时 买一张一万六 每天10小时 qwen2.5 14b 买还是租", "rent_usd_per_hour", 1.98 * 0.14),
])
def test_a_machine_price_is_the_machines_and_a_card_price_the_cards(text, key, usd):
    u = understand(text, None)
    assert "rent_buy" in u.intents, (text, u.intents)
    assert u.prices.get(key) == pytest.approx(usd, rel=0.03), (text, u.prices)


def test_on_demand_reserved_and_a_machine_price_weigh_buying_against_the_cheaper_rent():
    _first, second = run_conversation([
        "quotes we got: h100 on-demand 2.49/hr per gpu, 1yr reserved 1.85/hr, or buy an 8x h100 server for 280k. "
        "we'd serve deepseek v3 and keep it busy ~70% of the time. rent or buy?", "about 100 at once"])
    data = payload(second)
    assert not data["profile"].get("owned")  # a server to buy is not one you have
    rb = next(x for x in data["also"] if x["code"] == "rent_buy")["rent_or_buy"]
    assert rb["rent_usd_per_gpu_month"] is None  # on demand at 70% ($1,272) beats the reservation ($1,350)
    assert rb["rent_total_usd"] == pytest.approx(2.49 * 730 * 0.7 * 8 * 36, rel=1e-6)
    assert "Of your two rents, on demand is the cheaper at 70% use" in second.content


def test_a_chinese_quote_with_a_colloquial_amount_and_tenths_of_use():
    reply, = run_conversation(["阿里云A100按量每小时三十五块 包年的话每月一万八一张 买一台8卡A800服务器一百二十万 "
                               "我们主要拿来训练 利用率大概八成 租还是买"])
    data = payload(reply)
    rb = data["results"]["rent_or_buy"]
    assert rb["utilisation"] == 0.8 and rb["gpus"] == 8
    assert rb["rent_usd_per_gpu_month"] == pytest.approx(18000 * 0.14)
    assert "整机购买 ¥1,200,000 ($168,000)（8 张卡，每张 ¥150,000 ($21,000)）" in reply.content


@pytest.mark.parametrize(("text", "said"), [("每月一万八一张", "18000 1"), ("三千五一张", "3500 1"),
                                           ("一百二十一张", "121"), ("利用率大概八成", "80%"), ("八成是显存不够", "8 成")])
def test_colloquial_chinese_amounts_and_tenths(text, said):
    from gpu_advisor.assistant.reading.message import prepare

    assert said in prepare(text, None).masked


def test_the_prices_given_are_kept_for_a_later_horizon_or_rent_or_buy():
    *_, later = run_conversation([
        "quotes we got: h100 on-demand 2.49/hr per gpu, 1yr reserved 1.85/hr, or buy an 8x h100 server for 280k. "
        "we'd serve deepseek v3 and keep it busy ~70% of the time. rent or buy?", "about 100 at once",
        "and if we go with 5 year horizon?"])
    rb = payload(later)["results"]["rent_or_buy"]
    assert rb["horizon_months"] == 60
    assert rb["rent_total_usd"] == pytest.approx(2.49 * 730 * 0.7 * 8 * 60, rel=1e-6)
    assert "With the prices you gave: $2.49 per card-hour to rent" in later.content
    u = understand("三年折旧呢", None)
    assert "rent_buy" in u.intents and u.prices == {"horizon_months": 36}


def test_a_machine_price_for_a_card_sold_in_eight_card_servers_is_eight_cards():
    *_, last = run_conversation(["客服机器人 4096上下文 200个并发用户 模型用qwen2.5 72b 预算每月5万人民币", "全天候",
                                 "租还是买划算 我们拿到报价H20整机一台80万"])
    assert "整机购买 ¥800,000 ($112,000)（8 张卡，每张 ¥100,000 ($14,000)）" in last.content
