"""The API a user pays now, and what they pay for it, beside a usage ('we run a chatbot on gpt-4o-mini api, spending
like 18k/month … traffic ~ 2 billion tokens a month', '我们现在用deepseek的api 每天大概五千万token'):
- `u.ask["api_named"]`: the API named, a price record's id (knowledge/data/api_prices.yaml names: 'gpt-4o-mini', a
  vendor's bare name for its main API), so self-hosting is weighed against that API's dated list price even when the
  model to self-host is another one;
- `u.ask["api_spend"]`: the money said as spent on it now, USD a month ('spending', 'we pay', 'our bill', '每月花',
  'API费用'): the current API cost, never a budget; with the usage it gives the price per million tokens paid
  (assistant/api_paid.py). Grammar only: the words are in words/api_paid.yaml."""

from __future__ import annotations

import re
from functools import cache

from gpu_advisor.assistant.reading.families import families_named
from gpu_advisor.assistant.reading.message import Message, Quantity, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.assistant.reading.usage_volume import PERIODS, volume_said
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.api_prices import api_price_by_id, api_prices
from gpu_advisor.tools.cost import HOURS_PER_MONTH

SPEND_FROM = 20.0  # USD a month below which an amount is no API bill worth weighing
MONTHS_PER = {"month": 1.0, "day": HOURS_PER_MONTH / 24, "week": HOURS_PER_MONTH / 168}


@cache
def _names() -> list[tuple[re.Pattern[str], str]]:
    """Each API's names as whole words, longest first ('deepseek-chat' before 'deepseek')."""
    rows = [(name, p.id) for p in api_prices() for name in p.names]
    rows.sort(key=lambda row: -len(row[0]))
    return [(re.compile(r"(?<![\w.-])" + re.escape(name).replace(r"\ ", r"[\s_-]*") + r"(?![\w-])"), pid)
            for name, pid in rows]


def api_named(m: Message) -> str | None:
    """The price record of the API named first (model names hidden: 'deepseek r1' names no API), else None."""
    hits = [(hit.start(), -len(hit.group()), pid) for pattern, pid in _names() for hit in [pattern.search(m.masked)] if hit]
    return min(hits)[2] if hits else None


def _usd(m: Message, q: Quantity) -> float:
    from gpu_advisor.knowledge import rules

    cny = q.extra == "CNY" or (q.extra != "USD" and m.lang == "zh")
    return q.value * (rules().usd_per_cny if cny else 1.0)


def _spend(m: Message) -> tuple[float, Quantity] | None:
    """USD a month said as spent now, with the amount's quantity."""
    for q in m.qty:
        if q.negated or q.role not in ("money", "") or (q.role == "" and q.value < 50):
            continue
        lead = m.masked[max(0, q.start - 30):q.start]
        said = word_pattern("api_paid.spend_before").search(lead)
        if said is None or word_pattern("api_paid.spend_not").search(lead[said.start():]):
            continue
        after = word_pattern("api_paid.currency_after").sub("", m.masked[q.end:q.end + 40])
        period = word_pattern("usage.period_after").match(after) or word_pattern("usage.before").search(
            m.masked[max(0, q.start - 40):q.start])
        if period is None:
            continue
        per = next(g for g in period.groups() if g)
        months = MONTHS_PER.get(PERIODS.get(per, per), 1.0)
        usd = _usd(m, q) * months
        if usd >= SPEND_FROM:
            return usd, q
    return None


def read_api_paid(m: Message, u: Understanding) -> None:
    if u.ask.get("api_price"):  # '$0.88 per million': the price itself was given (the API named is still weighed)
        _named(m, u)
        return
    usage = volume_said(m)
    spend = _spend(m) if usage else None
    if spend is not None:
        usd = round(spend[0], 2)
        u.ask["api_spend"] = {"usd_per_month": usd}
        for key in ("budget_usd_per_month", "budget_usd"):  # what they pay the API now is no budget
            if isinstance(u.updates.get(key), (int, float)) and abs(u.updates[key] - usd) <= 0.01 * usd:
                u.updates.pop(key)
                u.updates.pop("budget_leeway", None)
        u.notes = [n for n in u.notes if not n[0].startswith("note.budget")]
        if not isinstance(u.ask.get("break_even"), dict) and word_pattern("usage.cheaper_asked").search(m.raw.lower()):
            from gpu_advisor.assistant.reading.usage import SECONDS

            assert usage is not None
            month = usage.tokens * SECONDS["month"] / SECONDS[usage.period] / 1e6
            u.ask["break_even"] = {"usage_million_per_month": round(month, 4)}
            u.ask.pop("per_token", None)
    _named(m, u)


def _named(m: Message, u: Understanding) -> None:
    """The API named, when self-hosting is weighed against it; with no model named, the open model it serves
    (u.ask["api_model"], taken by assistant/api_model.py unless a model was planned), unless another family is
    named ('deepseek api … 自己部署qwen': which Qwen is asked)."""
    named = api_named(m) if u.ask.get("break_even") else None
    if not named:
        return
    u.ask["api_named"] = named
    price = api_price_by_id(named)
    if price is None or not price.models or "model" in u.updates or u.unknown_model:
        return
    served = find_model(price.models[0])
    if set(families_named(m)) <= {served.family}:
        u.ask["api_model"] = served.id
