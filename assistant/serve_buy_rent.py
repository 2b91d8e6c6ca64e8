"""Buy one card or rent another for a service with a load (u.ask["buy_or_rent"] on a serving plan: '租H800和买H20，
哪个划算？… 日均调用10万次 … 要用三年'): each option is the plan sized for that load on that card (tools.recommend's
options: as many cards as the load needs), rented or bought for the hours the service runs (24/7 unless said), over
the horizon said (else tools.cost.DEFAULT_HORIZON_MONTHS), priced by tools.cost.rent_vs_buy. Never the training-time
tool: a service's hours are its running hours, not one job's. Words: catalog load.rb_*."""

from __future__ import annotations

from typing import Any, Literal

from gpu_advisor.assistant.buy_server import whole_server
from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.cost import DEFAULT_HORIZON_MONTHS, HOURS_PER_MONTH, RentBuyInput, rent_vs_buy

SERVING = ("serve", "production")


def _option(rec: Any, gpu: str, recorder: Any) -> Any:
    """The plan's option on `gpu`, else the load sized on that card alone (tools.recommend, candidates=[gpu])."""
    found = next((o for o in rec.options if o.gpu == gpu and o.serves and not o.owned), None)
    if found is not None:
        return found
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import recommend

    work = rec.workload.model_copy(update={"candidates": [gpu], "owned": [], "preference": "either"})
    try:
        alone = recommend(work, with_levers=False)
    except (ToolError, LookupError, ValueError):
        return None
    if recorder is not None:
        recorder("recommend", work.model_dump(mode="json"), alone.model_dump(mode="json"), 0.0)
    best = alone.best
    return best if best is not None and best.gpu == gpu and best.serves else None


def weigh_serving(profile: Any, spec: dict[str, Any], rec: Any, recorder: Any) -> dict[str, Any] | None:
    """The serving plan on the rented card against the plan on the bought card, over the horizon; None when this is
    not a service with a load (the one-job comparison then applies) or either plan is missing."""
    work = getattr(rec, "workload", None)
    if work is None or profile.phase not in SERVING or not (work.requests_per_s or work.users > 1):
        return None
    rented = spec.get("rented") or (rec.best.gpu if rec.best is not None else None)
    if not rented or rented == spec["buy"]:
        return None
    from gpu_advisor.assistant.rb_plan import grey_buy

    if grey_buy(profile, spec, rented):  # a purchase in China: the card sold officially, never the grey one
        spec = {**spec, "buy": rented, "grey": spec["buy"],
                "server": bool(spec.get("server")) or find_gpu(rented).sold_in > 1}  # sold as whole servers
    opt_r, opt_b = _option(rec, rented, recorder), _option(rec, spec["buy"], recorder)
    if opt_r is None or opt_b is None:
        return None
    region: Literal["global", "china"] = "china" if profile.region == "china" else "global"
    months = profile.horizon_months or DEFAULT_HORIZON_MONTHS
    use = work.utilisation
    n_buy = whole_server(spec, opt_b.gpus)  # 'buy an H20 server': the 8-card machine, not the 2 cards the job takes
    args = RentBuyInput(gpu=rented, gpus=opt_r.gpus, utilisation=use, region=region, buy_gpu=spec["buy"],
                        buy_gpus=n_buy, horizon_months=months,
                        electricity_usd_per_kwh=profile.electricity_usd_per_kwh)  # the user's power price
    try:
        rb = rent_vs_buy(args)
    except (LookupError, ValueError):
        return None
    if recorder is not None:
        recorder("rent_vs_buy", args.model_dump(mode="json"), rb.model_dump(mode="json"), 0.0)
    return {"serving": True, "rented": rented, "rented_name": find_gpu(rented).name, "rented_n": opt_r.gpus,
            "buy": spec["buy"], "buy_name": find_gpu(spec["buy"]).name, "buy_n": n_buy, "months": months,
            "hours": round(use * HOURS_PER_MONTH), "use": use, "rent_total_usd": rb.rent_total_usd,
            "buy_total_usd": rb.buy_total_usd, "payback_months": rb.payback_months,
            "code": "buy" if rb.buy_total_usd < rb.rent_total_usd else "rent",
            **({"grey": spec["grey"], "grey_name": find_gpu(spec["grey"]).name} if spec.get("grey") else {})}


def serving_block(v: dict[str, Any], lang: str, money: Any) -> str:
    """The two plans at the load, their totals over the horizon, and the verdict."""
    values = {"rented": v["rented_name"], "rn": str(v["rented_n"]), "buy": v["buy_name"], "bn": str(v["buy_n"]),
              "months": str(v["months"]), "hours": f"{v['hours']:,}", "use": f"{v['use']:.0%}",
              "rent": money(v["rent_total_usd"]), "bought": money(v["buy_total_usd"]),
              "payback": f"{v['payback_months']:.0f}" if v["payback_months"] else ""}
    lines = [say(lang, "load.rb_head", **{**values, "buy": v.get("grey_name") or v["buy_name"]})]
    if v.get("grey"):  # the grey card asked about, said as such before the purchase weighed instead
        lines.append(say(lang, "verdict2.grey_buy", grey=v["grey_name"], card=v["buy_name"]))
    lines += [say(lang, "load.rb_rent", **values),
             say(lang, "load.rb_buy", **values)]
    paid = "payback" if v["code"] == "buy" and v["payback_months"] else v["code"]
    lines.append(say(lang, f"load.rb_verdict_{paid}", **values))
    return "\n".join(lines)
