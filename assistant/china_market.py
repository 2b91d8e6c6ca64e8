"""The China market as an expert there would say it.

A stock question about buying cards ('H20和4090在国内现在哪个更好买？价格大概多少', 'H20好买吗', 'is the H20 easy to
get in China', '哪里能买到L20'; reading/legal_buy.py sets u.ask["procure"]): which of them can be bought through
official channels in China and which only through grey channels (knowledge/china_channel.py, from the export rules
on record with their dates), one price per card (its record), and what the data cannot know (stock today).

A purchase in China headlined on a card that official channels do not sell (none that they do sells does the job,
or the user named it): the caveat under the headline, not only among the warnings at the end."""

from __future__ import annotations

import re
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.china_channel import china_channel
from gpu_advisor.knowledge.export_rules import export_rules
from gpu_advisor.knowledge.schema import Gpu


def china_asked(ctx: Any, gpus: list[Gpu]) -> bool:
    """The question is about the market in China: the region said or assumed, Chinese, or a card made for it."""
    return ctx.region == "china" or ctx.lang == "zh" or any(g.china_specific or g.domestic_china for g in gpus)


def procurement(ctx: Any, gpus: list[Gpu]) -> str | None:
    """The per-channel answer (see the module's note); None when the question is not about China."""
    if not gpus or not china_asked(ctx, gpus):
        return None
    from gpu_advisor.assistant.inform import _card_facts

    channels = {g.id: china_channel(g) for g in gpus}
    ctx.data["china_channel"] = channels
    names = ctx.say("list_sep")
    sold = [g.name for g in gpus if channels[g.id] != "grey"]
    grey = [g.name for g in gpus if channels[g.id] == "grey"]
    lead = ("zhmarket.lead_both" if sold and grey else "zhmarket.lead_sold" if sold else "zhmarket.lead_grey")
    lines = [ctx.say(lead, sold=names.join(sold), grey=names.join(grey)), "", ctx.say("zhmarket.head")]
    for gpu in gpus:
        f = _card_facts(ctx, gpu)
        buy = ctx.say("info.stock.no_buy") if not f["buy_price_usd"] else (
            ctx.say("info.stock.buy_board", usd=ctx.usd(f["buy_price_usd"]), n=f["sold_in"]) if f["sold_in"] > 1
            else ctx.say("info.stock.buy", usd=ctx.usd(f["buy_price_usd"])))
        lines.append(ctx.say(f"zhmarket.card.{channels[gpu.id]}", gpu=gpu.name, why=_why(ctx, gpu), buy=buy))
    lines += ["", ctx.say("zhmarket.stock")]
    return "\n".join(lines)


def _why(ctx: Any, gpu: Gpu) -> str:
    """Why the card is had that way: the latest rule that names it (with its date), or its own record."""
    rules = [r for r in export_rules() if gpu.id in r.barred or gpu.id in r.made_for_china]
    if gpu.china_channel == "grey":
        return ctx.say("zhmarket.why.rebuilt")
    if gpu.domestic_china:
        return ctx.say("zhmarket.why.domestic")
    if not rules:
        return ctx.say("zhmarket.why.limited" if gpu.export_limited else "zhmarket.why.none")
    rule = rules[-1]
    ctx.data.setdefault("export_dates", {})[rule.id] = rule.date.isoformat()
    if gpu.id in rule.barred:
        return ctx.say("zhmarket.why.licence" if rule.criterion == "licence" else "zhmarket.why.barred",
                       date=rule.date.isoformat())
    return ctx.say("zhmarket.why.made_for", date=rule.date.isoformat())


def grey_headline(rec: Any, lang: str) -> list[str]:
    """Under the headline of a purchase in China on a card official channels there do not sell: that caveat."""
    best = getattr(rec, "best", None)
    if best is None or best.owned or rec.action != "buy" or rec.workload.region != "china":
        return []
    gpu = find_gpu(best.gpu)
    if china_channel(gpu) != "grey":
        return []
    from gpu_advisor.tools.recommend import parse_owned

    named = {parse_owned(c)[1].id if re.match(r"\s*\d", c) else c for c in rec.workload.candidates or []}
    return [say(lang, "zhmarket.headline_grey_named" if gpu.id in named else "zhmarket.headline_grey", gpu=gpu.name), ""]
