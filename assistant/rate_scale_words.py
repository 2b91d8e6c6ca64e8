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
