"""A count of active users ('~2k daily actives', '2k DAU', '日活两千', 'each day about 2,000 active users') is people who
use the service, never money: review BZ #1 read '~2k daily actives' as a rent of $2,000 a day ($83.33 per H100-hour)
and priced the whole rent-or-API answer on it. Generated: both languages, the count before or after its noun, with
fillers, beside a rent question."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

COUNTS_EN = ["2k", "2,000", "2000", "~2k", "about 2k", "around 2,000"]
DAILY_EN = ["{n} daily actives", "{n} DAU", "{n} DAUs", "{n} daily active users", "{n} actives a day",
            "{n} active users per day", "{n} active users every day", "{n} actives daily",
            "DAU {n}", "DAU of {n}", "daily actives: {n}", "daily actives {n}", "each day {n} active users",
            "every day {n} actives"]
COUNTS_ZH = ["两千", "2000", "2k", "2千", "大概两千", "约2000"]
DAILY_ZH = ["日活{n}", "{n}日活", "日活跃用户{n}", "日活用户{n}", "每天活跃用户{n}左右", "每天{n}活跃用户",
            "每天有{n}个活跃用户", "每日活跃用户{n}"]
AROUND = {"en": ["{p}", "we're launching a support chatbot, {p}. rent h100s or just use an api?",
                 "{p}, at peak maybe 150 ppl chatting at once. whats cheaper, renting h100s or an api",
                 "rent h100s or use an api? we have {p}"],
          "zh": ["{p}", "我们做AI客服，{p}，租H100还是直接用API划算", "{p}，高峰期同时在线150人，租卡还是用api",
                 "租H100还是用API？{p}"]}


def _cases() -> list[tuple[str, str]]:
    out = []
    for lang, counts, forms in (("en", COUNTS_EN, DAILY_EN), ("zh", COUNTS_ZH, DAILY_ZH)):
        for n, form, around in itertools.product(counts, forms, AROUND[lang]):
            out.append((around.format(p=form.format(n=n)), lang))
    return out


@pytest.mark.parametrize(("text", "lang"), _cases())
def test_active_users_are_people_a_day_not_money(text: str, lang: str) -> None:
    u = understand(text)
    assert u.lang == lang
    assert u.updates.get("population") == 2000, (text, u.updates)
    assert u.updates.get("population_daily") is True, (text, u.updates)
    assert not u.quotes, (text, u.quotes)  # no rent of $2,000 a day
    assert not {k for k in u.updates if k.startswith("budget")}, (text, u.updates)


@pytest.mark.parametrize("text", ["50k monthly actives", "monthly actives ~50k", "50k MAU", "月活五万", "五万月活",
                                  "50k monthly actives, rent h100s or an api?"])
def test_monthly_actives_are_people_a_month(text: str) -> None:
    u = understand(text)  # the people who use it, a day's share of them at once (tests/test_users_a_population.py)
    assert ("note.monthly_population", {"n": "50,000"}) in u.notes, u.notes
    assert u.updates.get("population") == 50_000 and u.updates.get("population_monthly") is True and not u.quotes


@pytest.mark.parametrize("text", ["2k actives", "about 2,000 actives on the app, rent h100s?", "2000 active users"])
def test_actives_without_a_period_are_the_user_base(text: str) -> None:
    u = understand(text)
    assert u.updates.get("population") == 2000 and not u.quotes, (u.updates, u.quotes)


def test_a_rent_said_a_day_is_still_a_rent() -> None:
    # the rule is about the noun after the count: a price said per day for a card stays a rent
    u = understand("runpod wants 60 usd a day for an h100, or use an api?")
    assert [q["usd_per_gpu_hour"] for q in u.quotes] == [2.5], u.quotes


BZ1 = ("hey we're launching a customer support chatbot for our saas, ~2k daily actives, at peak maybe 150 ppl chatting "
       "at once. want llama 3.1 70b, p50 ttft under 1s. rent h100s or just use an api? whats cheaper")
BZ1_ZH = "我们公司做AI客服，日活大概两千，高峰期同时在线150人，想部署llama 3.1 70b，首token一秒内，租h100还是直接用api便宜"


@pytest.mark.parametrize(("turns", "lang"), [([BZ1, "what if int4"], "en"), ([BZ1_ZH, "int4呢"], "zh")])
def test_conversation_prices_h100_at_market_not_at_the_user_count(turns: list[str], lang: str) -> None:
    states = run_states(turns)
    for state in states:
        assert not state.get("rent_quotes"), state.get("rent_quotes")
        profile = state["profile"]
        assert (profile["population"], profile["population_daily"], profile["users"]) == (2000, True, 150)
        reply = str(state["messages"][-1].content)
        assert "83.33" not in reply and "243,333" not in reply, reply[:600]
