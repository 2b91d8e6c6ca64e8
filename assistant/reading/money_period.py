"""A budget's period and how often runs repeat, read once the money and the runs are (review BF 12: '预算50万人民币左右
…每个月大概跑十来次实验' then '每周几小时吧，不会一直跑。另外50万是一次性的总预算，不是每个月'):
- a budget said to be one-off ('一次性的总预算', 'it's a one-time budget, not monthly', '是总预算') is a budget for the
  whole purchase, never a month's: the amount said then, else the monthly one kept (once_said, at the engine);
- a month said of the runs ('每个月跑十来次', '10 runs a month') makes the runs a month, not the money monthly, and
  those runs are of the fine-tuning said with them (its 'experiments' are no trying out of a model);
- around the clock said not to be ('不会一直跑', "won't run 24/7") is not 100 %: the other share said, if any;
- hours a week ('每周几小时') say how busy, never a run each week; hours a day ('每天训练大概十个小时', 'we train about
  10 hours a day') say how busy the cards are, never a run each day of a made-up size (review BK #19).
Grammar only: the words are in words/money_period.yaml."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern

WEEK_HOURS = 168
DAILY_RUNS = 30.0  # runs a month of a job said daily (words/recurring.yaml)


def read_money_period(m: Message, u: Understanding) -> None:
    _box_weighed(m, u)
    _budget_once(m, u)
    _runs_of_the_month(m, u)
    _busy_negated(m, u)
    _week_hours(m, u)
    _day_hours(m, u)


def _box_weighed(m: Message, u: Understanding) -> None:
    """'we're debating buying an 8x H100 box vs just renting', '在考虑买一台8卡H100还是租': the box weighed to buy is no
    card owned (the cards to weigh, buying against renting); its break-even is the rent-or-buy one, not an API's."""
    raw = m.raw.lower()
    said = word_pattern("money_period.buy_weighed")
    named = {g: n for _s, _e, g, n in m.gpus}
    box = [f"{n}x {g}" for g, n in named.items() if n > 1] if len(named) == 1 else []
    if (u.updates.get("owned") or (box and not u.updates.get("only"))) and (said.search(m.masked) or said.search(raw)) \
            and word_pattern("money_period.rent_said").search(raw) and not word_pattern("buy_weighed_have").search(m.masked):
        u.updates["only"] = list(u.updates.pop("owned", None) or box)
        for slot in ("fewest_owned", "preference"):
            u.updates.pop(slot, None)
        u.intents.add("rent_buy")
    counted = word_pattern("horizon_counted").search(m.masked)
    if counted and "horizon_months" not in u.updates:  # '按18个月算': the months the rent-or-buy covers
        u.updates["horizon_months"] = int(counted.group("n")) * (12 if counted.group("unit").startswith("year") else 1)
    be = u.ask.get("break_even") or word_pattern("api_price.break_even").search(raw)
    weighed = "rent_buy" in u.intents or (word_pattern("money_period.rent_said").search(raw)
                                          and word_pattern("server_price_ask.buy").search(raw))
    if weighed and be and not u.ask.get("api_price") and not word_pattern("money_period.api_said").search(raw):
        u.ask.pop("break_even", None)
        u.ask.pop("per_token", None)
        if any(x[:1].isdigit() for x in u.updates.get("only") or []):
            u.intents |= {"rent_buy", "server_price"}  # the box's own break-even, answered first (server_rent_buy)
            u.intents -= {"payback", "why_not", "whatif"}  # '多久回本', 'instead of renting': that same answer
    if u.updates.get("phase") == "experiment" and (word_pattern("fine_tune_runs").search(m.masked)
                                                   or word_pattern("money_period.runs_month").search(m.masked)):
        u.updates["phase"] = "fine-tune"  # 'fine-tuning experiments', 'lora微调…跑十来次实验': fine-tuning runs


def _amount(m: Message) -> float | None:
    """The budget's amount said in the message, in USD: money, else a bare amount beside the word budget."""
    from gpu_advisor.knowledge import rules

    said = [q for q in m.role("money")] or [q for q in m.qty if not q.role and q.value >= 50 and not q.negated]
    if not said:
        return None
    q = said[-1]
    cny = q.extra == "CNY" or (q.extra != "USD" and m.lang == "zh")
    return round(q.value * (rules().usd_per_cny if cny else 1.0), 2)


def _budget_once(m: Message, u: Understanding) -> None:
    text = m.masked
    once = word_pattern("money_period.once").search(text) or (
        word_pattern("money_period.not_monthly").search(text) and word_pattern("money_period.budget").search(
            text + " " + m.raw.lower()))
    if not once or not word_pattern("money_period.budget").search(text + " " + m.raw.lower()):
        return
    monthly = u.updates.pop("budget_usd_per_month", None)
    amount = u.updates.get("budget_usd") or monthly or _amount(m)
    if amount is not None:
        u.updates["budget_usd"] = amount
    u.ask["budget_once"] = True  # a monthly budget kept from before is made one-off (once_said)
    u.notes = [n for n in u.notes if n[0] != "note.budget_once"]


def _runs_of_the_month(m: Message, u: Understanding) -> None:
    found = word_pattern("money_period.runs_month").search(m.masked)
    if found is None:
        return
    n = int(found.group("n") or found.group("m"))
    if 0 < n <= 1000:
        u.updates["runs_per_month"] = float(n)
    money = m.role("money") or [q for q in m.qty if not q.role and q.value >= 50]
    if "budget_usd_per_month" not in u.updates or not money:
        return
    q = money[0]
    after = m.masked[q.end:q.end + 30]
    before = m.masked[max(0, q.start - 24):q.start]
    if word_pattern("money_monthly_after").match(after) or word_pattern("money_period.month_before_money").search(before):
        return  # '每月预算2万', '$2k a month': the money's month
    u.updates["budget_usd"] = u.updates.pop("budget_usd_per_month")


def _busy_negated(m: Message, u: Understanding) -> None:
    if u.updates.get("utilisation") != 1.0 or not word_pattern("money_period.busy_negated").search(m.masked):
        return
    negated = word_pattern("money_period.busy_negated")
    for pattern, (value, _label) in pattern_rows("utilisation"):
        for hit in pattern.finditer(m.masked):
            if value < 1.0 and not negated.search(m.masked[max(0, hit.start() - 24):hit.end()]):
                u.updates["utilisation"] = value
                return
    u.updates.pop("utilisation", None)


def _week_hours(m: Message, u: Understanding) -> None:
    zh = word_pattern("money_period.week_hours_zh").search(m.raw.lower())
    if not (zh or word_pattern("money_period.week_hours").search(m.masked)):
        return
    if u.updates.get("runs_per_month") == 4.3 and not word_pattern("money_period.week_runs").search(m.masked):
        u.updates.pop("runs_per_month", None)  # '每周几小时': how busy, no run each week
    if zh and "utilisation" not in u.updates:
        hours = float(zh.group("n")) if zh.group("n") else None
        few = next(value for pattern, (value, _label) in pattern_rows("utilisation") if pattern.search("few hours a week"))
        u.updates["utilisation"] = round(min(hours / WEEK_HOURS, 1.0), 4) if hours else few


def once_said(ask: dict[str, Any], before: dict[str, Any], updates: dict[str, Any]) -> None:
    """'另外50万是一次性的总预算，不是每个月', "it's a one-time budget, not monthly": the monthly budget kept becomes the
    one-off budget (the amount said now, else the same amount), and no monthly budget stays."""
    if not ask.get("budget_once"):
        return
    if "budget_usd" not in updates and before.get("budget_usd_per_month"):
        updates["budget_usd"] = before["budget_usd_per_month"]
    if before.get("budget_usd_per_month"):
        updates["budget_usd_per_month"] = None


def _day_hours(m: Message, u: Understanding) -> None:
    """Hours a day the cards work ('每天训练大概十个小时'): their share of the day (utilisation), no daily run of the
    default size; a run said with its data ('每晚跑一次 2000万token') keeps its runs."""
    if u.updates.get("runs_per_month") != DAILY_RUNS or "utilisation" not in u.updates:
        return
    if not any(q.role == "hours_per" and q.extra == "day" and not q.negated for q in m.qty):
        return
    if any(slot in u.updates for slot in ("train_tokens", "train_examples", "batch_items")):
        return
    u.updates.pop("runs_per_month")
