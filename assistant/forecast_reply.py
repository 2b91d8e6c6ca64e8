"""A reservation offered beside a price forecast: the reserved price the user gave against on-demand at the
typical rental price on record for the card (tools.cost.price_quote), at the use said (else its default), with
the use above which the reservation pays (tools.cost.reserved_vs_on_demand). The forecast itself stays
unanswerable; this is what can be computed instead."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import pct
from gpu_advisor.knowledge.schema import Gpu


def reserve_against_typical(ctx: Any, gpu: Gpu) -> list[str]:
    from gpu_advisor.assistant.inform import _quote
    from gpu_advisor.assistant.slots import SLOTS
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.cost import ReservedInput, reserved_vs_on_demand

    quote = _quote(ctx, gpu)
    if not quote:
        return [ctx.say("forecast.no_quote", gpu=gpu.name)]
    typical, reserved = quote["usd_per_gpu_hour_typical"], ctx.turn.prices["reserved_usd_per_hour"]
    use = ctx.profile.get("utilisation")
    n = ctx.turn.counts.get(gpu.id) or 1
    try:
        inp = ReservedInput(gpu=gpu.id, gpus=n, on_demand_usd_per_gpu_hour=typical, reserved_usd_per_gpu_hour=reserved,
                            utilisation=use or SLOTS["utilisation"].default,
                            **({"term_months": int(ctx.turn.prices["horizon_months"])}
                               if "horizon_months" in ctx.turn.prices else {}))
        r = reserved_vs_on_demand(inp)
    except (ToolError, ValueError):
        return [ctx.say("forecast.no_quote", gpu=gpu.name)]
    if ctx.recorder is not None:
        ctx.recorder("reserved_vs_on_demand", inp.model_dump(mode="json"), r.model_dump(mode="json"), 0.0)
    ctx.data["on_demand_quote"] = quote
    ctx.data["reserved"] = r.model_dump(mode="json")
    saved = abs(r.on_demand_term_usd - r.reserved_term_usd)
    sep = "" if ctx.lang == "zh" else " "
    counted = ctx.say("forecast.cards_counted", n=r.gpus) + sep if r.gpus > 1 else ""  # '…8 gpus steady': all of them
    ctx.data["saving_usd"] = saved
    verdict = ctx.say("info.reserve.take" if r.cheaper == "reserved" else "info.reserve.stay",
                      pct=pct(r.saving_fraction), usd=ctx.usd(saved), months=r.term_months)
    lines = [ctx.say("forecast.reserve_lead", od=ctx.usd(typical), n=quote["samples"], date=quote["as_of"],
                     res=ctx.usd(reserved)), "",
             counted + ctx.say("info.reserve.body", use=pct(r.utilisation), od=ctx.usd(r.on_demand_usd_per_month),
                               res=ctx.usd(r.reserved_usd_per_month), be=pct(r.break_even_utilisation),
                               od_hour=ctx.usd(typical), res_hour=ctx.usd(reserved)) + sep + verdict]
    if not use:
        lines.append(ctx.say("forecast.use_assumed", words=SLOTS["utilisation"].default_words(ctx.lang, ctx.profile),
                             be=pct(r.break_even_utilisation)))
    return lines
