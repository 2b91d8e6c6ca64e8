"""Buy one card or keep renting (reading/buy_or_rent.py: u.ask["buy_or_rent"]): a month of the rent the user pays
now (runs a month x a run's hours, said or sized, x the rented card's typical price, tools.cost) set against the
purchase price of the card to buy (the card alone), the months that rent takes to pay for it, and what the card
does of the job (tools.fit: full fine-tune, LoRA, QLoRA on one card). The verdict code: buy when that rent pays for
the card within the horizon (tools.cost.DEFAULT_HORIZON_MONTHS), else rent. Words: catalog buy_or_rent.*."""

from __future__ import annotations

from typing import Any, Literal

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.cost import DEFAULT_HORIZON_MONTHS, RentBuyInput, rent_vs_buy, try_price

HOURS_PER_MONTH = 730
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


def weigh(profile: Any, spec: dict[str, Any], best: Any, recorder: Any) -> dict[str, Any] | None:
    """The figures and the verdict code; None when the rent or the purchase cannot be priced."""
    from gpu_advisor.knowledge import find_gpu

    region: Literal["global", "china"] = "china" if profile.region == "china" else "global"
    rented = spec.get("rented") or (best.gpu if best is not None else None)
    hours = spec.get("hours") or (best.job_hours if best is not None and best.gpu == rented else None)
    buy = find_gpu(spec["buy"])
    quote = try_price(rented, region) if rented else None
    if not (rented and hours and quote and buy.buy_price_usd):
        return None
    runs = profile.runs_per_month or 1
    monthly = runs * hours * quote.usd_per_gpu_hour_typical
    args = RentBuyInput(gpu=rented, utilisation=min(1.0, runs * hours / HOURS_PER_MONTH), region=region,
                        buy_gpu=buy.id)
    rb = rent_vs_buy(args)
    if recorder is not None:
        recorder("rent_vs_buy", args.model_dump(mode="json"), rb.model_dump(mode="json"), 0.0)
    months = buy.buy_price_usd / monthly if monthly else None
    fits = _fits(profile.model, buy.id, recorder) if profile.model and profile.phase == "fine-tune" else {}
    code = "buy" if months is not None and months <= DEFAULT_HORIZON_MONTHS and rb.cheaper == "buy" else "rent"
    return {"code": code, "buy": buy.id, "buy_name": buy.name, "rented": rented, "rented_name": find_gpu(rented).name,
            "runs_per_month": runs, "hours": hours, "hours_said": bool(spec.get("hours")),
            "usd_per_hour": quote.usd_per_gpu_hour_typical, "rent_usd_per_month": monthly,
            "purchase_usd": buy.buy_price_usd, "payback_months": months, "horizon_months": DEFAULT_HORIZON_MONTHS,
            "cheaper_over_horizon": rb.cheaper, "fits": fits}


def block(v: dict[str, Any], model_name: str, lang: str, money: Any) -> str:
    """The head-on answer, before the plan."""
    lines = [say(lang, "buy_or_rent.head", card=v["buy_name"]),
             say(lang, "buy_or_rent.rent", runs=f"{v['runs_per_month']:g}", hours=f"{v['hours']:.1f}",
                 price=money(v["usd_per_hour"]), card=v["rented_name"], monthly=money(v["rent_usd_per_month"]),
                 said=say(lang, "buy_or_rent.said" if v["hours_said"] else "buy_or_rent.sized"))]
    months = v["payback_months"]
    lines.append(say(lang, "buy_or_rent.buy", card=v["buy_name"], price=money(v["purchase_usd"]),
                     months=f"{months:,.0f}"))
    lines.append(say(lang, f"buy_or_rent.verdict.{v['code']}", card=v["buy_name"], horizon=v["horizon_months"]))
    fits = v["fits"]
    if fits:
        yes = [say(lang, f"buy_or_rent.method.{m}") for m in METHODS if fits.get(m)]
        no = [say(lang, f"buy_or_rent.method.{m}") for m in METHODS if m in fits and not fits[m]]
        sep = say(lang, "buy_or_rent.and")
        if yes:
            lines.append(say(lang, "buy_or_rent.fits", card=v["buy_name"], model=model_name, yes=sep.join(yes),
                             no=say(lang, "buy_or_rent.not_fits", no=sep.join(no)) if no else ""))
        else:
            lines.append(say(lang, "buy_or_rent.fits_none", card=v["buy_name"], model=model_name))
    return "\n".join(lines)
