"""A one-off budget and the months the user gave ('budget is 250k usd … for the next 3 yrs'): renting the plan is
weighed against the budget over those months, not a year (review CF #3: $419k of renting over 36 months was called
within $250k), said plainly; and when the plan is over it, the first option shown that meets every target within the
budget over those months (rented), else bought within it, else that none does (tools.recommend.rent_budget_months)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Option, Recommendation, rent_budget_months


def horizon_rent(rec: Recommendation, month: float, lang: str, running: str | None) -> tuple[str, list[str]] | None:
    """With a horizon said: the budget line for renting the plan over it (running: the cards billed, where the plan
    bills more than its own), and the lines of what fits when that is over the budget; None with no horizon."""
    from gpu_advisor.assistant.writers import cash, gpu_words, pct

    w = rec.workload
    if w.horizon_months is None or w.budget_usd is None:
        return None
    months = rent_budget_months(w)
    total = month * months
    within = total <= w.budget_usd
    line = say(lang, "budget.rent_horizon_running" if running else "budget.rent_horizon", usd=cash(month, rec),
               running=running or "", use=pct(w.utilisation), total=cash(total, rec), months=f"{months}",
               verdict=say(lang, "budget.within" if within else "budget.over"), budget=cash(w.budget_usd, rec))
    return line, ([] if within else fits_lines(rec, lang, cash, gpu_words))


def fits_lines(rec: Recommendation, lang: str, cash: Any, words: Any) -> list[str]:
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
                return [say(lang, "budget.fits_rent", budget=cash(budget, rec), months=f"{months}",
                            option=words(o), usd=cash(month, rec), total=cash(month * months, rec))]
    if w.preference != "rent":
        for o in rows:
            if o.purchase_usd and o.purchase_usd <= budget:
                return [say(lang, "budget.fits_buy", budget=cash(budget, rec), option=words(o),
                            usd=cash(o.purchase_usd, rec))]
    return [say(lang, "budget.fits_none", budget=cash(budget, rec), months=f"{months}")]
