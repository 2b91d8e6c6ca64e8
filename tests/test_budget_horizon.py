"""A one-off budget and a horizon said (review CF #3: 'budget is 250k usd … for the next 3 yrs', renting 4 x H100 at
$419k over 36 months called within $250k 'for a year'): renting the plan is weighed against the budget over the
months given, said plainly, and what fits the budget over them is offered (both languages, several spellings)."""

from __future__ import annotations

import re

import pytest

from tests.conversation import payload, run_conversation

LOAD = {"en": "maybe 150 at the same time during peak, prompts are short like 1k tokens",
        "zh": "高峰大概150人同时用，提示词1000 token左右"}
FIRST = {
    "en": ["budget is 250k usd, power costs us 0.12/kWh. we want to serve qwen3 32b 24/7 for our saas for the next {h}. "
           "buy h100s or just rent?",
           "we have 250k usd to spend. serving qwen3 32b around the clock for our saas over {h}, buy h100s or rent?"],
    "zh": ["预算25万美元，电费每度0.12美元，要用qwen3 32b给我们的saas全天候服务，未来{h}，买h100还是租？"],
}
HORIZON = {"en": ["3 yrs", "3 years", "three years"], "zh": ["3年", "三年"]}
CASES = [(lang, f.format(h=h)) for lang in ("en", "zh") for f in FIRST[lang] for h in HORIZON[lang]]


def _money(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"\$([\d,]+(?:\.\d+)?)", text)]


@pytest.mark.parametrize("lang, first", CASES)
def test_renting_over_the_horizon_given_is_weighed_against_the_budget(lang, first):
    reply = run_conversation([first, LOAD[lang]])[-1]
    rec = payload(reply)["results"]["recommend"]
    w, best = rec["workload"], rec["best"]
    assert w["horizon_months"] == 36 and w["budget_usd"] == 250_000
    month = best["running_usd_per_month"] or best["usd_per_month"]
    assert month * 36 > 250_000  # the plan's rent over the 3 years is over the budget
    head = "**Budget:**" if lang == "en" else "**预算**"
    line = next(x for x in reply.content.splitlines() if x.startswith(head))
    assert ("over the 36 months you gave: over your" in line) if lang == "en" else ("36 个月" in line and "超出了你的" in line)
    assert round(month * 36) in [round(x) for x in _money(line)]
    assert "for a year" not in line and "一年" not in line
    # what fits: another option that meets every target, its 36 months within the budget
    fits = next(x for x in reply.content.splitlines()
                if x.startswith("**Within $250,000 over 36 months:**" if lang == "en" else "**36 个月在"))
    other = next(o for o in rec["options"] if o["gpu_name"] in fits)
    other_month = other["running_usd_per_month"] or other["usd_per_month"]
    assert other["ok"] and other_month * 36 <= 250_000 and (other["gpu"], other["gpus"]) != (best["gpu"], best["gpus"])
    assert round(other_month * 36) in [round(x) for x in _money(fits)]


@pytest.mark.parametrize("lang, first", [
    ("en", "budget is 250k usd. we want to serve qwen3 32b 24/7 for our saas. buy h100s or just rent?"),
    ("zh", "预算25万美元，要用qwen3 32b给我们的saas全天候服务，买h100还是租？"),
])
def test_with_no_horizon_said_the_budget_is_still_weighed_against_a_year(lang, first):
    reply = run_conversation([first, LOAD[lang]])[-1]
    head = "**Budget:**" if lang == "en" else "**预算**"
    line = next(x for x in reply.content.splitlines() if x.startswith(head))
    assert ("for a year" in line) if lang == "en" else ("一年" in line)
    assert "months you gave" not in line and "按你说的" not in line
