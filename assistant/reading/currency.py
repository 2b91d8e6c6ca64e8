"""Money said in a currency other than dollars or yuan ('sorry budget is 35k EUR', 'budget £20k', '预算三万欧元'): converted
to USD at the dated rate kept in knowledge data (rules.yaml usd_per_currency, beside the yuan's usd_per_cny), and the
rate used said (note.currency_converted). Review CUA #2: 'I can't convert a budget in euros yet' while the budget
said before was kept silently. The currency codes come from the quantities' reader (words/money.yaml)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.knowledge import rules

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message
    from gpu_advisor.assistant.reading.quantities import Quantity


def usd_per(currency: str) -> float | None:
    """USD per unit of a currency code ('USD', 'CNY', 'EUR', 'GBP'); None for one with no rate on record."""
    r = rules()
    return 1.0 if currency in ("", "USD") else r.usd_per_cny if currency == "CNY" else r.usd_per_currency.get(currency)


def in_usd(m: Message, q: Quantity, amount: float | None = None) -> float | None:
    """The amount said (q's value unless given) in USD; a currency converted at a rate kept in knowledge data is
    said with its rate and date. None (with a note) for a currency with no rate on record."""
    value = q.value if amount is None else amount
    rate = usd_per(q.extra)
    if rate is None:
        m.notes.append(("note.currency_unknown", {"currency": q.extra}))
        return None
    if q.extra not in ("", "USD", "CNY"):
        r = rules()
        m.notes.append(("note.currency_converted", {
            "amount": f"{_figure(value)} {q.extra}", "rate": f"{rate:g}", "currency": q.extra,
            "usd": f"${_figure(value * rate)}", "as_of": str(r.usd_per_currency_as_of or "")}))
    return value * rate


def _figure(value: float) -> str:
    """A sum as said back: whole units from 100 up ('35,000'), cents below ('0.29')."""
    return f"{value:,.0f}" if value >= 100 else f"{value:,.2f}".rstrip("0").rstrip(".")
