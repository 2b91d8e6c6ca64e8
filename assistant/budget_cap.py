"""The budget line of a plan whose budget was said by the hour or the day ('if we can only spend like $3/hr',
'每小时最多20块', '每天最多花500元'; reading/budget_cap.py): the plan's rent at that rate against the cap, and when it
is over, the cheapest option shown that keeps under it (ranked on cost), or, with none, the one that comes closest
(review NC30 #1). One basis with tools.recommend's budget check: the month it bills (every card it runs) over the
hours a service is billed (tools.recommend.service_hours), a day a thirtieth of the month."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import bought_words, cash
from gpu_advisor.tools.recommend import Option, Recommendation, Workload, service_hours

DAYS_PER_MONTH = 30.0  # as reading.budget_cap makes a daily cap monthly


def _periods(w: Workload) -> float:
    """The periods of the cap's kind in a month the rent is billed for."""
    return service_hours(w) if w.budget_per == "hour" else DAYS_PER_MONTH


def _spend(o: Option) -> float | None:
    return o.billed_usd_per_month


def cap_usd(w: Workload) -> float:
    """The cap said, in USD by its own period ('$3' of '$3/hr')."""
    return (w.budget_usd_per_month or 0.0) / _periods(w)


def budget_cap_line(rec: Recommendation, lang: str) -> str | None:
    """'**Budget:** 2 × A100 rents for about $2.98 an hour, within your cap of $3 an hour.'; over it, the cheapest
    option that keeps under it, or the closest; None when the budget was not said by the hour or day or the plan is
    not rented by the month."""
    w, best = rec.workload, rec.best
    if w.budget_per is None or not w.budget_usd_per_month or best is None or _spend(best) is None:
        return None
    periods, per = _periods(w), say(lang, f"budget_cap.per.{w.budget_per}")
    cap = cash(cap_usd(w), rec)
    spend = _spend(best) or 0.0
    within = best.meets.get("budget", spend <= w.budget_usd_per_month)
    line = say(lang, "budget_cap.line", option=bought_words(best), usd=cash(spend / periods, rec), per=per, cap=cap,
               verdict=say(lang, "budget.within" if within else "budget.over"))
    if within:
        return line
    priced = sorted((o for o in rec.options if not o.owned and o.serves is not False and _spend(o) is not None
                     and o is not best), key=lambda o: _spend(o) or 0.0)
    under = [o for o in priced if (_spend(o) or 0.0) <= w.budget_usd_per_month]
    if under:
        o = under[0]
        return line + say(lang, "budget_cap.cheapest", option=bought_words(o), usd=cash((_spend(o) or 0.0) / periods, rec),
                          per=per)
    closest = priced[0] if priced and (_spend(priced[0]) or 0.0) < spend else best
    return line + say(lang, "budget_cap.none", option=bought_words(closest),
                      usd=cash((_spend(closest) or 0.0) / periods, rec), per=per)


def cap_head(rec: Recommendation, lang: str) -> str | None:
    """'**Nothing keeps under your cap of $0.50 an hour.** What comes closest:' when nothing fits a cap said by the
    hour or the day; None otherwise."""
    w = rec.workload
    if w.budget_per is None or not w.budget_usd_per_month:
        return None
    return say(lang, "budget_cap.levers_head", cap=cash(cap_usd(w), rec), per=say(lang, f"budget_cap.per.{w.budget_per}"))


def cap_cost(o: Option, rec: Recommendation, lang: str) -> str | None:
    """'about $2.24 an hour': an option's rent by the period its cap was said in; None for a monthly budget."""
    w = rec.workload
    if w.budget_per is None or not w.budget_usd_per_month or _spend(o) is None:
        return None
    return say(lang, "budget_cap.cost", usd=cash((_spend(o) or 0.0) / _periods(w), rec),
               per=say(lang, f"budget_cap.per.{w.budget_per}"))
