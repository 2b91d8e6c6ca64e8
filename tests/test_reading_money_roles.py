"""Money, time windows and quotes take their right roles: cloud credits are a total budget, an amount asked about
as enough is the budget whatever question is pending, a working-hours clock range is a share of the week, and a
machine's purchase quote is a rent-or-buy price. Generated combinations, both languages."""

from __future__ import annotations

import itertools

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules

CNY = rules().usd_per_cny
PENDING = [None, "users", "utilisation"]

EN_AMOUNTS = [("40k", 40_000.0), ("$40,000", 40_000.0), ("$40k", 40_000.0), ("40,000 dollars", 40_000.0)]
ZH_AMOUNTS = [("4万", 40_000.0), ("四万", 40_000.0), ("四十万", 400_000.0), ("50w", 500_000.0), ("五十万", 500_000.0)]
EN_CREDITS = ["we have {a} in credits", "we have {a} in aws credits", "there's {a} of cloud credits left",
              "{a} in free credits, fine-tune llama 3 8b with lora", "fine-tune llama 3 8b with lora, we have {a} in credits"]
ZH_CREDITS = ["我们有{a}额度", "云上还有{a}的额度", "代金券{a}", "有{a}代金券，想用lora微调llama 3 8b",
              "想用lora微调llama 3 8b，我们有{a}额度"]


@pytest.mark.parametrize(("template", "amount", "pending"),
                         list(itertools.product(EN_CREDITS, EN_AMOUNTS, PENDING)))
def test_credits_are_a_total_budget_en(template, amount, pending):
    said, value = amount
    u = understand(template.format(a=said), pending)
    assert u.updates.get("budget_usd") == pytest.approx(value)
    assert "users" not in u.updates and "utilisation" not in u.updates
    assert "budget_usd_per_month" not in u.updates
    assert u.updates.get("preference") == "rent"
    assert ("note.budget_credits", {"amount": f"${value:,.0f}"}) in u.notes


@pytest.mark.parametrize(("template", "amount", "pending"),
                         list(itertools.product(ZH_CREDITS, ZH_AMOUNTS, PENDING)))
def test_credits_are_a_total_budget_zh(template, amount, pending):
    said, value = amount
    u = understand(template.format(a=said), pending)
    assert u.updates.get("budget_usd") == pytest.approx(round(value * CNY, 2))
    assert "users" not in u.updates and "utilisation" not in u.updates
    assert u.updates.get("preference") == "rent"
    assert ("note.budget_credits", {"amount": f"¥{value:,.0f}"}) in u.notes


EN_ENOUGH = ["is {a} enough?", "would {a} be enough", "our budget is only {a}", "is {a} enough for this"]
ZH_ENOUGH = ["{a}够不够", "{a}够吗", "我们预算就{a}", "预算只有{a}，够不够"]


@pytest.mark.parametrize(("template", "amount", "pending"),
                         list(itertools.product(EN_ENOUGH, [("500k", 500_000.0), ("$500k", 500_000.0), ("200k", 200_000.0)], PENDING)))
def test_amount_asked_as_enough_is_the_budget_en(template, amount, pending):
    said, value = amount
    u = understand(template.format(a=said), pending)
    assert u.updates.get("budget_usd") == pytest.approx(value)
    assert "users" not in u.updates and "utilisation" not in u.updates
    assert not u.problems


@pytest.mark.parametrize(("template", "amount", "pending"),
                         list(itertools.product(ZH_ENOUGH, ZH_AMOUNTS, PENDING)))
def test_amount_asked_as_enough_is_the_budget_zh(template, amount, pending):
    said, value = amount
    u = understand(template.format(a=said), pending)
    assert u.updates.get("budget_usd") == pytest.approx(round(value * CNY, 2))
    assert "users" not in u.updates and "utilisation" not in u.updates
    assert not u.problems


@pytest.mark.parametrize("pending", PENDING)
def test_a_context_asked_as_enough_is_no_budget(pending):
    u = understand("is 128k enough?", pending)
    assert "budget_usd" not in u.updates


WORKING_HOURS = ["9-6 weekdays", "9-6 mon-fri", "9 to 6 on weekdays", "9 to 6 weekdays", "9am to 6pm mon-fri", "9am to 6pm weekdays",
                 "朝九晚六", "工作日朝九晚六", "工作日9点到18点", "朝9晚6"]


@pytest.mark.parametrize(("said", "pending", "lead"),
                         list(itertools.product(WORKING_HOURS, PENDING, ["", "serve qwen 72b for 40 people, "])))
def test_working_hours_clock_range_is_a_share_of_the_week(said, pending, lead):
    u = understand(lead + said, pending)
    assert u.updates.get("utilisation") == pytest.approx(9 * 5 / 168, abs=1e-3)
    assert u.updates.get("users") in (None, 40)  # never 9 or 6 people
    assert not u.problems


def test_clock_range_without_working_days_is_every_day():
    assert understand("早9晚6").updates.get("utilisation") == pytest.approx(9 / 24, abs=1e-3)
    assert understand("9am to 6pm").updates.get("utilisation") == pytest.approx(9 / 24, abs=1e-3)


QUOTES = [("an 8x H100 server quoted at $250k", 250_000.0), ("we got a quote of $250k for an 8x h100 server", 250_000.0),
          ("整机8卡H20十七万", 170_000 * CNY), ("H20八卡一台十七万", 170_000 * CNY), ("H20一台八卡十七万", 170_000 * CNY)]


@pytest.mark.parametrize(("said", "machine"), QUOTES)
@pytest.mark.parametrize("tail", ["", "，租还是买？", ", rent or buy?"])
def test_machine_quote_is_a_rent_or_buy_price(said, machine, tail):
    u = understand(said + tail)
    assert "rent_buy" in u.intents
    assert u.prices.get("buy_usd_machine") == pytest.approx(machine)
    assert "budget_usd" not in u.updates and not u.updates.get("owned")
    for quote in u.quotes:  # a card's price, when one is kept, is the machine's over its 8 cards
        if "buy_usd_per_gpu" in quote:
            assert quote["buy_usd_per_gpu"] == pytest.approx(machine / 8)


def test_zh_model_digits_do_not_join_a_chinese_amount():
    u = understand("整机8卡H20十七万，租还是买")
    assert u.prices["buy_usd_machine"] == pytest.approx(170_000 * CNY)


@pytest.mark.parametrize(("said", "value"), [("$0.12/kWh", 0.12), ("电费0.6元一度", 0.6 * CNY),
                                             ("power is 0.8 yuan per kWh", 0.8 * CNY)])
def test_power_price_is_a_running_cost(said, value):
    u = understand(said)
    assert u.updates.get("electricity_usd_per_kwh") == pytest.approx(value, abs=1e-3)
    assert "budget_usd" not in u.updates


def test_budget_per_month_stays_monthly():
    u = understand("40 users 24/7, budget 3k a month")
    assert u.updates == {"users": 40, "utilisation": 1.0, "budget_usd_per_month": 3000.0}


# ---------------------------------------------------------------- conversations

def test_credits_echoed_with_the_run_cost_en():
    reply = run_conversation(["we have 40k in credits on aws, want to fine-tune llama 3 8b with lora"])[-1].content
    assert "$40,000 in credits" in reply and "within your $40,000" in reply
    assert "Rent" in reply.splitlines()[0]


def test_credits_echoed_with_the_run_cost_zh():
    reply = run_conversation(["我们有4万额度，想用lora微调llama 3 8b"])[-1].content
    assert "¥40,000 额度" in reply
    assert "租" in reply.splitlines()[0]


@pytest.mark.parametrize(("first", "money", "echo", "asked_again"), [
    ("serve llama 3 70b for our team", "is 500k enough?", "$500,000", "How many people"),
    ("部署llama 3 70b给团队用", "五十万够不够", "¥500,000", "多少人同时"),
    ("部署llama 3 70b给团队用", "我们预算就20万", "¥200,000", "多少人同时"),
])
def test_budget_at_the_users_question_then_the_question_again(first, money, echo, asked_again):
    replies = run_conversation([first, money])
    assert echo in replies[-1].content and asked_again in replies[-1].content
    assert asked_again in replies[0].content


@pytest.mark.parametrize(("said", "lang_marks"), [
    ("we have $40k in aws credits, serve llama 3 8b for 20 users 9-6 weekdays",
     ("$40,000 in credits", "months of renting it", "27% use")),
    ("我们在阿里云有40万额度，部署qwen2.5 7b给20人用，朝九晚六", ("¥400,000 额度", "约够租", "27%")),
])
def test_credits_say_the_months_of_serving_they_pay_for(said, lang_marks):
    reply = run_conversation([said])[-1].content
    for mark in lang_marks:
        assert mark in reply
    assert "Buying" not in reply and "购买 " not in reply.split("**预算**")[-1].split("\n")[0]


def test_credits_serving_priced_on_rent_not_purchase():
    """A one-off budget with renting: plans over it are said over on a year of rent, not on buying."""
    reply = run_conversation(["我们在阿里云有4万额度，想部署qwen 72b给200人用，全天候"])[-1].content
    assert "一年" in reply and "超出 ¥40,000 的预算" in reply
    assert "购买约需" not in reply


@pytest.mark.parametrize(("said", "echo"), [
    ("电费0.6元一度，租还是买？部署qwen 72b给50人，朝九晚六", "电价每度 ¥0.6 ($0.084)"),
    ("power is $0.12/kWh, rent or buy? serve llama 3 70b for 100 users 9-6 weekdays", "$0.12"),
])
def test_power_price_echoed_in_the_users_currency(said, echo):
    reply = run_conversation([said])[-1].content
    assert echo in reply


@pytest.mark.parametrize(("said", "marks"), [
    ("an 8x H100 server quoted at $250k, rent or buy? serve llama 3 70b for 200 users 24/7", ("$250,000", "$31,250")),
    ("整机8卡H20十七万，租还是买？", ("¥170,000", "¥21,250")),
])
def test_machine_quote_is_compared_not_a_budget(said, marks):
    reply = run_conversation([said])[-1].content
    for mark in marks:
        assert mark in reply
    assert "budget" not in reply.lower().split("from what you said")[-1] and "预算" not in reply


MONTHLY = [("budget 3k a month", 3000.0), ("budget 3k/mo", 3000.0), ("3k a month budget", 3000.0),
           ("we can spend 3k monthly", 3000.0), ("budget $36k a year", 3000.0), ("credits of $5k a month", 5000.0),
           ("每月预算3000", 3000 * CNY), ("预算每月两万", 20_000 * CNY), ("月预算2万", 20_000 * CNY),
           ("一个月预算两万", 20_000 * CNY), ("年预算24万", 20_000 * CNY), ("预算一个月两万", 20_000 * CNY),
           ("每月有2万代金券", 20_000 * CNY)]
ONCE = [("one-off budget of 50k", 50_000.0), ("一次性预算50万", 500_000 * CNY), ("budget 40k", 40_000.0),
        ("预算四十万", 400_000 * CNY)]


@pytest.mark.parametrize(("said", "usd"), MONTHLY)
@pytest.mark.parametrize("lead", ["", "40 users 24/7, ", "serve qwen 7b, "])
def test_budget_said_per_month_is_monthly(said, usd, lead):
    u = understand(lead + said)
    assert u.updates.get("budget_usd_per_month") == pytest.approx(usd, abs=0.01)
    assert "budget_usd" not in u.updates
    assert not any(code in ("note.budget_credits", "note.budget_once") for code, _ in u.notes)


@pytest.mark.parametrize(("said", "usd"), ONCE)
def test_budget_said_once_is_one_off(said, usd):
    u = understand(said)
    assert u.updates.get("budget_usd") == pytest.approx(usd, abs=0.01)
    assert "budget_usd_per_month" not in u.updates


@pytest.mark.parametrize(("said", "usd"), [("预算额度20万", 200_000 * CNY), ("20万的预算额度", 200_000 * CNY),
                                           ("budget 40k", 40_000.0), ("40k budget", 40_000.0)])
def test_a_budget_amount_is_no_credits(said, usd):
    u = understand(said)
    assert u.updates.get("budget_usd") == pytest.approx(usd, abs=0.01)
    assert not any(code == "note.budget_credits" for code, _ in u.notes)
    assert "preference" not in u.updates


def test_a_credit_card_is_no_credits():
    u = understand("we pay by credit card, serve llama 3 8b")
    assert "preference" not in u.updates and "budget_usd" not in u.updates
