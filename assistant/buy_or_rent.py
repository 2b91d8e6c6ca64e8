"""Buy one card or keep renting (reading/buy_or_rent.py: u.ask["buy_or_rent"]): a month of the rent the user pays
now (runs a month x a run's hours, said or sized, x the rented card's typical price, tools.cost) set against the
purchase price of the card to buy (the card alone), the months that rent takes to pay for it, and what the card
does of the job (tools.fit: full fine-tune, LoRA, QLoRA on one card). The verdict code: buy when that rent pays for
the card within the horizon (tools.cost.DEFAULT_HORIZON_MONTHS), else rent. Words: catalog buy_or_rent.*."""

from __future__ import annotations

from typing import Any, Literal

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.serve_buy_rent import serving_block, weigh_serving
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.cost import (
    DEFAULT_HORIZON_MONTHS,
    HOURS_PER_MONTH,
    RentBuyInput,
    rent_vs_buy,
    try_price,
)
from gpu_advisor.tools.durations import hours_figure

WEEKS_PER_YEAR = 52
YEAR_MONTHS = 12  # the totals cover a year unless a horizon is said ('which is cheaper over a year?')
HOME_SEGMENTS = ("consumer", "workstation")  # a card that sits in your own PC: no rack or hosting to pay
METHODS = ("full", "lora", "qlora")


def _fits(model: str, gpu: str, recorder: Any) -> dict[str, bool]:
    """Which fine-tuning methods fit the model on one card of `gpu` (the fit tool)."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.fit import FitInput, fit

    out: dict[str, bool] = {}
    for method in METHODS:
        args = FitInput(model=model, gpu=gpu, phase="train", method=method, counts=[1])
        try:
            r = fit(args)
        except (ToolError, LookupError, ValueError):
            continue
        if recorder is not None:
            recorder("fit", args.model_dump(mode="json"), r.model_dump(mode="json"), 0.0)
        out[method] = r.options[0].fits
    return out


def _job_hours(rec: Any, gpu: str, recorder: Any, n: int = 1) -> float | None:
    """A run's hours on n cards of `gpu` (the training-time tool on the plan's workload)."""
    if rec is None or getattr(rec, "workload", None) is None:
        return None
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import training_time_setup
    from gpu_advisor.tools.training_time import training_time

    try:
        args = training_time_setup(rec.workload, gpu, n, False)
        r = training_time(args)
    except (ToolError, LookupError, ValueError):
        return None
    if recorder is not None:
        recorder("training_time", args.model_dump(mode="json"), r.model_dump(mode="json"), 0.0)
    return r.hours


def _work_hours(profile: Any, spec: dict[str, Any], run_hours: float | None) -> float | None:
    """The rented card's busy hours a month: '10 hrs a week' (a share of the hours said), else runs x a run's hours."""
    if spec.get("busy") and not spec.get("hours"):
        return float(spec["busy"]) * HOURS_PER_MONTH
    return (profile.runs_per_month or 1) * run_hours if run_hours else None


def weigh(profile: Any, spec: dict[str, Any], best: Any, recorder: Any, rec: Any = None) -> dict[str, Any] | None:
    """The figures and the verdict code; None when the rent or the purchase cannot be priced."""
    served = weigh_serving(profile, spec, rec, recorder)  # a service with a load: each plan at that load
    if served is not None:
        return served
    region: Literal["global", "china"] = "china" if profile.region == "china" else "global"
    rented = spec.get("rented") or (best.gpu if best is not None else None)
    buy = find_gpu(spec["buy"])
    quote = try_price(rented, region) if rented else None
    sized = best.job_hours if best is not None and best.gpu == rented and best.gpus == 1 else None
    on_rented = sized or (_job_hours(rec, rented, recorder) if rented else None)
    hours = spec.get("hours") or on_rented
    busy = _work_hours(profile, spec, hours)
    if not (rented and busy and quote and buy.buy_price_usd):
        return None
    busy_said = bool(spec.get("busy")) and not spec.get("hours")
    n_buy = int(spec.get("buy_n") or 1)  # 'a couple of 4090s': priced at 2 (reading/vague_buy.py)
    fits = _fits(profile.model, buy.id, recorder) if profile.model and profile.phase == "fine-tune" else {}
    v = {"buy": buy.id, "buy_name": buy.name, "rented": rented, "rented_name": find_gpu(rented).name,
         "runs_per_month": profile.runs_per_month or 1, "hours": hours or 0.0, "hours_said": bool(spec.get("hours")),
         "busy_said": busy_said, "busy_hours_month": busy, "usd_per_hour": quote.usd_per_gpu_hour_typical,
         "rent_usd_per_month": busy * quote.usd_per_gpu_hour_typical, "purchase_usd": buy.buy_price_usd,
         "fits": fits, "slower": None, "buy_n": n_buy, "buy_card": buy.name}
    if not busy_said and not profile.horizon_months:  # runs a month x a run's hours: a month of rent against the card
        args = RentBuyInput(gpu=rented, utilisation=min(1.0, busy / HOURS_PER_MONTH), region=region, buy_gpu=buy.id,
                            electricity_usd_per_kwh=profile.electricity_usd_per_kwh)  # the user's power price
        rb = rent_vs_buy(args)
        if recorder is not None:
            recorder("rent_vs_buy", args.model_dump(mode="json"), rb.model_dump(mode="json"), 0.0)
        months = buy.buy_price_usd * n_buy / v["rent_usd_per_month"] if v["rent_usd_per_month"] else None
        code = "buy" if months is not None and months <= DEFAULT_HORIZON_MONTHS and rb.cheaper == "buy" else "rent"
        on_bought = _job_hours(rec, buy.id, recorder, n_buy) if buy.id != rented or n_buy > 1 else None
        if n_buy > 1:
            v = {**v, "buy_name": f"{n_buy} × {buy.name}", "purchase_usd": buy.buy_price_usd * n_buy}
        return {**v, "code": code, "payback_months": months, "horizon_months": DEFAULT_HORIZON_MONTHS,
                "cheaper_over_horizon": rb.cheaper,
                "run_slower": on_bought / on_rented if on_bought and on_rented else None}
    return {**v, **_over_the_year(profile, v, region, rec, recorder, on_rented)}


def _over_the_year(profile: Any, v: dict[str, Any], region: Literal["global", "china"], rec: Any, recorder: Any,
                   on_rented: float | None) -> dict[str, Any]:
    """Each option as named over a year (or the horizon said): the rented card's busy hours at its price against
    the bought card's price and its power for the hours the same work takes it (tools.training_time, tools.cost)."""
    from gpu_advisor.assistant.buy_rent_counts import job_counts

    counts = job_counts(rec, v["buy"], v["rented"])  # serving: the cards the job takes of each, busy the same hours
    on_bought = _job_hours(rec, v["buy"], recorder) if v["buy"] != v["rented"] and not counts else on_rented
    if not counts and v["buy_n"] > 1:  # 'a couple of 4090s' for a training run: that many bought, one rented
        counts, on_bought = (v["buy_n"], 1), _job_hours(rec, v["buy"], recorder, v["buy_n"]) or on_bought
    slower = on_bought / on_rented if on_bought and on_rented else 1.0  # the bought card's hours per rented hour
    months = profile.horizon_months or YEAR_MONTHS
    busy = v["busy_hours_month"]
    home = find_gpu(v["buy"]).segment in HOME_SEGMENTS
    args = RentBuyInput(gpu=v["rented"], utilisation=min(1.0, busy / HOURS_PER_MONTH), region=region,
                        buy_gpu=v["buy"], buy_utilisation=min(1.0, busy * slower / HOURS_PER_MONTH),
                        horizon_months=months, **({"hosting_usd_per_gpu_month": 0.0} if home else {}),
                        electricity_usd_per_kwh=profile.electricity_usd_per_kwh,  # the user's power price
                        **({"gpus": counts[1], "buy_gpus": counts[0]} if counts else {}))
    rb = rent_vs_buy(args)
    if recorder is not None:
        recorder("rent_vs_buy", args.model_dump(mode="json"), rb.model_dump(mode="json"), 0.0)
    horizon = profile.horizon_months or DEFAULT_HORIZON_MONTHS
    payback = rb.payback_months
    owned = next(t for t in rb.terms if t.key == "buy_total_usd").inputs
    return {"code": "buy" if payback is not None and payback <= horizon else "rent", "payback_months": payback,
            "horizon_months": horizon, "cheaper_over_horizon": rb.cheaper, "slower": slower,
            "total_months": months, "rent_total_usd": rb.rent_total_usd, "buy_total_usd": rb.buy_total_usd,
            "counts": list(counts) if counts else None, "purchase_usd": v["purchase_usd"] * (counts[0] if counts else 1),
            "power_usd": rb.buy_total_usd - v["purchase_usd"] * (counts[0] if counts else 1)
            - args.hosting_usd_per_gpu_month * months * (counts[0] if counts else 1),
            "usd_per_kwh": owned.get("usd_per_kwh")}


def _year(v: dict[str, Any], lang: str, money: Any) -> list[str]:
    """Each option priced as named over the months compared: the rented card's hours x its price, the bought card's
    price plus its power for the hours the same work takes it, and when the purchase pays for itself."""
    week = v["busy_hours_month"] * YEAR_MONTHS / WEEKS_PER_YEAR
    said = say(lang, "buy_or_rent.said" if v["hours_said"] or v["busy_said"] else "buy_or_rent.sized")
    n_buy, n_rent = v.get("counts") or (1, 1)
    lines = [say(lang, "buy_or_rent.year.head", buy=v["buy_name"], rented=v["rented_name"]),
             say(lang, "verdict_agree.rent_n" if v.get("counts") else "buy_or_rent.year.rent", card=v["rented_name"],
                 n=n_rent, week=f"{week:,.1f}", said=said, price=money(v["usd_per_hour"]), months=v["total_months"],
                 total=money(v["rent_total_usd"]))]
    slower = v.get("slower")
    if slower is not None and abs(slower - 1) >= 0.05:
        lines.append(say(lang, "buy_or_rent.year.slower", card=v["buy_name"], rented=v["rented_name"],
                         times=f"{slower:.1f}", week=f"{week * slower:,.1f}"))
    lines.append(say(lang, "verdict_agree.buy_n" if v.get("counts") else "buy_or_rent.year.buy", card=v["buy_name"],
                     n=n_buy, price=money(v["purchase_usd"]),
                     power=money(v["power_usd"]), kwh=money(v["usd_per_kwh"] or 0), months=v["total_months"],
                     total=money(v["buy_total_usd"])))
    cheaper = say(lang, f"buy_or_rent.year.cheaper.{v['cheaper_over_horizon']}")
    payback = v["payback_months"]
    lines.append(say(lang, "buy_or_rent.year.compare", months=v["total_months"], rent=money(v["rent_total_usd"]),
                     buy=money(v["buy_total_usd"]), cheaper=cheaper)
                 + say(lang, "buy_or_rent.year.payback" if payback is not None else "buy_or_rent.year.never",
                       months=f"{payback or 0:,.0f}"))
    return lines


def block(v: dict[str, Any], model_name: str, lang: str, money: Any) -> str:
    """The head-on answer, before the plan."""
    if v.get("serving"):
        return serving_block(v, lang, money)
    if v.get("slower") is not None or v.get("busy_said"):
        lines = _year(v, lang, money)
        payback = v["payback_months"]
        if v["code"] == "rent" and payback is not None and payback <= DEFAULT_HORIZON_MONTHS:
            # renting wins the months asked, buying the months after: both said, with when it turns
            lines.append(say(lang, "buy_or_rent.year.verdict.later", card=v["buy_name"], horizon=v["horizon_months"],
                             months=f"{payback:.1f}" if payback < 24 else f"{payback:,.0f}"))
        else:
            lines.append(say(lang, f"buy_or_rent.verdict.{v['code']}", card=v["buy_name"], horizon=v["horizon_months"]))
        lines += _fits_lines(v, model_name, lang) + _vague_lines(v, lang)
        return "\n".join(lines)
    lines = [say(lang, "buy_or_rent.head", card=v["buy_name"]),
             say(lang, "buy_or_rent.rent", runs=f"{v['runs_per_month']:g}", hours=hours_figure(v['hours']),
                 price=money(v["usd_per_hour"]), card=v["rented_name"], monthly=money(v["rent_usd_per_month"]),
                 said=say(lang, "buy_or_rent.said" if v["hours_said"] else "buy_or_rent.sized"))]
    slower = v.get("run_slower")
    if slower is not None and abs(slower - 1) >= 0.05:  # the bought card takes longer (or less) for the same run
        lines.append(say(lang, "buy_or_rent.run_slower", card=v["buy_name"], rented=v["rented_name"],
                         times=f"{slower:.1f}", hours=hours_figure(v['hours'] * slower)))
    months = v["payback_months"]
    lines.append(say(lang, "buy2.buy_n" if v.get("buy_n", 1) > 1 else "buy_or_rent.buy", card=v["buy_name"],
                     price=money(v["purchase_usd"]), months=f"{months:,.0f}"))
    lines.append(say(lang, f"buy_or_rent.verdict.{v['code']}", card=v["buy_name"], horizon=v["horizon_months"]))
    return "\n".join(lines + _fits_lines(v, model_name, lang) + _vague_lines(v, lang))


def _vague_lines(v: dict[str, Any], lang: str) -> list[str]:
    """'a couple of 4090s': the count priced, said as an assumption, and that it is no limit on the plan."""
    n = v.get("buy_n", 1)
    return [say(lang, "buy2.vague", n=n, card=v["buy_card"])] if n > 1 else []


def _fits_lines(v: dict[str, Any], model_name: str, lang: str) -> list[str]:
    lines: list[str] = []
    fits = v["fits"]
    if fits:
        yes = [say(lang, f"buy_or_rent.method.{m}") for m in METHODS if fits.get(m)]
        no = [say(lang, f"buy_or_rent.method.{m}") for m in METHODS if m in fits and not fits[m]]
        sep = say(lang, "buy_or_rent.and")
        if yes:
            lines.append(say(lang, "buy_or_rent.fits", card=v.get("buy_card", v["buy_name"]), model=model_name, yes=sep.join(yes),
                             no=say(lang, "buy_or_rent.not_fits", no=sep.join(no)) if no else ""))
        else:
            lines.append(say(lang, "buy_or_rent.fits_none", card=v.get("buy_card", v["buy_name"]), model=model_name))
    return lines
