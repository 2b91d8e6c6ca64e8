"""The plan goes the way a service's buy-or-rent verdict goes (one decision per answer, review AX #20).

'buy a box of 4090s or just rent H20 by the hour?' with a load: assistant.serve_buy_rent weighs each card sized for the
load, rented or bought, and says 'rent the 2 × H20'; the plan below was still 'Buy 8 × 4090', its month figure the
4090's rent rate. Here the plan is put on the option the verdict names, rented or bought, so the heading, the
rent-or-buy block and the verdict state one decision; and a purchase in China never plans on a card sold there only
through grey channels when the other card named is sold officially: the purchase weighed is then that card's
(knowledge.china_channel)."""
from __future__ import annotations

from typing import Any


def grey_buy(profile: Any, spec: dict[str, Any], rented: str | None) -> bool:
    """A purchase in China of a card only grey channels sell, while the other card named is sold officially."""
    if getattr(profile, "region", None) != "china" or getattr(profile, "personal", None) or not rented \
            or rented == spec.get("buy"):  # (one person's own machine: their call, warned, not swapped)
        return False
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.china_channel import officially_sold

    try:
        return not officially_sold(find_gpu(spec["buy"])) and officially_sold(find_gpu(rented))
    except LookupError:
        return False


def follow(rec: Any, v: dict[str, Any] | None, option: Any) -> Any:
    """The recommendation with its plan on the verdict's option (`option`: that card sized for the load, from
    serve_buy_rent) and the action the verdict names; unchanged when no serving verdict or the plan is on cards owned."""
    if rec is None or not v or not v.get("serving") or rec.best is None or rec.best.owned or option is None:
        return rec
    from gpu_advisor.tools.recommend import rent_or_buy_of

    action = "buy" if v["code"] == "buy" else "rent"
    if rec.best.gpu == option.gpu and rec.best.gpus == option.gpus:
        return rec.model_copy(update={"action": action})
    options = [option, *(o for o in rec.options if not (o.gpu == option.gpu and o.gpus == option.gpus))]
    if not any(o.gpu == rec.best.gpu and o.gpus == rec.best.gpus for o in options):
        options.append(rec.best)
    from gpu_advisor.knowledge import find_gpu

    # 'a better fit: … the cards you chose are consumer cards' was said of the plan left behind
    stale = rec.better_why == "service" and find_gpu(option.gpu).segment != "consumer"
    return rec.model_copy(update={"best": option, "options": options, "action": action,
                                  "rent_or_buy": rent_or_buy_of(rec.workload, option),
                                  **({"better": None, "better_why": None} if stale else {})})


def plan_follows(answer: Any, v: dict[str, Any] | None) -> Any:
    """The answer with its plan on the option the serving buy-or-rent verdict names (follow)."""
    rec = getattr(answer, "recommend", None)
    if rec is None or not v or not v.get("serving"):
        return answer
    from gpu_advisor.assistant.serve_buy_rent import _option

    gpu, n = (v["buy"], v["buy_n"]) if v["code"] == "buy" else (v["rented"], v["rented_n"])
    option = _option(rec, gpu, None)
    if option is None or option.gpus > n:
        return answer
    return answer.model_copy(update={"recommend": follow(rec, v, option)})
