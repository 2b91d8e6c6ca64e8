"""A one-off budget and the months the user gave ('budget is 250k usd … for the next 3 yrs'): renting the plan is
weighed against the budget over those months, not a year (review CF #3: $419k of renting over 36 months was called
within $250k), said plainly; and when the plan is over it, the first option shown that meets every target within the
budget over those months (rented), else bought within it, else that none does (tools.recommend.rent_budget_months)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Option, Recommendation, rent_budget_months


def over_the_horizon(rec: Recommendation, month: float) -> tuple[float, int] | None:
    """(renting the plan over the months given, those months) when a horizon was said; None otherwise."""
    w = rec.workload
    if w.horizon_months is None or w.budget_usd is None:
        return None
    months = rent_budget_months(w)
    return month * months, months


def fits_lines(rec: Recommendation, lang: str, cash: object, words: object) -> list[str]:
    """The plan rented over the months given is over the budget: what fits it instead (the options in their order)."""
    w, best = rec.workload, rec.best
    if best is None or w.budget_usd is None or w.horizon_months is None:
        return []
    months = rent_budget_months(w)
    budget = w.budget_usd
    rows: list[Option] = [o for o in [best, *rec.options] if o.ok and not o.owned and not o.avoid]
    if w.preference != "buy":
        for o in rows:
            month = o.billed_usd_per_month
            if month and month * months <= budget and o is not best:
                return [say(lang, "budget.fits_rent", budget=cash(budget, rec), months=f"{months}",  # type: ignore[operator]
                            option=words(o), usd=cash(month, rec), total=cash(month * months, rec))]  # type: ignore[operator]
    if w.preference != "rent":
        for o in rows:
            if o.purchase_usd and o.purchase_usd <= budget:
                return [say(lang, "budget.fits_buy", budget=cash(budget, rec), option=words(o),  # type: ignore[operator]
                            usd=cash(o.purchase_usd, rec))]  # type: ignore[operator]
    return [say(lang, "budget.fits_none", budget=cash(budget, rec), months=f"{months}")]  # type: ignore[operator]
