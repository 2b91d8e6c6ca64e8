"""Money the user states about running the job: a budget (per month, once, or in credits), the electricity price,
and hosting. Grammar only: the words are in words/money.yaml and words/units.yaml."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.budget_leeway import read_budget_leeway
from gpu_advisor.assistant.reading.clauses import clause_of
from gpu_advisor.assistant.reading.currency import in_usd
from gpu_advisor.assistant.reading.hardware import read_preference
from gpu_advisor.assistant.reading.job import trains
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.money_roles import credits_note
from gpu_advisor.assistant.reading.money_said import item_priced, refuse_money_people
from gpu_advisor.assistant.reading.recurring import runs_per_period
from gpu_advisor.assistant.reading.text import word_pattern


def read_budget(m: Message) -> tuple[str, float] | None:
    """A budget in USD: ('budget_usd_per_month', 2000.0) for 'at most $2000 a month',
    ('budget_usd', 5000.0) for 'I can spend $5k'; yuan converted at the rules' rate."""
    money = [q for q in m.role("money") if not word_pattern("money_hourly").match(m.masked[q.end:q.end + 16])
             and not word_pattern("money_hourly_before").search(m.masked[max(0, q.start - 24):q.start])]  # a price
    money = [q for q in money if not re.match(r"\s*(?:%|x\b)", m.masked[q.end:q.end + 4])]
    money = [q for q in money if not word_pattern("money_paid_before").search(m.masked[max(0, q.start - 20):q.start])
             and not item_priced(m, q)]  # '桥要七八百块', 'the bridge is like $80': a part's price, no budget
    if money:
        from gpu_advisor.assistant.reading.quotes import priced

        prices = priced(m)  # '4090一块1.98元', 'two 3090s for $1400 total': what a card costs, no budget
        money = [q for q in money if q.start not in prices]
    if not money:
        return None
    q = money[-1]
    clause = clause_of(m.masked, q.start, q.end)
    after = m.masked[q.end:q.end + 30]
    before = m.masked[max(0, q.start - 40):q.start]
    once_before = word_pattern("money_once_before").search(before)
    monthly = bool(word_pattern("money_monthly_after").match(after)) or (
        bool(word_pattern("money_monthly").search(clause)) and not word_pattern("money_once").match(after)
        and not once_before)
    yearly = bool(word_pattern("money_yearly").search(clause))
    amount = q.value
    usd = in_usd(m, q)  # yuan, euros, pounds at the rates kept in knowledge data, the rate said (reading.currency)
    if usd is None:
        return None
    if yearly and not monthly:
        usd, monthly = usd / 12, True
    if usd <= 0:
        m.problems.append(("budget_not_positive", {}))
        return None
    said_once = word_pattern("money_once_said").search(clause)
    if not monthly and credits_note(m, q, before, clause):
        return "budget_usd", round(usd, 2)  # '40k in credits on aws': a total the rent stays within
    if not monthly and not said_once and read_preference(m) != "buy" and not trains(m):
        shown = f"¥{amount:,.0f}" if q.extra == "CNY" else f"${amount:,.0f}" if q.extra in ("", "USD") \
            else f"{amount:,.0f} {q.extra}"
        m.notes.append(("note.budget_once", {"amount": shown}))  # ambiguous: say how it was taken
    return ("budget_usd_per_month" if monthly else "budget_usd", round(usd, 2))


def read_power(m: Message) -> float | None:
    """An electricity price in USD per kWh: '$0.15/kWh', '电费每度0.8元' (yuan at the rules' rate)."""
    found = m.role("power_price")
    if not found and (m.role("hosting") or word_pattern("price_hosting").search(m.masked)) \
            and word_pattern("hosting_includes_power").search(m.masked):
        m.notes.append(("note.hosting_with_power", {}))  # 'colo 2k a month incl. power', '托管费含电费': no power on top
        return 0.0
    if not found:
        return None
    q = found[-1]
    usd = in_usd(m, q)
    if usd is None:
        return None
    if not 0 < usd <= 10:
        m.problems.append(("power_range", {}))
        return None
    shown = f"¥{q.value:g}" if q.extra == "CNY" else f"${q.value:g}" if q.extra in ("", "USD") else f"{q.value:g} {q.extra}"
    m.notes.append(("note.power_price", {"price": shown}))
    return round(usd, 4)


def read_hosting(m: Message) -> float | None:
    """What hosting the cards bought costs a month ('colo is 2k a month', '托管费每月2000'), in USD: a running
    cost of owning, not a budget."""
    found = m.role("hosting")
    usd = in_usd(m, found[-1]) if found else None
    return None if usd is None else round(usd, 2)


def budget_periods(m: Message, u: Understanding) -> None:
    """A budget said once made monthly: one that must last so many months ('get us through the first month'), or one
    said per run of a repeating job ('$200 a night max', '每次跑预算200美元'): that much each run, times the runs a
    month (said, or the period's own: a night or a day is 30 a month). First: money is never a user count."""
    refuse_money_people(m, u)
    read_budget_leeway(m, u)  # '一万五左右': a little over counts as within; '最多': a hard cap (h-used)
    months = budget_months(m)
    if months:
        u.ask = {**u.ask, "budget_months": months}
        if "budget_usd" in u.updates:
            u.updates["budget_usd_per_month"] = round(u.updates.pop("budget_usd") / months, 2)
            u.notes = [n for n in u.notes if n[0] != "note.budget_once"]
        return
    money = m.role("money")
    if not money or "budget_usd" not in u.updates:
        return
    q = money[-1]
    after = word_pattern("money_per_run_after").match(m.masked[q.end:q.end + 30])
    before = word_pattern("money_per_run_before").search(m.masked[max(0, q.start - 30):q.start])
    period = after.group("period") if after else next((k for k, v in before.groupdict().items() if v), None) \
        if before else None
    if period is None:
        return
    runs = u.updates.get("runs_per_month") or runs_per_period(period)  # '$200 a night': 30 runs a month
    if u.updates.get("phase") == "batch":
        u.updates["runs_per_month"] = runs  # the job repeats as often as its budget is said
    u.updates["budget_usd_per_month"] = round(u.updates.pop("budget_usd") * runs, 2)
    u.notes = [n for n in u.notes if n[0] != "note.budget_once"]


def budget_months(m: Message) -> int | None:
    """How many months a budget said once must last ('get us through launch + first month': 1, 'for the first 3
    months': 3, '撑过第一个月': 1), when the message says so; None otherwise."""
    found = word_pattern("budget_horizon").search(m.text)
    if not found:
        return None
    n = found.group("n") or found.group("zn")
    months = int(n) if n else 1
    return months if 0 < months <= 36 else None
