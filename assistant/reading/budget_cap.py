"""A spending cap said by the hour or the day, first or in a follow-up: 'ok and if we can only spend like $3/hr?',
'max 3 usd/h', '3 bucks an hour max', '每小时最多20块', '一小时不超过30元', '每天最多花500元' (review NC30 #1: 'Sorry, I
didn't understand that'). It is the monthly budget at that rate (budget_usd_per_month: the hours a month a service is
billed, tools.cost.HOURS_PER_MONTH; a day is a thirtieth of a month, as costs.read_budget reads '$80 a day'), and
budget_per keeps the period it was said in so that the answer says it back by the hour or the day
(assistant/budget_cap.py). Grammar only: the words are in words/budget_cap.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import clause_of
from gpu_advisor.assistant.reading.currency import in_usd
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.tools.cost import HOURS_PER_MONTH

DAYS_PER_MONTH = 30.0  # a budget said a day, as costs.read_budget makes '$80 a day' monthly
PER_MONTH = {"hour": HOURS_PER_MONTH, "day": DAYS_PER_MONTH}
NEAR = 24  # characters after the money its period is looked for in
BEFORE = 48  # characters before the money its period and cap words are looked for in


def _per(m: Message, start: int, end: int) -> str | None:
    """The period the money at start..end is said in: by the hour or the day, after it or before it."""
    after, before = m.masked[end:end + NEAR], m.masked[max(0, start - BEFORE):start]
    for per in ("hour", "day"):
        if word_pattern(f"budget_cap.{per}_after").match(after) or word_pattern(f"budget_cap.{per}_before").search(before):
            return per
    return None


def read_budget_cap(m: Message, u: Understanding) -> None:
    """The last money said with a cap word and a period of an hour or a day: u.updates['budget_usd_per_month'] at
    that rate, u.updates['budget_per'] the period; a one-off budget read from the same money is dropped."""
    for q in reversed(m.role("money")):
        if q.negated:
            continue
        per = _per(m, q.start, q.end)
        if per is None or not word_pattern("budget_cap.cap").search(clause_of(m.masked, q.start, q.end)):
            continue
        usd = in_usd(m, q)
        if usd is None or usd <= 0:
            return
        u.updates.pop("budget_usd", None)
        u.updates["budget_usd_per_month"] = round(usd * PER_MONTH[per], 2)
        u.updates["budget_per"] = per
        u.notes = [n for n in u.notes if n[0] != "note.budget_once"]
        u.ask.pop("cost_rent", None)  # the money is what may be spent, not a cost asked
        return
