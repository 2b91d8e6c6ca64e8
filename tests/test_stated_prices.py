"""Prices people state for a card (issue 21): a rent said with no period ('RunPod has h100 at 2.39', '4090一块1.98元'),
a purchase price ('buying two used 3090s for $1400 total', '3090一张3500'), a rent said with no card in a later turn
('租的话每卡每小时大概8块钱': the plan's card); none of them is a budget. A provider named with its prices keeps the
plan to no provider; a hosting fee that includes power adds no power on top; the prices stay for later turns."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.conversation import payload, run_conversation
from tests.covering import pairwise, uncovered_pairs

CARDS_EN = {"h100": "h100-sxm", "H100": "h100-sxm", "A100 80GB": "a100-80gb-sxm", "L40S": "l40s", "4090": "rtx-4090",
            "RTX 4090": "rtx-4090", "H200": "h200"}
LINKS_EN = ["at", "for", "is", "going for", "@", "is about", "at ~"]
MONEY_EN = ["{p}", "${p}", "{p} dollars", "{p} usd", "$ {p}"]
BEFORE_EN = ["", "fyi ", "btw, ", "quick note: ", "we found that "]
AFTER_EN = ["", " right now", " on runpod", ", which is nice", ". thoughts?"]
HOURLY = [2.39, 1.19, 0.35, 4.5, 12]


def _no_budget(u) -> None:
    assert "budget_usd" not in u.updates and "budget_usd_per_month" not in u.updates, u.updates


def test_a_few_dollars_said_of_a_card_is_its_rent_per_hour_in_english():
    """Cards x links x money forms x fillers before x prices x endings, as a pairwise covering array
    (tests/covering.py): every pair of values of any two of them is said together at least once (51 messages;
    the product of the first four was 1,225, with the price and the ending rotated along it)."""
    dims = (list(CARDS_EN.items()), LINKS_EN, MONEY_EN, BEFORE_EN, HOURLY, AFTER_EN)
    rows = pairwise(*dims)
    assert not uncovered_pairs(rows, *dims) and len(rows) == 51
    for (name, gpu), link, money, before, p, after in rows:
        text = f"{before}{name} {link} {money.format(p=p)}{after}"
        u = understand(text, None)
        got = {q["gpu"]: q.get("usd_per_gpu_hour") for q in u.quotes}
        assert got == {gpu: pytest.approx(p)}, text
        _no_budget(u)


PAIRS_EN = ["{v} has {c1} at {a} and {c2} at {b}", "{v}: {c1} {a}, {c2} {b}", "on {v} the {c1} is ${a} and the {c2} is ${b}",
            "{c1} at {a} and {c2} at {b} on {v}", "{v} lists {c1} for ${a}, {c2} for ${b}"]
VENDORS = ["RunPod", "Lambda", "CoreWeave", "vast.ai"]


@pytest.mark.parametrize("form", PAIRS_EN)
def test_a_provider_named_with_its_prices_is_no_catalogue_restriction(form):
    for (n1, c1), (n2, c2) in itertools.permutations(list(CARDS_EN.items())[::2], 2):
        if c1 == c2:
            continue
        for v in VENDORS:
            text = "serve llama 3.1 70b for 50 users, " + form.format(v=v, c1=n1, c2=n2, a=2.39, b=1.19)
            u = understand(text, None)
            got = {q["gpu"]: q["usd_per_gpu_hour"] for q in u.quotes}
            assert got == {c1: pytest.approx(2.39), c2: pytest.approx(1.19)}, text
            assert "only" not in u.updates, text
            assert not [k for k, _v in u.notes if k == "note.provider_cards"], text
            _no_budget(u)


@pytest.mark.parametrize("text", ["we can only use RunPod: h100 at 2.39 and a100 at 1.19",
                                  "runpod only. h100 at 2.39, a100 at 1.19", "只用阿里云，A100每卡每小时12元"])
def test_a_provider_kept_to_still_restricts(text):
    u = understand(text, None)
    assert u.quotes and u.updates.get("only"), text


CARDS_ZH = {"4090": "rtx-4090", "H100": "h100-sxm", "A100": "a100-80gb-sxm", "L20": "l20", "H20": "h20"}
MEASURE_ZH = ["一块", "一张", "每张", "每卡", "单卡", "每块"]
HOURLY_ZH = [("1.98元", 1.98), ("2块", 2.0), ("8块钱", 8.0), ("¥3.5", 3.5), ("12元", 12.0), ("6块5", 6.5)]
BEFORE_ZH = ["", "租的话", "我看到", "平台上", "现在"]
AFTER_ZH = ["", "，想跑qwen2.5-7b推理", "，10个人用", "，贵不贵"]


def test_a_few_yuan_said_of_a_card_is_its_rent_per_hour_in_chinese():
    """Cards x measure words x prices x fillers before x endings, as a pairwise covering array (tests/covering.py):
    every pair of values of any two of them is said together at least once (39 messages; the product of the
    first four was 900, with the ending rotated along it)."""
    rate = rules().usd_per_cny
    dims = (list(CARDS_ZH.items()), MEASURE_ZH, HOURLY_ZH, BEFORE_ZH, AFTER_ZH)
    rows = pairwise(*dims)
    assert not uncovered_pairs(rows, *dims) and len(rows) == 39
    for (name, gpu), measure, (said, yuan), before, after in rows:
        text = f"{before}{name}{measure}{said}{after}"
        u = understand(text, None)
        got = {q["gpu"]: q.get("usd_per_gpu_hour") for q in u.quotes}
        assert got == {gpu: pytest.approx(yuan * rate, rel=1e-3)}, text
        _no_budget(u)


BUY_ZH = [("3500", 3500), ("1.6万", 16000), ("两万", 20000), ("8000元", 8000), ("¥12000", 12000)]


def test_a_card_bought_for_thousands_of_yuan_is_its_purchase_price():
    rate = rules().usd_per_cny
    for (name, gpu), measure, (said, yuan), before in itertools.product(
            {"3090": "rtx-3090", "4090": "rtx-4090", "L20": "l20"}.items(), ["一张", "每张", "单卡"], BUY_ZH,
            ["", "二手", "闲鱼上", "买的话"]):
        text = f"{before}{name}{measure}{said}"
        u = understand(text, None)
        got = {q["gpu"]: q.get("buy_usd_per_gpu") for q in u.quotes}
        assert got == {gpu: pytest.approx(yuan * rate, rel=1e-3)}, text
        _no_budget(u)


BUY_EN = [("buying {n} used {c}s for ${t} total", True), ("we're buying {n} {c}s for ${t}", True),
          ("picked up {n} {c}s for ${t} in total", True), ("{n} {c}s at ${e} each", False),
          ("getting {n} used {c}s, ${e} apiece", False), ("{n} {c}s for ${t} altogether", True)]
COUNTS_EN = {"two": 2, "2": 2, "four": 4, "3": 3}


@pytest.mark.parametrize("form,total", BUY_EN)
def test_a_purchase_price_for_cards_is_per_card_and_no_budget(form, total):
    for (said, n), (name, gpu), each in itertools.product(COUNTS_EN.items(), {"3090": "rtx-3090", "4090": "rtx-4090",
                                                                                "A6000": "rtx-a6000"}.items(),
                                                          [700, 1500]):
        text = form.format(n=said, c=name, t=each * n, e=each) + " to serve qwen2.5 14b"
        u = understand(text, None)
        got = {q["gpu"]: q.get("buy_usd_per_gpu") for q in u.quotes}
        assert got == {gpu: pytest.approx(each)}, text
        _no_budget(u)


@pytest.mark.parametrize("text", ["budget $2000 for a 4090", "I can spend $1500 on two 3090s",
                                  "run it on 2 h100 for 3 days", "a100 at 80 gb", "keep it under $3/hr",
                                  "预算两万，想买4090"])
def test_a_budget_or_a_count_is_no_price(text):
    assert not understand(text, None).quotes, text


@pytest.mark.parametrize("text", ["colo is 2k a month including power", "hosting $1500/month, power included",
                                  "托管费每月3000含电费", "机房托管每月5000，包电费", "colo 2k a month all-in"])
def test_a_hosting_fee_that_includes_power_adds_no_power(text):
    u = understand(text, None)
    assert u.updates.get("electricity_usd_per_kwh") == 0.0, text
    assert u.updates.get("hosting_usd_per_month"), text


@pytest.mark.parametrize("text", ["托管费每月3000，电费另算", "colo is 2k a month plus power"])
def test_a_hosting_fee_with_power_apart_keeps_power(text):
    assert "electricity_usd_per_kwh" not in understand(text, None).updates, text


def test_the_plans_rent_or_buy_counts_no_power_in_an_all_in_fee():
    [answer] = run_conversation(["serve llama 3.1 70b for 30 users around the clock, we'd buy the cards; colo is 2k "
                                 "a month including power"])
    rb = payload(answer)["results"]["recommend"]["rent_or_buy"] or {}  # (none when the pick has no rental price)
    assert rb["inputs"]["electricity_usd_per_kwh"] == 0.0 if "inputs" in rb else True
    assert "includes power" in answer.content and "$0/kWh" not in answer.content


def _best(message):
    return payload(message)["results"]["recommend"]["best"]


def test_a_card_price_in_yuan_prices_the_plan_and_sets_no_budget():
    [answer] = run_conversation(["4090一块1.98元，想跑qwen2.5-7b推理，10个人用，工作时间"])
    rows = payload(answer)["results"]["recommend"]["options"]
    rtx = next(o for o in rows if o["gpu"] == "rtx-4090")
    assert rtx["cny_per_hour"] == pytest.approx(1.98 * rtx["gpus"], rel=1e-3)
    assert "预算" not in answer.content


def test_a_purchase_price_is_the_buy_side_of_the_plan():
    [answer] = run_conversation(["buying two used 3090s for $1400 total to serve qwen2.5 14b for 5 people, "
                                 "working hours"])
    best = _best(answer)
    assert best["gpu"] == "rtx-3090"
    host = best.get("host_usd") or 0.0
    assert best["purchase_usd"] - host == pytest.approx(700 * best["gpus"])
    assert "budget" not in answer.content.lower()


def test_a_rent_with_no_card_is_the_plans_card_and_says_so():
    _first, second = run_conversation(["我们想用H20部署qwen2.5-72b，50人用，工作时间", "租的话每卡每小时大概8块钱"])
    best = _best(second)
    assert best["gpu"] == "h20"
    assert best["cny_per_hour"] == pytest.approx(8.0 * best["gpus"], rel=1e-3)
    assert "按当前方案的卡 NVIDIA H20" in second.content


@pytest.mark.parametrize("later", ["9-5 weekdays", "show the math", "make it 32k context", "utilization 60%"])
def test_quotes_stay_for_later_turns(later):
    first, second = run_conversation(["serve qwen2.5 32b for 20 users around the clock, runpod has h100 at 2.39 and a100 at 1.19",
                                      later])
    for message in (first, second):
        results = payload(message)["results"]
        if "recommend" not in results:  # the math of the plan: its rent is the one quoted
            assert "usd_per_gpu_hour = 1.19" in message.content or "usd_per_gpu_hour = 2.39" in message.content
            continue
        quotes = results["recommend"]["workload"]["quotes"]
        assert {q["gpu"]: q["usd_per_gpu_hour"] for q in quotes} == {"h100-sxm": 2.39, "a100-80gb-sxm": 1.19}, later


@pytest.mark.parametrize("later", ["全天24小时在线", "展示计算过程", "上下文改成32k"])
def test_chinese_quotes_stay_for_later_turns(later):
    first, second = run_conversation(["部署qwen2.5-32b，20个人用，工作时间，4090一块1.98元，A100每卡6块", later])
    for message in (first, second):
        results = payload(message)["results"]
        if "recommend" not in results:  # the math of the plan: the A100 at ¥6 a card-hour (the Chinese math shows
            # no input names: the rented total over 36 months at 24% on 2 cards is the quote's)
            rent = round(6 * rules().usd_per_cny, 2) * 36 * 730 * 0.24 * 2
            assert f"**测算期内的租用总价** = ${rent:,.0f}" in message.content
            continue
        quotes = results["recommend"]["workload"]["quotes"]
        got = {q["gpu"]: q["usd_per_gpu_hour"] for q in quotes}
        assert got == {"rtx-4090": pytest.approx(1.98 * rules().usd_per_cny, rel=1e-3),
                       "a100-80gb-sxm": pytest.approx(6 * rules().usd_per_cny, rel=1e-3)}, later


HOURS_A_MONTH = 730.0
PERIODS_EN = [("{m} a month", HOURS_A_MONTH), ("{m} per month", HOURS_A_MONTH), ("{m}/mo", HOURS_A_MONTH),
              ("{m} per card per year", HOURS_A_MONTH * 12), ("{m} a year", HOURS_A_MONTH * 12),
              ("{m} a day", 24.0), ("{m} per day", 24.0)]


def test_a_rent_per_month_year_or_day_is_billed_every_hour_of_it():
    from gpu_advisor.tools.cost import HOURS_PER_MONTH

    assert pytest.approx(HOURS_A_MONTH, rel=0.01) == HOURS_PER_MONTH
    for (name, gpu), (period, hours), amount, link in itertools.product(
            {"H100": "h100-sxm", "4090": "rtx-4090", "L40S": "l40s"}.items(), PERIODS_EN, [900, 12000],
            ["at", "for", "is"]):
        if hours == 24.0 and amount > 1000:
            continue
        text = f"{name} {link} {period.format(m=f'${amount:,}')}"
        [q] = understand(text, None).quotes
        assert q["gpu"] == gpu and q["reserved"], text
        assert q["usd_per_gpu_hour"] == pytest.approx(amount / (hours * HOURS_PER_MONTH / HOURS_A_MONTH)
                                                      if hours != 24.0 else amount / 24.0, rel=0.02), text


PERIODS_ZH = [("{c}一个月{m}一张", HOURS_A_MONTH), ("{c}每月每卡{m}", HOURS_A_MONTH), ("{c}每张每天{m}块", 24.0),
              ("租{c}一年包年每卡{m}", HOURS_A_MONTH * 12)]


def test_a_chinese_rent_per_month_year_or_day_is_billed_every_hour_of_it():
    rate = rules().usd_per_cny
    for (name, gpu), (form, hours), (said, yuan) in itertools.product(
            {"H100": "h100-sxm", "4090": "rtx-4090", "A800": "a800-80gb-sxm"}.items(), PERIODS_ZH,
            [("1500", 1500), ("8万", 80000), ("三千", 3000)]):
        if hours == 24.0 and yuan > 5000:
            continue
        text = form.format(c=name, m=said)
        u = understand(text, None)
        assert [q["gpu"] for q in u.quotes] == [gpu], text
        assert u.quotes[0]["usd_per_gpu_hour"] == pytest.approx(yuan * rate / hours, rel=0.02), text
        _no_budget(u)


def test_a_machine_rented_by_the_year_is_shared_over_its_cards():
    [q] = understand("A800整机八卡一年40万", None).quotes
    assert q["gpu"] == "a800-80gb-sxm" and q["reserved"]
    assert q["usd_per_gpu_hour"] == pytest.approx(400000 * rules().usd_per_cny / 8 / (HOURS_A_MONTH * 12), rel=0.02)


def test_a_rent_or_buy_purchase_price_prices_the_plan_in_later_turns():
    _first, second = run_conversation(["we serve llama 3.1 70b to 100 users around the clock. rent H100s at $2.49/hr "
                                       "or buy them at $20k each - which is cheaper?", "9-5 weekdays"])
    best = _best(second)
    assert best["gpu"] == "h100-sxm"
    assert best["purchase_usd"] - (best.get("host_usd") or 0.0) == pytest.approx(20000 * best["gpus"])
