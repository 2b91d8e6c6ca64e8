"""The price this user pays for a card in a card-to-card answer (h-used): a card said used ('二手3090', '3090 used',
'闲鱼'), or one sold used only (used_only), is priced at its sourced used price (knowledge used_prices) and said as
used; a card said new, or with no
used price on record, keeps the catalog's new price (the reply then says used is cheaper). The plan's own prices
come from tools.recommend (_bought_as), which reads the same used prices."""

from __future__ import annotations

from typing import Any

from gpu_advisor.knowledge import used_prices
from gpu_advisor.knowledge.china_prices import china_price_usd
from gpu_advisor.knowledge.schema import Gpu


def said_used_ids(ctx: Any) -> set[str]:
    """The cards this turn said used; every card when used cards were accepted and none was named used or new."""
    ask = getattr(ctx.turn, "ask", None) or {}
    return set(ask.get("used") or [])


def user_price(ctx: Any, gpu: Gpu) -> dict[str, Any]:
    """The fields of a card's facts that carry its price for this user: buy_price_usd, used_price, used_as_of."""
    street = china_price_usd(gpu.id) if getattr(ctx, "region", None) == "china" else None
    if street is not None:  # the China street price, the same figure the plans use (tools.recommend._bought_as)
        return {"buy_price_usd": street, "used_price": False, "china_street": True}
    if getattr(ctx, "region", None) == "china" and gpu.export_limited and not gpu.china_specific:
        return {"used_price": False, "list_only": True}  # no street price there on record: said so beside the price
    used = used_prices().get(gpu.id)  # a card sold used only is bought used, said or not (tools.recommend._bought_as)
    if used is None or not (gpu.id in said_used_ids(ctx) or used.used_only) or gpu.buy_price_usd is None:
        return {"used_price": False}
    return {"buy_price_usd": used.usd, "used_price": True, "new_price_usd": gpu.buy_price_usd,
            "used_as_of": used.as_of.isoformat()}


def price_said(ctx: Any, facts: dict[str, Any]) -> str:
    """What is said beside a card's price: used, the China street price, or a list price with none for China."""
    for flag, key in (("used_price", "table.used"), ("china_street", "used.china_street"), ("list_only", "used.list_only")):
        if facts.get(flag):
            return str(ctx.say(key))
    return ""


def near_budget_line(rec: Any, option: str, usd: str, budget: str, lang: str) -> str | None:
    """A purchase over a budget said approximately but within its leeway ('一万五左右', ¥16,429): said as over by so
    much, within the leeway, instead of 'within your budget'; None otherwise (h-used)."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.tools.recommend import within_budget

    w, best = rec.workload, rec.best
    if not (w.budget_leeway and w.budget_usd and best.purchase_usd and best.purchase_usd > w.budget_usd
            and within_budget(best.purchase_usd, w.budget_usd, w)):  # the real overrun (review BX #4: 34% is not 10%)
        return None
    return str(say(lang, "used.budget_near", option=option, usd=usd, budget=budget,
                   leeway=f"{w.budget_leeway:g}%"))
