"""A card asked about after a plan sized for a request rate ('why not H100 or L40S?'): sized for the same rate and
first-token target as the plan was (tools.recommend.rate_option: the copies the queueing model needs), never at the
users of one copy, so its count and monthly cost compare with the plan's (review AD E1: 1 x L40S at $796 a month said
beside a rate plan whose own sizing needs 5)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.tools.recommend import Option, Workload, rate_option


def rated_row(results: dict[str, Any] | None, w: Workload, gpu_id: str, count: int | None) -> Option | None:
    """The card sized for the rate of the last answer's plan; None when that answer is no rate plan, a count was
    said (that count is sized as said), or no layout of the card sustains the rate."""
    from gpu_advisor.assistant.choice_rows import rated_plan

    if count or not rated_plan(results) or not w.spec.serves or w.owned:
        return None
    return rate_option(w, gpu_id, ttft_ms=w.ttft_ms, fallback=True)


def plan_line(ctx: Any, working: list[Option], w: Workload) -> str | None:
    """After the cards asked about were sized for the rate: why the plan stays (its card costs less a month at the
    rate, though the others cost less per card-hour), or which asked card meets the rate for less than it. None when
    the answer is no rate plan or a month's cost is missing."""
    from gpu_advisor.assistant.choice_rows import rated_plan

    best = ctx.rec.best if ctx.rec is not None else None
    if best is None or not rated_plan(ctx.results) or not best.billed_usd_per_month:
        return None
    priced = [o for o in working if o.billed_usd_per_month and not o.owned
              and (o.gpu, o.gpus) != (best.gpu, best.gpus)]
    if not priced:
        return None
    other = min(priced, key=lambda o: o.billed_usd_per_month or 0.0)
    plan, month = f"{best.gpus} × {best.gpu_name}", best.billed_usd_per_month
    rate = w.requests_per_s or 0.0
    values = {"rate": f"{rate:,.3g}", "option": plan, "month": ctx.usd(month),
              "other": f"{other.gpus} × {other.gpu_name}", "other_month": ctx.usd(other.billed_usd_per_month or 0.0)}
    stays = month <= (other.billed_usd_per_month or 0.0)
    ctx.data["rated_plan"] = {"stays": stays, "plan": best.gpu, "other": other.gpu, "other_gpus": other.gpus}
    if stays:
        per_card = [o.usd_per_hour / o.gpus for o in priced if o.usd_per_hour]
        dearer = best.usd_per_hour is not None and any(c < best.usd_per_hour / best.gpus for c in per_card)
        return ctx.say("rated.stays" if dearer else "rated.stays_plain", **values)
    return ctx.say("rated.cheaper", card=other.gpu_name, **values)
