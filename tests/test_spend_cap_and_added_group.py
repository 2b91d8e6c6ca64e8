"""A spending cap said by the hour or the day, and a follow-up that adds a group of people (reviews NC30 #1, CV #8):

- 'ok and if we can only spend like $3/hr?' after a serving plan was 'Sorry, I didn't understand that': a cap said by
  the hour or the day ('$3/hr', '3 bucks an hour', 'max 3 usd/h', '每小时最多20块', '一小时不超过30元', '每天最多花500元')
  is the monthly budget at that rate (budget_usd_per_month), the period kept (budget_per) so that the answer says
  the cap back by the hour, whether the plan keeps under it, and when it does not, the cheapest option that does;
- '后来领导说销售一百五十人也要用，并发算五十，预算不变' after 200 support staff and 30 at once replaced the 200 with 150
  and estimated 24 at once: a group said to use it too is added to the people counted before (350), the number at
  once said beside it is the users at once (50), and the budget is kept."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.user_groups import regroup
from gpu_advisor.knowledge import rules
from gpu_advisor.tools.cost import HOURS_PER_MONTH
from tests.conversation import run_states

PER_MONTH = {"hour": HOURS_PER_MONTH, "day": 30.0}

# ------------------------------------------------------------------ the reader: a cap by the hour or the day

# (template, period): {m} the money as typed (a dollar sign or a currency word is in the template or the money).
EN_CAPS = [
    ("ok and if we can only spend like {d}/hr?", "hour"), ("what if we can only spend {d} an hour", "hour"),
    ("under {d} per hour", "hour"), ("max {n} usd/h", "hour"), ("{n} bucks an hour max", "hour"),
    ("we can spend at most {n} dollars an hour", "hour"), ("keep it under {d}/h please", "hour"),
    ("our budget is {d} an hour", "hour"), ("can only spend {d} a day", "day"), ("max {d} per day", "day"),
]
EN_AMOUNTS = [("3", 3.0), ("2.5", 2.5), ("three", 3.0), ("12", 12.0)]
ZH_CAPS = [
    ("每小时最多{n}块", "hour"), ("一小时不超过{n}元", "hour"), ("每小时最多花{n}块钱", "hour"),
    ("那如果每小时只能花{n}元呢", "hour"), ("每小时预算{n}人民币", "hour"), ("每天最多花{n}元", "day"),
]
ZH_AMOUNTS = [("20", 20.0), ("三十", 30.0), ("二十五", 25.0), ("8", 8.0)]


def _cap_cases():
    for template, per in EN_CAPS:
        for spelled, value in EN_AMOUNTS:
            if spelled.isalpha() and "{d}" in template:
                continue  # ('$three' is typed by nobody)
            yield template.format(d=f"${spelled}", n=spelled), per, value
    for template, per in ZH_CAPS:
        for spelled, value in ZH_AMOUNTS:
            yield template.format(n=spelled), per, value * rules().usd_per_cny


@pytest.mark.parametrize(("text", "per", "usd"), list(_cap_cases()))
def test_a_cap_by_the_hour_or_day_is_the_monthly_budget_at_that_rate(text, per, usd):
    u = understand(text)
    assert u.updates.get("budget_per") == per, (text, u.updates)
    assert u.updates.get("budget_usd_per_month") == pytest.approx(usd * PER_MONTH[per], rel=1e-3), (text, u.updates)
    assert "budget_usd" not in u.updates  # no one-off budget of the same money


@pytest.mark.parametrize("text", ["预算每月两万", "每月预算两万元", "budget is $2000 a month", "we can spend 2k/month"])
def test_a_monthly_budget_is_said_back_by_the_month(text):
    u = understand(text)
    assert u.updates.get("budget_usd_per_month") and not u.updates.get("budget_per"), (text, u.updates)


@pytest.mark.parametrize("text", ["the A100 is $1.49/hr on runpod", "H100租金每小时20元", "what does an H100 cost an hour"])
def test_an_hourly_price_with_no_cap_word_is_no_budget(text):
    assert not understand(text).updates.get("budget_per")


# ------------------------------------------------------------------ the answer: the cap said back, kept or not

NURSES = ("we have 80 nurses who'd use a chatbot over our clinical protocols, maybe 15 at once. what gpu should we "
          "rent for llama 3.1 70b")


@pytest.mark.parametrize("followup", ["ok and if we can only spend like $3/hr?", "what if we can only spend 3 bucks an hour"])
def test_a_cap_in_a_followup_is_said_with_the_plan_under_it(followup):
    _first, after = run_states([NURSES, followup])
    profile, reply = after["profile"], after["messages"][-1].content
    assert profile["budget_per"] == "hour" and profile["budget_usd_per_month"] == pytest.approx(3 * HOURS_PER_MONTH)
    assert "didn't understand" not in reply
    assert "budget cap $3.00 an hour" in reply  # the change line
    assert "within your cap of $3.00 an hour" in reply, reply


def test_a_cap_no_plan_keeps_under_says_the_closest():
    _first, after = run_states([NURSES, "what if we can only spend $0.50 an hour"])
    reply = after["messages"][-1].content
    assert "budget cap $0.50 an hour" in reply, reply
    assert "Nothing keeps under your cap of $0.50 an hour." in reply, reply
    assert "(about $2.98 an hour, over the budget)" in reply, reply  # ranked on cost, said by the hour


def test_a_cap_in_a_chinese_first_turn_is_said_in_chinese():
    state = run_states(["客服团队120人，同时在线大概30个，8k上下文，Qwen3-32B，租卡部署，每小时最多花80块"])[0]
    reply = state["messages"][-1].content
    assert state["profile"]["budget_per"] == "hour"
    assert "每小时上限 ¥80" in reply, reply
    assert "an hour" not in reply


# ------------------------------------------------------------------ a group added, the number at once said

EN_ADDS = ["also {n} sales reps will use it, {c} at once, same budget",
           "plus {n} salespeople on top of that, assume {c} simultaneous, budget unchanged",
           "{n} more sales people too, {c} concurrent users, same budget"]
ZH_ADDS = ["后来领导说销售{n}人也要用，并发算{c}，预算不变，够吗", "还有销售{n}人也要用，并发按{c}，预算不变",
           "再加{n}个销售，并发{c}个，预算不变", "销售{n}人也要用，并发算{c}"]
ADDED = {"en": [("150", 150), ("forty", 40), ("300", 300)], "zh": [("一百五十", 150), ("四十", 40), ("300", 300)]}
AT_ONCE = {"en": [("50", 50), ("sixty", 60)], "zh": [("五十", 50), ("60", 60)]}


def _add_cases():
    for lang, templates in (("en", EN_ADDS), ("zh", ZH_ADDS)):
        for template in templates:
            for n_said, n in ADDED[lang]:
                for c_said, c in AT_ONCE[lang]:
                    yield template.format(n=n_said, c=c_said), n, c


@pytest.mark.parametrize(("text", "added", "at_once"), list(_add_cases()))
def test_a_group_said_to_use_it_too_is_added_and_the_number_at_once_kept(text, added, at_once):
    u = understand(text)
    assert ("sales", "add", float(added)) in (u.ask.get("group_change") or []), (text, u.ask)
    updates = dict(u.updates)
    ask = dict(u.ask)
    note = regroup(updates, Profile(population=200, users=30, budget_usd=140000.0, region="china"), ask)
    assert updates["population"] == 200 + added, (text, updates)
    assert updates.get("users") == at_once, (text, updates)
    assert "budget_usd" not in updates and "budget_usd_per_month" not in updates  # the budget stays as it was
    assert note == ("note.people_listed", {"parts": f"200 + {added}", "n": f"{200 + added:,}"})


def test_the_added_group_is_sized_and_said_in_the_followup():
    first = "公司自研了一个 昆仑-MoE-60B-A6B 模型（总参60B激活6B），想买卡部署，先给客服两百人用，并发大概三十，预算人民币一百万"
    _before, after = run_states([first, "后来领导说销售一百五十人也要用，并发算五十，预算不变，够吗"])
    profile, reply = after["profile"], after["messages"][-1].content
    assert (profile["population"], profile["users"]) == (350, 50)
    assert profile["budget_usd"] == pytest.approx(1_000_000 * rules().usd_per_cny, rel=1e-3)
    assert "使用人数 200 → 350" in reply and "并发用户 30 → 50" in reply, reply
    assert "预算 ¥1,000,000" in reply


def test_the_added_group_is_sized_in_english():
    first = "we have 200 support agents who'd use Qwen3-32B, 30 at once, budget $60k to buy cards"
    _before, after = run_states([first, "also 150 sales reps will use it, 50 at once, same budget"])
    profile, reply = after["profile"], after["messages"][-1].content
    assert (profile["population"], profile["users"], profile["budget_usd"]) == (350, 50, 60000.0)
    assert "people who use it 200 → 350" in reply and "users 30 → 50" in reply, reply


def test_a_monthly_budget_said_after_an_hourly_cap_is_said_back_by_the_month():
    _first, _cap, after = run_states([NURSES, "what if we can only spend $3/hr", "actually our budget is $2,500 a month"])
    profile, reply = after["profile"], after["messages"][-1].content
    assert profile.get("budget_per") is None and profile["budget_usd_per_month"] == 2500
    assert "your $2,500.00 a month" in reply or "your $2,500 a month" in reply, reply
    assert "cap of" not in reply
