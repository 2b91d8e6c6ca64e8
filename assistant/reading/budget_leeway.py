"""A budget said approximately or as a hard cap (h-used): '预算一万五左右', 'around $5k', '5k-ish', '大概两万' allow a plan a
little over it (budget_leeway, percent: tools.recommend BUDGET_LEEWAY_PCT); '最多', '不超过', 'at most', 'no more than',
'$5k max' are a hard cap (leeway 0). The words are in words/used_price.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.tools.recommend import BUDGET_LEEWAY_PCT


def read_budget_leeway(m: Message, u: Understanding) -> None:
    """Sets budget_leeway when a budget read this turn is said approximately (the leeway) or as a cap (0)."""
    if "budget_usd" not in u.updates and "budget_usd_per_month" not in u.updates:
        return
    money = m.role("money")
    if not money:
        return
    q = money[-1]
    before, after = m.masked[max(0, q.start - 24):q.start], m.masked[q.end:q.end + 24]
    if word_pattern("budget_cap_before").search(before) or word_pattern("budget_cap_after").match(after):
        u.updates["budget_leeway"] = 0.0
    elif word_pattern("budget_about_before").search(before) or word_pattern("budget_about_after").match(after):
        u.updates["budget_leeway"] = BUDGET_LEEWAY_PCT
