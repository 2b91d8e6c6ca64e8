"""Self-hosting against the API paid now, at the usage said ('about 15M tokens a month … would self hosting on a
rented gpu be cheaper?'): the rent is the same however little the cards are used, the API bills what is used, so the
answer is the API price per million above which self-hosting wins at that usage, and with the price given both bills
and the volume where they meet (tools.api_compare)."""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.api_compare import ApiCompareResult


def _millions(x: float, lang: str) -> str:
    """Millions of tokens as a reader says them: '15 million', '2.5 billion', '1,500 万', '25 亿' (the catalog's unit:
    a million, and from a thousand million on a billion in English; ten thousand, and from 100 million on a hundred
    million in Chinese: never '2,500 million' or '250,000 万')."""
    if lang == "zh" and x >= 100:
        return say(lang, "usage.tokens_in_yi", n=f"{x / 100:,.0f}" if x >= 10_000 else f"{x / 100:,.1f}".removesuffix(".0"))
    if lang != "zh" and x >= 1000:
        return say(lang, "usage.tokens_in_billions",
                   n=f"{x / 1000:,.0f}" if x >= 10_000 else f"{x / 1000:,.1f}".removesuffix(".0"))
    n = x * 100 if lang == "zh" else x
    return say(lang, "usage.tokens_in_millions", n=f"{n:,.0f}" if n >= 10 else f"{n:,.1f}")


def usage_lines(r: ApiCompareResult, usage: float, api: float | None, option: str, money: Callable[[float], str],
                lang: str, bought_months: int | None = None) -> str:
    """The verdict first, then the figures behind it; a plan bought is said as bought, its cost spread over
    `bought_months` (assistant/api_compare._hourly), never as a rent."""
    price = r.price_to_win_usd_per_million or 0.0
    values = {"usage": _millions(usage, lang), "option": option, "month": money(r.month_usd), "price": money(price),
              "months": bought_months or 0}
    values["setup"] = say(lang, "usage.setup_bought" if bought_months else "usage.setup_rented", **values)
    own = "usage.api_bought" if bought_months else "usage.api_rent"
    if api is None or r.api_usd_at_usage is None or r.break_even_million_per_month is None:
        return "\n".join([say(lang, "usage.api_verdict_price", **values),
                          "- " + say(lang, own, **values),
                          "- " + say(lang, "usage.api_ask_price", **values)])
    values |= {"api": money(api), "bill": money(r.api_usd_at_usage), "volume": _millions(r.break_even_million_per_month, lang)}
    key = "usage.api_verdict_self" if r.self_wins_at_usage else "usage.api_verdict_api"
    return "\n".join([say(lang, key, **values), "- " + say(lang, own, **values),
                      "- " + say(lang, "usage.api_volume", **values)])
