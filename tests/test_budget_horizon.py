"""A budget said once, with how long it must last ('the 2k is just to get us through launch + first month', 'budget
$6k for the first 3 months', '撑过第一个月就行'), is that budget spread over those months: a monthly budget. Review S2
#3 compared a $2,000 launch budget with a year of rent and then could not answer 'whats the cheapest setup'."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

HORIZONS_EN = {"to get us through launch + first month": 1, "for the first month": 1, "to last the first 3 months": 3,
               "covering the first 2 months": 2, "through the first 6 months": 6}
AMOUNTS = {"$2k": 2000, "6000 usd": 6000, "$12,000": 12000}


@pytest.mark.parametrize(("said", "amount", "horizon"), list(itertools.product(AMOUNTS, HORIZONS_EN, ["before", "after"])))
def test_a_budget_with_its_months_is_a_monthly_budget(said, amount, horizon):
    months = HORIZONS_EN[amount]
    budget = f"budget is {said} {amount}"
    text = (f"{budget}, serve qwen2.5 7b to 20 users" if horizon == "before"
            else f"serve qwen2.5 7b to 20 users. {budget}")
    u = understand(text)
    assert u.updates.get("budget_usd_per_month") == pytest.approx(AMOUNTS[said] / months, abs=0.01), u.updates
    assert "budget_usd" not in u.updates


FOLLOW = {"en": ("startup: finetune qwen2.5 7b on 20k support tickets with lora, then serve it to 20 users around the "
                 "clock. budget is 2k usd total", "the 2k is just to get us through launch + first month. whats the "
                 "cheapest setup that works"),
          "zh": ("创业公司：用2万条工单 LoRA 微调 qwen2.5 7b 然后上线给20人用，全天候，总预算2000美元",
                 "这2000美元只要撑过上线和第一个月就行，最便宜的方案是什么")}


@pytest.mark.parametrize("lang", FOLLOW)
def test_a_budget_said_before_is_spread_over_the_months_said_next(lang):
    _first, second = run_conversation(list(FOLLOW[lang]))
    profile = payload(second)["profile"]
    assert profile["budget_usd_per_month"] == pytest.approx(2000.0) and not profile.get("budget_usd")
    best = payload(second)["results"]["recommend"]["best"]
    assert best is not None and best["ok"] and best["usd_per_month"] <= 2000.0


HORIZONS_ZH = {"撑过第一个月就行": 1, "够用前3个月": 3, "撑到上线后第一个月": 1, "花到前6个月": 6}


@pytest.mark.parametrize(("yuan", "horizon"), list(itertools.product((20000, 60000), HORIZONS_ZH)))
def test_a_budget_in_yuan_with_its_months_is_a_monthly_budget(yuan, horizon):
    from gpu_advisor.knowledge import rules

    u = understand(f"部署qwen2.5 7b给20人用，预算{yuan}元，{horizon}")
    want = yuan * rules().usd_per_cny / HORIZONS_ZH[horizon]
    assert u.updates.get("budget_usd_per_month") == pytest.approx(want, rel=0.01), u.updates
