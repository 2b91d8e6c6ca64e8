"""A serving plan's monthly bill by the shape of its traffic (tools.traffic_month), when the user said one ('busy 9
to 6 on weekdays, almost nobody at night', '白天高峰晚上几乎没人'): each way to pay for the busy hour's plan by the
month, and the cheapest that meets the target. Rented plans only: cards you own are paid for already."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.recommend import Recommendation
from gpu_advisor.tools.traffic_month import ShapeInput, monthly_by_shape


def shape_lines(rec: Recommendation, lang: str) -> list[str]:
    from gpu_advisor.assistant.writers import cash

    w, best = rec.workload, rec.best
    if best is None or best.owned or (w.peak_hours is None and w.offpeak_share is None) or not w.spec.serves:
        return []
    replicas = max(1, best.replicas)
    try:
        r = monthly_by_shape(ShapeInput(
            gpu=best.gpu, gpus_per_replica=max(1, best.gpus // replicas), peak_replicas=replicas,
            peak_hours=w.peak_hours or 24.0, peak_days=w.peak_days or 7.0,
            offpeak_share=1.0 if w.offpeak_share is None else w.offpeak_share,
            ttft_target_s=w.ttft_ms / 1000 if w.ttft_ms else None, region=w.region))
    except (ToolError, LookupError):
        return []
    ways = say(lang, "shape.sep").join(say(lang, f"shape.way.{x.way}", usd=cash(x.usd_per_month, rec),
                         reserved=f"{r.reserved_discount:.0%}", spot=f"{r.spot_discount:.0%}",
                         cold=f"{r.cold_start_s:.0f}") + ("" if x.meets else say(lang, f"shape.not.{x.reason}"))
                     for x in sorted(r.ways, key=lambda x: x.usd_per_month))
    head = say(lang, "shape.head", busy=r.burst_replicas, quiet=r.offpeak_replicas, unit=best.gpus // replicas,
               peak_h=f"{r.peak_hours_per_month:,.0f}", off_h=f"{r.offpeak_hours_per_month:,.0f}")
    cheapest = next((x for x in r.ways if x.way == r.cheapest), None)
    tail = (say(lang, "shape.cheapest", way=say(lang, f"shape.name.{cheapest.way}"), usd=cash(cheapest.usd_per_month, rec))
            if cheapest is not None else say(lang, "shape.none"))
    return [head + ways + say(lang, "fig.end") + " " + tail, ""]
