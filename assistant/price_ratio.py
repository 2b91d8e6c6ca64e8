"""'is the h100 actually worth ~2x the hourly price?': two cards compared on a job that ends, weighed at the price
ratio the user said (reading/price_ratio.py) beside the market's: the dearer card costs `ratio` times the cheaper's
hourly price and takes fewer card-hours per run (tools' job_hours x gpus), so its cost per run is
ratio x its card-hours / the cheaper's card-hours of the cheaper's cost. A code says which (ctx.data["price_ratio"]):

- worth: at that ratio the faster card costs less per run (it saves more time than it costs);
- even: about the same per run (within SAME);
- not_worth: it costs more per run; only time decides for it."""

from __future__ import annotations

from typing import Any

# Cost ratios closer to 1 than this are "about the same" (as assistant.verdict.SAME).
SAME = 1.1


def ratio_lines(ctx: Any, working: list[Any]) -> list[str]:
    ratio = (getattr(ctx.turn, "ask", None) or {}).get("price_ratio")
    timed = [o for o in working if o.job_hours and o.usd_per_hour]
    if not ratio or len(timed) < 2:
        return []
    cheap, dear = sorted(timed, key=lambda o: o.usd_per_hour / o.gpus)[:2]  # by the market's price per card-hour
    hours_cheap, hours_dear = cheap.job_hours * cheap.gpus, dear.job_hours * dear.gpus  # card-hours per run
    cost = ratio * hours_dear / hours_cheap  # the dearer card's cost per run, as a multiple of the cheaper's
    faster = hours_cheap / hours_dear
    market = (dear.usd_per_hour / dear.gpus) / (cheap.usd_per_hour / cheap.gpus)
    code = "even" if 1 / SAME <= cost <= SAME else "worth" if cost < 1 else "not_worth"
    ctx.data["price_ratio"] = {"code": code, "ratio": ratio, "dear": dear.gpu, "cheap": cheap.gpu,
                               "card_hours": {dear.gpu: hours_dear, cheap.gpu: hours_cheap},
                               "cost_times": round(cost, 2), "market_ratio": round(market, 2)}
    return [ctx.say(f"ratio.{code}", dear=dear.gpu_name, cheap=cheap.gpu_name, ratio=f"{ratio:g}",
                    faster=f"{faster:.1f}", cost=f"{cost:.2f}", market=f"{market:.1f}")]
