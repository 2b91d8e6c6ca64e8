"""An amount asked about as what it buys ('what would 40k actually buy us', '4万能买什么') is a budget, whatever
question was pending (session 19 review: '40k' at the utilisation question was 'utilisation must be between 0% and
100%'); a count of people said the same way stays people."""
from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

EN = ["what would {a} actually buy us", "what does {a} get us", "what could {a} buy me", "what can {a} realistically get us",
      "ok and what would {a} buy us?"]
ZH = ["{a}能买什么", "{a}能买什么卡", "那{a}可以买到什么", "{a}块够买几张"]
PENDING = [None, "utilisation", "users", "budget"]


@pytest.mark.parametrize(("text", "pending"), [(t.format(a=a), p) for t, a, p in itertools.product(
    EN, ["40k", "40,000", "40000"], PENDING)])
def test_an_amount_asked_as_what_it_buys_is_a_budget(text, pending):
    u = understand(text, pending)
    assert u.updates.get("budget_usd") == 40_000 and not u.problems, (u.updates, u.problems)


@pytest.mark.parametrize(("text", "pending"), [(t.format(a=a), p) for t, a, p in itertools.product(
    ZH, ["4万", "40000", "四万"], PENDING)])
def test_an_amount_asked_as_what_it_buys_is_a_budget_zh(text, pending):
    u = understand(text, pending)
    assert u.updates.get("budget_usd") == pytest.approx(40_000 * 0.14) and not u.problems, (u.updates, u.problems)


@pytest.mark.parametrize("text", ["what would 40k users need", "what would 40 gpus buy us in speed", "4万人能用吗"])
def test_people_and_small_numbers_are_not_money(text):
    assert "budget_usd" not in understand(text, None).updates
