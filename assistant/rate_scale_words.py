"""Lines a rate plan adds when the count is set by the per-user speed said, not by the load: what that speed
costs, sized at a slower one (tools.rate_levers.speed_costs)."""

from __future__ import annotations

import math

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Recommendation
from gpu_advisor.tools.scale import SERVER_GPUS


def speed_cost_lines(rec: Recommendation, lang: str) -> list[str]:
    """The speed said sets the count with copies well below the utilisation cap: the slower speed's card count."""
    t, best = rec.traffic, rec.best
    if t is None or best is None or not t.slower_gpus or not t.slower_speed or t.utilisation is None:
        return []
    per_server = rec.workload.server_gpus or SERVER_GPUS
    return [say(lang, "scale2.speed_sets_count", speed=f"{1 / t.tpot_p50_s:,.0f}" if t.tpot_p50_s else "-",
                target=f"{rec.workload.min_tokens_per_s or 0:,.0f}", util=f"{t.utilisation:.0%}",
                slower=f"{t.slower_speed:,.0f}", rate=f"{t.requests_per_s:,.3g}", gpus=f"{t.slower_gpus:,}",
                gpu=best.gpu_name, servers=f"{math.ceil(t.slower_gpus / per_server):,}",
                now=f"{best.gpus:,}", now_servers=f"{math.ceil(best.gpus / per_server):,}"), ""]


# Your own cards serving a rate at this share of the utilisation cap or more: the headroom left is said, with the
# traffic at which to add a copy (review AT C11: 76% busy against the 80% rule, growth said, no word of when to add)
NEAR_CAP = 0.5


def headroom_lines(rec: Recommendation, lang: str, cap: float) -> list[str]:
    """Your cards keep up with the rate near the utilisation cap: the requests a second they take with each copy at
    the cap (tools.recommend's owned_rps), how much more traffic that is, and what to add past it."""
    t, best = rec.traffic, rec.best
    if t is None or best is None or not best.owned or not t.owned_rps or not t.utilisation \
            or t.utilisation < NEAR_CAP * cap or t.owned_rps <= t.requests_per_s:
        return []
    unit = max(1, best.gpus // max(1, best.replicas or 1))
    return [say(lang, "scale2.headroom", rate=f"{t.requests_per_s:,.3g}", util=f"{t.utilisation:.0%}",
                most=f"{t.owned_rps:,.3g}", cap=f"{cap:.0%}", more=f"{t.owned_rps / t.requests_per_s - 1:.0%}",
                unit=f"{unit:,}", gpu=best.gpu_name), ""]
