"""The price of a named server, asked with no job ('现在国内租一台8卡H800大概一个月多少钱？跟直接买一台比，用满两年哪个划算',
'what does renting an 8x H100 box cost per month vs buying one, running flat out for 2 years?'; reading/server_price_ask.py
reads it as the 'server_price' code): a month's rent of the whole server (the providers' typical price per card-hour
in the user's region x the cards x every hour of the month: a rented machine is billed whether busy or not), the
purchase price of the server (knowledge.purchase), and rent against buy over the months said at the use said (full
load when they say so, else the stated default) from tools.cost.rent_vs_buy; no model or job is invented and no
preference is recorded. Words: catalog money.sp.*."""

from __future__ import annotations

from typing import Any

from gpu_advisor.knowledge import find_gpu


def _card(ctx: Any) -> tuple[int, str] | None:
    """The server asked about: a card named this turn with its count, else the counted card kept from before."""
    from gpu_advisor.tools.recommend import parse_owned

    if ctx.turn.cards:
        gpu = find_gpu(ctx.turn.cards[0])
        return ctx.turn.counts.get(gpu.id) or gpu.sold_in or 1, gpu.id
    for x in ctx.profile.get("only") or []:
        try:
            n, gpu = parse_owned(x)
        except LookupError:
            continue
        return n, gpu.id
    return None


def server_price(ctx: Any) -> str:
    """The month's rent, the purchase price and rent against buy for the server asked about."""
    from gpu_advisor.assistant.catalog import localise
    from gpu_advisor.assistant.legal_buy import legal_beside
    from gpu_advisor.assistant.server_price import in_currency
    from gpu_advisor.assistant.server_price import line as server_line
    from gpu_advisor.assistant.slots import SLOTS
    from gpu_advisor.assistant.writers import _break_even, pct
    from gpu_advisor.knowledge.purchase import server_usd_per_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.cost import (
        DEFAULT_HORIZON_MONTHS,
        HOURS_PER_MONTH,
        RentBuyInput,
        rent_vs_buy,
        try_price,
    )

    asked = _card(ctx)
    if asked is None:
        return ctx.say("info.rb.which")
    n, card = asked
    gpu = find_gpu(card)
    setup = f"{n} × {gpu.name}"
    quote = try_price(gpu.id, ctx.region)
    lines = ["## " + ctx.say("money.sp.title", setup=setup), ""]
    if quote is not None:
        month = quote.usd_per_gpu_hour_typical * n * HOURS_PER_MONTH
        one = quote.samples < 2 or quote.usd_per_gpu_hour_low == quote.usd_per_gpu_hour_high  # no range to show
        lines.append(ctx.say("money.sp.rent_one" if one else "money.sp.rent", setup=setup, month=ctx.usd(month), hour=ctx.usd(quote.usd_per_gpu_hour_typical),
                             low=ctx.usd(quote.usd_per_gpu_hour_low * n * HOURS_PER_MONTH),
                             high=ctx.usd(quote.usd_per_gpu_hour_high * n * HOURS_PER_MONTH), n=n,
                             offers=quote.samples, providers=ctx.say("list_sep").join(quote.providers), as_of=quote.as_of))
        ctx.data["rent_usd_per_month"] = month
    else:
        lines.append(ctx.say("money.sp.no_rent", gpu=gpu.name))
    bought = server_line(gpu, n, ctx.lang, ctx.usd)
    at = 2 if ctx.turn.ask.get("buy_first") else len(lines)  # the price asked first: '买一台…多少钱，和租比多久回本'
    lines[at:at] = [bought] if bought else [ctx.say("money.sp.no_buy", gpu=gpu.name)]
    use = ctx.profile.get("utilisation")
    months = int(ctx.profile.get("horizon_months") or DEFAULT_HORIZON_MONTHS)
    purchase = server_usd_per_gpu(gpu, n)
    if quote is not None and purchase is not None:
        inp = RentBuyInput(gpu=gpu.id, gpus=n, utilisation=use or SLOTS["utilisation"].default, region=ctx.region,
                           horizon_months=months, purchase_usd_per_gpu=purchase,
                           electricity_usd_per_kwh=ctx.profile.get("electricity_usd_per_kwh"))
        try:
            rb = rent_vs_buy(inp)
        except (ToolError, ValueError):
            rb = None
        if rb is not None:
            if ctx.recorder is not None:
                ctx.recorder("rent_vs_buy", inp.model_dump(mode="json"), rb.model_dump(mode="json"), 0.0)
            ctx.data["rent_or_buy"] = rb.model_dump(mode="json")
            ctx.data["server_price"] = {"gpu": gpu.id, "gpus": n, "utilisation": rb.utilisation, "months": months,
                                        "cheaper": rb.cheaper, "rent_total_usd": rb.rent_total_usd,
                                        "buy_total_usd": rb.buy_total_usd}
            lines += ["", ctx.say("money.sp.rb_head", months=months, use=pct(rb.utilisation)),
                      "- " + ctx.say("money.sp.rb_rent", total=ctx.usd(rb.rent_total_usd)),
                      "- " + ctx.say("money.sp.rb_buy", total=ctx.usd(rb.buy_total_usd)),
                      "- " + _break_even(rb, ctx.lang),
                      *(["- " + ctx.say("money.sp.payback", months=f"{rb.payback_months:.0f}", use=pct(rb.utilisation))]
                        if rb.payback_months is not None else []),
                      ctx.say(f"money.sp.verdict_{rb.cheaper}", setup=setup, months=months, use=pct(rb.utilisation),
                              gap=ctx.usd(abs(rb.rent_total_usd - rb.buy_total_usd)))]
            assumed = [] if use else [SLOTS["utilisation"].default_words(ctx.lang, ctx.profile)]
            lines += ["", ctx.say("rb.assumed")] + [f"- {a}" for a in assumed] + [
                f"- {in_currency(localise(ctx.lang, a), ctx.lang, ctx.usd)}" for a in rb.assumptions]
    legal = legal_beside([gpu.id], ctx.lang) if ctx.region == "china" else None
    if legal is not None and legal[0]:
        lines += ["", legal[0]]
    return "\n".join(lines)
