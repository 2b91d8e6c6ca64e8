"""What renting a number of cards costs for a period ('what would renting 2 a100s cost per month', '租两张a100一个月
多少钱'): the typical offer on record times the cards times the hours, with the range across offers, around the
clock and for working hours (tools.cost.cost). Asked alone, or as the second part of a question beside a sizing."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_advisor.assistant.inform import Context

# Working hours in a month: 8 hours on each of about 22 weekdays.
WORKING_HOURS_PER_MONTH = 8 * 22


def counted_card(ctx: Context) -> tuple[str, int] | None:
    """The one card said with a count in a question about its cost ('2 a100s … cost per month'); None otherwise."""
    counts = {gpu: n for gpu, n in (ctx.turn.counts or {}).items() if n and n > 0}
    if "total_cost" not in ctx.turn.intents or len(counts) != 1:
        return None
    return next(iter(counts.items()))


def rent_cost_lines(ctx: Context, gpu_id: str, count: int) -> list[str]:
    """The monthly bill of renting `count` cards: around the clock and for working hours, from the offers on record;
    [] where no offer is on record."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.cost import HOURS_PER_MONTH, CostInput, cost

    inp = CostInput(gpu=gpu_id, gpus=count, hours=HOURS_PER_MONTH, region=ctx.region)
    try:
        res = cost(inp)
    except ToolError:
        return []
    if ctx.recorder is not None:
        ctx.recorder("cost", inp.model_dump(mode="json"), res.model_dump(mode="json"), 0.0)
    low, high = res.usd_per_hour_range
    ctx.data["rent_cost"] = {"gpu": gpu_id, "gpus": count, "usd_per_hour": res.usd_per_hour,
                             "usd_per_month": res.run_usd, "hours_per_month": HOURS_PER_MONTH}
    say = {"n": count, "gpu": find_gpu(gpu_id).name, "hour": ctx.usd(res.usd_per_hour),
           "hours": f"{HOURS_PER_MONTH:,.0f}", "month": ctx.usd(res.usd_per_hour * HOURS_PER_MONTH),
           "low": ctx.usd(low * HOURS_PER_MONTH), "high": ctx.usd(high * HOURS_PER_MONTH),
           "work_hours": WORKING_HOURS_PER_MONTH, "work": ctx.usd(res.usd_per_hour * WORKING_HOURS_PER_MONTH)}
    one = low == high  # one offer on record: no range to show
    return [ctx.say("rent_cost.month_one" if one else "rent_cost.month", **say), ctx.say("rent_cost.working", **say)]
