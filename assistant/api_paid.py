"""What the user pays an API now, set against self-hosting (reading/api_paid.py reads it): the monthly bill said over
the usage said is the price per million tokens they pay ('spending like 18k/month … ~2 billion tokens a month':
$9 per million), the price the verdict weighs; the list price on record for the API they named is said beside it,
with a warning when the two disagree widely (gpt-4o-mini's list price at 2 billion tokens is a few hundred dollars,
not $18,000), since one of the figures said is then not what it seems."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge.api_prices import ApiPrice

# The keys of a turn's ask that weigh self-hosting against an API (assistant/api_compare.py).
API_KEYS = ("api_price", "break_even", "api_named", "api_spend")
FAR = 2.0  # the bill said and the list price at the usage this many times apart: said as a disagreement


def paid_per_million(asked: dict[str, Any], usage: float | None) -> float | None:
    """USD per million tokens paid now: the monthly bill said over the millions of tokens used a month."""
    spend = (asked.get("api_spend") or {}).get("usd_per_month")
    return float(spend) / usage if spend and usage else None


def paid_lines(asked: dict[str, Any], usage: float, listed: tuple[float, ApiPrice] | None, at_list: Any, traffic: Any,
               money: Callable[[float], str], millions: str, lang: str) -> list[str]:
    """The price paid now and, for the API named, its list price on record (at_list: tools.api_compare at that
    price) and, when the two disagree widely, what the answer is at the list price."""
    spend = float(asked["api_spend"]["usd_per_month"])
    lines = [say(lang, "usage.api_paid_now", spend=money(spend), usage=millions, price=money(spend / usage))]
    if listed is None or at_list is None or not at_list.api_usd_at_usage:
        return lines
    price = listed[1]
    read, written = (traffic.prompt_tokens, traffic.output_tokens) if traffic is not None else (4, 1)
    lines.append(say(lang, "usage.api_listed_also", provider=price.provider, name=price.id, date=price.as_of.isoformat(),
                     api_in=money(price.usd_per_million_input), api_out=money(price.usd_per_million_output),
                     share=f"{read / (read + written):.0%}", api=money(listed[0])))
    bill = at_list.api_usd_at_usage
    ratio = spend / bill
    if ratio >= FAR or ratio <= 1 / FAR:
        verdict = say(lang, "usage.api_at_list_self" if at_list.self_wins_at_usage else "usage.api_at_list_api",
                      month=money(at_list.month_usd))
        lines.append(say(lang, "usage.api_paid_far_above" if ratio >= FAR else "usage.api_paid_far_below",
                         name=price.id, bill=money(bill), spend=money(spend), usage=millions,
                         times=f"{max(ratio, 1 / ratio):,.0f}", verdict=verdict))
    return lines
