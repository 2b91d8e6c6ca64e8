"""The user's own rental quotes: each quoted card is an option priced at the user's price, at the count the job
needs, listed first; a reserved or committed price is billed every hour whatever the utilisation, and the
quotes stay for every later plan in the conversation."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.cost import HOURS_PER_MONTH
from gpu_advisor.tools.recommend import RentQuote, Workload, recommend
from tests.conversation import payload, run_conversation

CARDS_EN = {"h100": "h100-sxm", "H100": "h100-sxm", "A100 80GB": "a100-80gb-sxm", "L40S": "l40s", "H200": "h200",
            "RTX 4090": "rtx-4090", "4090": "rtx-4090", "MI300X": "mi300x"}
PROVIDERS = ["lambda", "vast", "runpod", "coreweave", "our reseller"]
TWO_EN = [
    "{p} quoted me {a}/hr for an {c1} and {q} has {c2}s at {b}/hr",
    "{c1} at ${a} an hour on {p}, {c2} at ${b} an hour on {q}. which is cheaper?",
    "{p} rents the {c1} for ${a} per hour; {q} wants ${b}/hr per {c2}",
    "we got quotes: ${a}/gpu-hr for the {c1} from {p}, ${b}/gpu-hr for the {c2} from {q}",
    "{p}: {c1} {a}/hr. {q}: {c2} {b}/hr. we serve qwen2.5 32b to 20 users",
]
PRICES_EN = [(2.49, 0.35), (1.99, 0.79), (3.1, 1.25)]


@pytest.mark.parametrize("form", TWO_EN)
def test_two_quotes_in_english_price_each_its_own_card(form):
    for (n1, c1), (n2, c2) in itertools.permutations(CARDS_EN.items(), 2):
        if c1 == c2:
            continue
        for p, q in itertools.pairwise(PROVIDERS):
            for a, b in PRICES_EN:
                text = form.format(p=p, q=q, c1=n1, c2=n2, a=a, b=b)
                got = {x["gpu"]: x["usd_per_gpu_hour"] for x in understand(text, None).quotes}
                assert got == {c1: pytest.approx(a), c2: pytest.approx(b)}, text


CARDS_ZH = {"4090": "rtx-4090", "A100 80G": "a100-80gb-sxm", "L20": "l20", "H20": "h20", "A800": "a800-80gb-sxm",
            "H800": "h800-sxm"}
TWO_ZH = [
    "{c1}一小时{a}元 {c2}一小时{b}块",
    "{p}的{c1}每小时{a}元，{c2}每小时{b}元",
    "{c1}租一小时{a}块，{c2}租一小时{b}块，哪个更划算",
    "{c1}每卡每小时{a}元，{c2}每卡每小时{b}元，给十个人用",
]
PRICES_ZH = [("1.98", "6", 1.98, 6.0), ("12", "4.5", 12.0, 4.5), ("六", "两块五", 6.0, None)]


@pytest.mark.parametrize("form", TWO_ZH)
def test_two_quotes_in_chinese_are_yuan_per_card_hour(form):
    rate = rules().usd_per_cny
    for (n1, c1), (n2, c2) in itertools.permutations(CARDS_ZH.items(), 2):
        for a_said, b_said, a, b in PRICES_ZH[:2]:
            text = form.format(p="某云", c1=n1, c2=n2, a=a_said, b=b_said)
            got = {x["gpu"]: x["usd_per_gpu_hour"] for x in understand(text, None).quotes}
            assert got == {c1: pytest.approx(a * rate, rel=1e-3), c2: pytest.approx(b * rate, rel=1e-3)}, text


def test_a_chinese_numeral_price_is_read():
    got = understand("A100一小时六块", None).quotes
    assert got == [{"gpu": "a100-80gb-sxm", "usd_per_gpu_hour": pytest.approx(6 * rules().usd_per_cny), "reserved": False}]


RESERVED = [
    "coreweave ${a}/hr per {c} 1yr commit",
    "coreweave quoted ${a}/hr per {c} on a 1-year commitment",
    "{c} reserved at ${a} an hour for a year",
    "{c} at ${a}/gpu-hr on a 3 year contract",
]


@pytest.mark.parametrize("form", RESERVED)
def test_a_committed_price_is_billed_every_hour(form):
    for (n, c), a in itertools.product(CARDS_EN.items(), (2.25, 1.85, 4.1)):
        text = form.format(c=n, a=a)
        got = understand(text, None).quotes
        assert got == [{"gpu": c, "usd_per_gpu_hour": pytest.approx(a), "reserved": True}], text


@pytest.mark.parametrize(("text", "gpu", "yuan_per_month", "cards"), [
    ("H20八卡一台每月6万", "h20", 60000, 8),
    ("租8卡H20整机一个月6万", "h20", 60000, 8),
    ("a 4x L40S box rents for $4,000 a month", "l40s", None, 4),
])
def test_a_machine_rented_by_the_month_is_shared_over_its_cards(text, gpu, yuan_per_month, cards):
    got = understand(text, None).quotes
    usd = yuan_per_month * rules().usd_per_cny if yuan_per_month else 4000
    assert got == [{"gpu": gpu, "usd_per_gpu_hour": pytest.approx(usd / cards / HOURS_PER_MONTH, rel=1e-3),
                    "reserved": True, "machine_gpus": cards}], text  # the machine quoted whole, kept for the writer


@pytest.mark.parametrize("text", [
    "budget is $3k a month for an H100 plan", "colo is 2k a month for the 4090 box", "power is 0.12/kWh for the H100s",
    "serve llama 3.1 8b on an h100 for 20 users", "4090 24GB, 8 hours a day",
])
def test_no_price_of_a_card_is_no_quote(text):
    assert understand(text, None).quotes == [], text


def test_quoted_cards_lead_the_options_at_the_users_price():
    w = Workload(phase="serve", model="deepseek-r1-distill-qwen-32b", users=20, utilisation=0.24,
                 quotes=[RentQuote(gpu="h100-sxm", usd_per_gpu_hour=2.49), RentQuote(gpu="rtx-4090", usd_per_gpu_hour=0.35)])
    r = recommend(w)
    first = r.options[:2]
    assert {o.gpu for o in first} == {"h100-sxm", "rtx-4090"}
    for o in first:
        per_card = {"h100-sxm": 2.49, "rtx-4090": 0.35}[o.gpu]
        assert o.usd_per_hour == pytest.approx(per_card * o.gpus)
        assert o.usd_per_month == pytest.approx(per_card * o.gpus * HOURS_PER_MONTH * 0.24)


def test_a_reserved_quote_costs_every_hour_and_is_the_rent_in_rent_or_buy():
    w = Workload(phase="serve", model="llama-3.1-70b", users=30, utilisation=0.4,
                 quotes=[RentQuote(gpu="h100-sxm", usd_per_gpu_hour=2.25, reserved=True)])
    r = recommend(w)
    assert r.best is not None and r.best.gpu == "h100-sxm"
    assert r.best.usd_per_month == pytest.approx(2.25 * r.best.gpus * HOURS_PER_MONTH)
    assert r.rent_or_buy is not None and r.rent_or_buy.rent_usd_per_gpu_month == pytest.approx(2.25 * HOURS_PER_MONTH)


def test_two_quotes_in_english_answer_at_those_prices():
    answer, = run_conversation(["lambda quoted me 2.49/hr for an h100 and vast has 4090s at 0.35/hr. we want to "
                                "serve r1-distill-qwen-32b, ~20 concurrent users. which is cheaper?"])  # (answered at once)
    rows = payload(answer)["results"]["recommend"]["options"]
    by_card = {o["gpu"]: o for o in rows}
    assert by_card["h100-sxm"]["usd_per_hour"] == pytest.approx(2.49 * by_card["h100-sxm"]["gpus"])
    assert by_card["rtx-4090"]["usd_per_hour"] == pytest.approx(0.35 * by_card["rtx-4090"]["gpus"])
    assert {rows[0]["gpu"], rows[1]["gpu"]} == {"h100-sxm", "rtx-4090"}
    # h-verdict (AP E9, AQ 8): 'which is cheaper' is decided by the comparison, so the cheapest quoted plan is the headline
    assert "At the prices you were quoted" in answer.content
    # h-fixa sizes a reasoning model (R1 distill) at 32k per user: 20 × 32k is 4 copies of 4 × 4090 (was 4 at 8k)
    assert "16 × NVIDIA GeForce RTX 4090 24GB is the cheapest that does the job: it is the plan" in answer.content
    assert (payload(answer)["decision"]["gpu"], payload(answer)["decision"]["gpus"]) == ("rtx-4090", 16)
    assert payload(answer)["results"]["inputs"]["context"] == 32768


def test_two_quotes_in_chinese_answer_in_yuan_at_those_prices():
    answer, = run_conversation(["4090一小时1.98元 A100 80G一小时6块 想跑r1-distill-llama-70b 给十个人用 白天 哪个更划算"])
    rows = payload(answer)["results"]["recommend"]["options"]
    table = [line for line in answer.content.splitlines() if line.startswith("| ") and " × NVIDIA" in line]
    assert len(table) == 2 and {"A100 SXM4 80GB", "RTX 4090 24GB"} == {n for n in ("A100 SXM4 80GB", "RTX 4090 24GB")
                                                                       if any(n in row for row in table)}
    a100 = next(o for o in rows if o["gpu"] == "a100-80gb-sxm")
    assert a100["cny_per_hour"] == pytest.approx(6.0 * a100["gpus"], rel=1e-3)
    assert "按你拿到的报价" in answer.content and "¥6.00" in answer.content


def test_a_committed_quote_stays_after_the_utilisation_changes():
    _first, second = run_conversation(["we serve llama 3.1 70b to 30 users. coreweave quoted $2.25/hr per H100 on a "
                                      "1yr commit. what does that cost us?", "utilization 40%"])
    best = payload(second)["results"]["recommend"]["best"]
    assert best["gpu"] == "h100-sxm" and best["usd_per_hour"] == pytest.approx(2.25 * best["gpus"])
    assert best["usd_per_month"] == pytest.approx(2.25 * best["gpus"] * HOURS_PER_MONTH)
    assert "stock" not in second.content


HORIZON = {"en": ["what if we only keep it {n} years", "what if we only keep them for {n} years?",
                  "and if we keep it {n} years", "over {n} years?"],
           "zh": ["如果只用{z}年呢", "只用{z}年的话呢", "用{z}年呢"]}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_horizon_alone_asks_rent_or_buy_over_that_span(lang):
    for form, (n, z) in itertools.product(HORIZON[lang], [(2, "两"), (3, "三"), (5, "五")]):
        text = form.format(n=n, z=z)
        u = understand(text, None)
        assert "rent_buy" in u.intents and u.prices == {"horizon_months": 12 * n}, (text, u.intents, u.prices)
        assert set(u.updates) <= {"horizon_months"}, (text, u.updates)  # the horizon is its own slot now


def test_two_years_after_a_rent_or_buy_answer_reanswers_it_over_two_years():
    *_, answer = run_conversation(["给10个人部署qwen2.5 7b，工作时间用", "租还是买", "如果只用两年呢"])
    rb = payload(answer)["results"]["rent_or_buy"]
    assert rb["horizon_months"] == 24 and "24 个月" in answer.content and "没看懂" not in answer.content


PAYBACK = ["if we bought the cards, when does that pay off", "when would buying pay for itself?",
           "how long until buying pays for itself?", "自己买的话多久回本", "买卡几个月能回本", "回本周期是多久"]


@pytest.mark.parametrize("text", PAYBACK)
def test_when_buying_pays_off_is_a_payback_question_not_a_plan_to_buy(text):
    u = understand(text, None)
    assert {"payback", "rent_buy"} <= u.intents and "preference" not in u.updates, (text, u.intents, u.updates)


def test_payback_is_the_purchase_over_the_rent_it_saves():
    from gpu_advisor.tools.cost import RentBuyInput, rent_vs_buy

    rb = rent_vs_buy(RentBuyInput(gpu="rtx-4090", gpus=2, utilisation=0.5, rent_usd_per_gpu_hour=0.6,
                                  purchase_usd_per_gpu=2000, electricity_usd_per_kwh=0.1, hosting_usd_per_gpu_month=10))
    power = 0.45 * 1.3 * 0.1  # kW at the wall x USD/kWh
    saved = (0.6 - power) * HOURS_PER_MONTH * 0.5 - 10
    assert rb.payback_months == pytest.approx(2000 / saved)
    never = rent_vs_buy(RentBuyInput(gpu="rtx-4090", utilisation=0.01, rent_usd_per_gpu_hour=0.3,
                                     purchase_usd_per_gpu=2000))
    assert never.payback_months is None


def test_when_does_it_pay_off_after_a_plan_gives_the_months():
    *_, answer = run_conversation(["给10个人部署qwen2.5 7b，工作时间用", "自己买两张4090，多久回本"])
    rb = payload(answer)["results"]["rent_or_buy"]
    assert rb["gpus"] == 2 and rb["payback_months"] is not None
    assert f"{rb['payback_months']:,.0f} 个月" in answer.content


@pytest.mark.parametrize("text", ["does the buy number include power?", "is electricity included in the buy cost?",
                                  "does buying account for hosting?", "电费算进去了吗", "买的价格包含电费吗", "托管费算进去了吗"])
def test_whether_owning_counts_power_is_a_question_not_a_wish_to_buy(text):
    u = understand(text, None)
    assert "running_costs" in u.intents and "preference" not in u.updates, (text, u.intents, u.updates)


def test_the_buy_number_says_the_users_power_price():
    *_, answer = run_conversation(["serve llama 3.1 70b for 30 users around the clock. power is 0.12/kWh",
                                   "does the buy number include power?"])
    assert "0.12 USD per kWh" in answer.content and "## Buy" not in answer.content


@pytest.mark.parametrize(("text", "usd"), [
    ("colo is 2k a month", 2000), ("we pay 3k a month for colo", 3000), ("hosting is $1,500 a month", 1500),
    ("rack space costs 800 a month", 800), ("托管费每月2000", 2000 * 0.14), ("托管费一个月3000元", 3000 * 0.14),
    ("机房托管每月5000", 5000 * 0.14),
])
def test_a_hosting_bill_is_a_running_cost_of_owning_not_a_budget(text, usd):
    u = understand(text, None)
    assert u.updates.get("hosting_usd_per_month") == pytest.approx(usd, rel=0.02), (text, u.updates)
    assert "budget_usd_per_month" not in u.updates and "budget_usd" not in u.updates, (text, u.updates)


def test_the_plans_rent_or_buy_counts_the_hosting_and_power_said():
    *_, answer = run_conversation(["serve llama 3.1 70b for 30 users around the clock. rent or buy? colo is 2k a "
                                   "month and power is 0.12/kWh", "does the buy number include power?"])
    rb = payload(answer)["results"]["rent_or_buy"]
    buy = next(t for t in rb["terms"] if t["key"] == "buy_total_usd")["inputs"]
    assert buy["usd_per_kwh"] == pytest.approx(0.12)
    # the colo bill is for every card bought: a whole 8-card server when the plan takes part of one (review CD #3)
    assert buy["hosting_usd_per_gpu_month"] * (rb["buy_gpus"] or rb["gpus"]) == pytest.approx(2000)


def test_a_horizon_change_keeps_the_plans_own_cards_and_prices():
    *_, before, after = run_conversation(["serve llama 3.1 70b for 30 users around the clock", "rent or buy?",
                                          "what if we only keep it two years"])
    plan = payload(before)["results"]["rent_or_buy"]
    rb = payload(after)["results"]["rent_or_buy"]
    assert rb["horizon_months"] == 24 and rb["gpus"] == plan["gpus"] and rb["gpu"] == plan["gpu"]
    buy_then = next(t for t in plan["terms"] if t["key"] == "buy_total_usd")["inputs"]
    buy_now = next(t for t in rb["terms"] if t["key"] == "buy_total_usd")["inputs"]
    assert buy_now["purchase_usd_per_gpu"] == buy_then["purchase_usd_per_gpu"]
    assert rb["rent_total_usd"] == pytest.approx(plan["rent_total_usd"] * 24 / 36)
