"""The monthly bill of a service from the shape of its traffic: a daily cycle (busy hours on some days, quieter
the rest), bursts above the busy hour, and the ways to pay for the cards: on demand, reserved, spot, or scaled to
zero. The cheapest way that meets the target is the answer.

The shape: `peak_replicas` copies of the model (`gpus_per_replica` cards each, sized elsewhere for the busy hour's
load) serve the busy hours, `peak_hours` a day on `peak_days` days a week (4.345 weeks a month, 730 hours); bursts
`burst` times the busy hour need that many more copies warm through the busy hours (a burst is shorter than a cold
start, so it cannot wait for a copy to boot); off the busy hours the load is `offpeak_share` of it, served by
ceil(copies x share) copies, at least one while any traffic is left (0: nobody).

The ways to pay (each on the same copies):
- on demand, always on: the busy hours' copies every hour of the month;
- on demand, scaled on the daily schedule: the busy hours' copies in the busy hours, the quiet hours' copies
  (at least one, warm) the rest; the cycle is known, so copies start before the busy hour;
- reserved for the month (rental_terms reserved-1y's discount), every copy every hour;
- reserved for the quiet hours' copies, on demand for the rest in the busy hours;
- spot for the copies above the quiet hours' (rental_terms spot's discount): cheapest, but spot is reclaimed at
  short notice, so the busy hours' capacity is not held: it never meets a target alone;
- scaled to zero (serverless, billed per second of a running copy; its own price where one is on record, else the
  on-demand rate): no copy when nobody is left, so the first request after an idle spell waits a cold start
  (rental_terms cold-start); it meets a time-to-first-token target only above that.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, prices, rules
from gpu_advisor.knowledge.rental_terms import rental_terms
from gpu_advisor.tools.common import Explained, ToolError, ToolInput, term
from gpu_advisor.tools.cost import HOURS_PER_MONTH, Region, price_quote

WEEKS_PER_MONTH = 52 / 12
Way = Literal["on_demand_always", "on_demand_scheduled", "reserved_all", "reserved_base", "spot_peak", "scale_to_zero"]
WAYS: tuple[Way, ...] = ("on_demand_always", "on_demand_scheduled", "reserved_all", "reserved_base", "spot_peak",
                         "scale_to_zero")


class ShapeInput(ToolInput):
    gpu: str
    gpus_per_replica: int = Field(1, gt=0, le=64)
    peak_replicas: int = Field(gt=0, le=4096, description="copies the busy hour needs (sized elsewhere)")
    peak_hours: float = Field(24, gt=0, le=24, description="busy hours a day")
    peak_days: float = Field(7, gt=0, le=7, description="days a week with busy hours (5: weekdays)")
    offpeak_share: float = Field(1.0, ge=0, le=1, description="load off the busy hours, as a share of the busy hour's")
    burst: float = Field(1.0, ge=1, le=100, description="bursts above the busy hour, as a multiple of its load")
    ttft_target_s: float | None = Field(None, gt=0, description="the time-to-first-token target, if any")
    usd_per_gpu_hour: float | None = Field(None, gt=0, description="the on-demand rate (None: the price on record)")
    region: Region = "global"


class Way_(BaseModel):
    way: Way
    usd_per_month: float
    gpu_hours: float = Field(description="card-hours paid for in a month")
    meets: bool
    reason: str | None = Field(None, description="why it does not meet the target")


class ShapeResult(Explained):
    gpu: str
    peak_hours_per_month: float
    offpeak_hours_per_month: float
    burst_replicas: int = Field(description="copies warm in the busy hours (bursts included)")
    offpeak_replicas: int
    usd_per_gpu_hour: float
    serverless_usd_per_gpu_hour: float
    serverless_priced: bool = Field(description="whether a serverless price is on record for the card")
    reserved_discount: float
    spot_discount: float
    cold_start_s: float
    ways: list[Way_]
    cheapest: Way | None = Field(description="the cheapest way that meets the target; None when none does")
    formula: str = ("a month: busy hours = hours a day x days a week x 52/12; each way pays copies x cards x hours "
                    "x its rate")


def _serverless_rate(gpu_id: str, region: Region) -> float | None:
    rate = {"USD": 1.0, "CNY": rules().usd_per_cny}
    quotes = [(p.price_low + p.price_high) / 2 * rate[p.currency] for p in prices()
              if p.gpu == gpu_id and p.kind == "serverless" and (region == "global" or p.region in (region, "global"))]
    return sorted(quotes)[len(quotes) // 2] if quotes else None


def monthly_by_shape(inp: ShapeInput) -> ShapeResult:
    """Each way's monthly bill for the shape (module docstring), and the cheapest that meets the target."""
    gpu = find_gpu(inp.gpu)
    od = inp.usd_per_gpu_hour or price_quote(gpu.id, inp.region).usd_per_gpu_hour_typical
    known = rental_terms()
    reserved, spot = known["reserved-1y"].discount or 0.0, known["spot"].discount or 0.0
    cold = known["cold-start"].seconds or 0.0
    serverless = _serverless_rate(gpu.id, inp.region)
    peak_h = min(HOURS_PER_MONTH, inp.peak_hours * inp.peak_days * WEEKS_PER_MONTH)
    off_h = HOURS_PER_MONTH - peak_h
    busy = math.ceil(inp.peak_replicas * inp.burst - 1e-9)
    quiet = math.ceil(inp.peak_replicas * inp.offpeak_share - 1e-9)
    warm = max(1, quiet)  # an always-reachable service keeps one copy warm
    g = inp.gpus_per_replica

    def way(name: Way, hours: float, usd: float, meets: bool = True, reason: str | None = None) -> Way_:
        return Way_(way=name, usd_per_month=usd, gpu_hours=hours, meets=meets, reason=reason)

    always = busy * g * HOURS_PER_MONTH
    scheduled = busy * g * peak_h + warm * g * off_h
    base, extra = warm * g * HOURS_PER_MONTH, (busy - warm) * g * peak_h
    zero_hours = busy * g * peak_h + quiet * g * off_h
    zero_rate = serverless or od
    late = inp.ttft_target_s is not None and inp.ttft_target_s < cold and quiet == 0  # idle spells: no copy warm
    ways = [
        way("on_demand_always", always, always * od),
        way("on_demand_scheduled", scheduled, scheduled * od),
        way("reserved_all", always, always * od * (1 - reserved)),
        way("reserved_base", base + extra, base * od * (1 - reserved) + extra * od),
        way("spot_peak", base + extra, base * od + extra * od * (1 - spot), busy <= warm,
            None if busy <= warm else "spot"),
        way("scale_to_zero", zero_hours, zero_hours * zero_rate, not late, "cold_start" if late else None),
    ]
    priced = ("serverless price on record" if serverless
              else "no serverless price on record for this card: the on-demand rate")
    terms = [term(f"usd_{w.way}", w.way.replace("_", " "), w.usd_per_month, "USD/month",
                  "card-hours a month x the way's rate", {"gpu_hours": w.gpu_hours}) for w in ways]
    assumptions = [
        f"busy {peak_h:,.0f} h a month ({inp.peak_hours:g} h a day, {inp.peak_days:g} days a week), quiet "
        f"{off_h:,.0f} h at {inp.offpeak_share:.0%} of the busy hour's load; {busy} copies warm in the busy hours"
        f"{f' (bursts {inp.burst:g}x)' if inp.burst > 1 else ''}, {quiet} in the quiet hours",
        f"on demand {od:.2f} USD/GPU-hour; reserved {reserved:.0%} off ({terms_note('reserved-1y')}); spot "
        f"{spot:.0%} off, reclaimed at short notice ({terms_note('spot')})",
        f"scaled to zero: {zero_rate:.2f} USD/GPU-hour ({priced}), a cold start of {cold:.0f} s "
        f"({terms_note('cold-start')})"]
    meeting = [w for w in ways if w.meets]
    cheapest = min(meeting, key=lambda w: (w.usd_per_month, WAYS.index(w.way))).way if meeting else None
    return ShapeResult(gpu=gpu.id, peak_hours_per_month=peak_h, offpeak_hours_per_month=off_h, burst_replicas=busy,
                       offpeak_replicas=quiet, usd_per_gpu_hour=od, serverless_usd_per_gpu_hour=zero_rate,
                       serverless_priced=serverless is not None, reserved_discount=reserved, spot_discount=spot,
                       cold_start_s=cold, ways=ways, cheapest=cheapest, terms=terms, assumptions=assumptions)


def terms_note(key: str) -> str:
    t = rental_terms()[key]
    return f"{t.source}, {t.as_of}"


def check_shape(peak_hours: float | None, peak_days: float | None) -> None:
    """One clear line for a shape that cannot be: busy hours outside a day, days outside a week."""
    if peak_hours is not None and not 0 < peak_hours <= 24:
        raise ToolError(f"busy hours a day must be between 0 and 24, not {peak_hours:g}")
    if peak_days is not None and not 0 < peak_days <= 7:
        raise ToolError(f"busy days a week must be between 0 and 7, not {peak_days:g}")
