"""Budgets said in Chinese with words other than 预算 (review CK budget3 notes): '经费三十万以内', '最多花三十万', '顶多投入
20万', '最多只能花5万买卡', per month too. Each is a budget ceiling (no leeway), whatever the job, the amount's form or
its place in the message; a question about the cost ('最多花多少钱') sets none."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules

FORMS = ["经费{a}以内", "最多花{a}", "顶多投入{a}", "最多只能花{a}", "经费大概{a}"]
AMOUNTS = [("三十万", 300_000), ("20万", 200_000), ("5万块", 50_000)]
JOBS = ["部署qwen2.5-32b给50人用", "想微调qwen2.5-7b"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize(("said", "yuan"), AMOUNTS)
@pytest.mark.parametrize("job", JOBS)
@pytest.mark.parametrize("first", [True, False])
def test_a_budget_said_in_other_words_is_read(form: str, said: str, yuan: int, job: str, first: bool) -> None:
    money = form.format(a=said)
    text = f"{money}，{job}" if first else f"{job}，{money}"
    u = understand(text)
    assert u.updates.get("budget_usd") == pytest.approx(yuan * rules().usd_per_cny), (text, u.updates)
    assert (u.updates.get("budget_leeway") == 0.0) == ("大概" not in form)  # 'about' leaves room; a ceiling does not


@pytest.mark.parametrize("text", ["每个月最多花2万租卡", "每月经费2万，租卡跑qwen2.5-14b"])
def test_a_monthly_ceiling(text: str) -> None:
    assert understand(text).updates.get("budget_usd_per_month") == pytest.approx(20_000 * rules().usd_per_cny)


@pytest.mark.parametrize("text", ["最多花多少钱", "这个方案最多要花多少钱？"])
def test_a_question_about_cost_sets_no_budget(text: str) -> None:
    u = understand(text)
    assert "budget_usd" not in u.updates and "budget_usd_per_month" not in u.updates
