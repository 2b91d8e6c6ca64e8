"""A budget said per run of a repeating job ('$200 a night max', '每晚预算1000块', '每次跑预算200美元') is that much
each run: made monthly from the runs a month (said, or the period's own), never a one-off budget 'for a year of
renting' (review V E9)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules

JOB_EN = "summarize 30k support tickets with llama 3.1 8b, 2000 tokens in and 250 out each"
JOB_ZH = "用qwen2.5 7b批量处理3万条工单，每条输入2000 token输出250"
EN = [("budget 200 dollars a night max", 200 * 30), ("$200 per night tops", 200 * 30), ("at most $50 a day", 50 * 30),
      ("budget $200 per run, it runs nightly", 200 * 30), ("budget $300 each run, weekly", 300 * 4.3)]
ZH = [("预算每晚1000块", 1000 * 30), ("每次跑预算200美元，每天跑一次", 200 * 30), ("每天预算500元", 500 * 30),
      ("每晚预算1000元", 1000 * 30)]


def _usd(amount: float, text: str) -> float:
    yuan = "块" in text or "元" in text.replace("美元", "")
    return amount * (rules().usd_per_cny if yuan else 1.0)


@pytest.mark.parametrize(("said", "order"), itertools.product(EN + ZH, range(2)))
def test_a_budget_per_run_is_monthly_from_the_runs(said: tuple[str, float], order: int) -> None:
    words, monthly = said
    job = JOB_ZH if any("\u4e00" <= c <= "\u9fff" for c in words) else JOB_EN
    text = f"{job}，{words}" if order == 0 else f"{words}，{job}"
    u = understand(text, None)
    assert "budget_usd" not in u.updates, u.updates
    assert u.updates["budget_usd_per_month"] == pytest.approx(_usd(monthly, words), rel=0.02), u.updates
    assert not [n for n in u.notes if n[0] == "note.budget_once"]


@pytest.mark.parametrize("text", ["I can spend 5000 dollars on llama 3.1 8b hardware", "budget $300 total for qwen 7b",
                                  "预算5000块，跑qwen2.5 7b"])
def test_a_budget_said_once_stays_once(text: str) -> None:
    assert "budget_usd" in understand(text, None).updates
