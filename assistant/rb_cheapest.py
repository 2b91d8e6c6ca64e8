"""The rent-or-buy paragraph of a rented service weighed against the cheapest machine that does the same job, bought
(tools.bought_side: rec.bought, rec.rent_or_buy with buy_gpu), not the rented card as a whole server (review s29:
'buying never pays off' against a $200,000 8 x A100 server, where one RTX PRO 6000 at $14,565 paid back in about
14 months). It names the machine, its price against the budget, the month of rent, and the months the purchase
takes to pay back at the plan's use; 'never pays off' only when that machine does not pay back within a card's
life (tools.cost.DEFAULT_HORIZON_MONTHS). The plan still rents: when owning costs less, it says why renting leads
and when to buy (or, where it saves little, that it is not worth the risk of idle cards). Words: catalog
rb.cheapest_*."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.cost import DEFAULT_HORIZON_MONTHS

Payback = Literal["payback", "late", "never"]


def payback_code(rb: Any) -> Payback:
    """When the purchase pays back at the plan's use: within the months compared, within a card's life only, or
    never (the rent it saves never covers it within that life)."""
    months = rb.payback_months
    if months is None or months > max(DEFAULT_HORIZON_MONTHS, rb.horizon_months):
        return "never"
    return "payback" if months <= rb.horizon_months else "late"


def months_words(months: float) -> str:
    return f"{months:.0f}" if months >= 10 else f"{months:.1f}"


def cheapest_body(rec: Any, lang: str, cash: Callable[[float], str], words: Callable[[Any], str]) -> str:
    """The comparison without its bold lead: the machine, its price, the rent, the payback and the totals."""
    rb, bought, best, w = rec.rent_or_buy, rec.bought, rec.best, rec.workload
    budget = ""
    if w.budget_usd is not None:
        from gpu_advisor.tools.recommend import buys_over_budget

        budget = say(lang, "rb.cheapest_over" if buys_over_budget(w, bought) else "rb.cheapest_within",
                     budget=cash(w.budget_usd))
    month = rb.rent_usd_per_month or rb.rent_total_usd / rb.horizon_months
    code = payback_code(rb)
    horizon = max(DEFAULT_HORIZON_MONTHS, rb.horizon_months) if code == "never" else rb.horizon_months
    paid = say(lang, f"rb.cheapest_{code}", months=months_words(rb.payback_months or 0), horizon=horizon,
               use=f"{rb.utilisation * 100:.0f}%")
    return say(lang, "rb.cheapest", rented=words(best), month=cash(month), option=words(bought),
               price=cash(bought.purchase_usd), budget=budget, paid=paid, months=rb.horizon_months,
               rent=cash(rb.rent_total_usd), buy=cash(rb.buy_total_usd))


def renting_key(w: Any) -> str:
    """Why a plan that owning would undercut rents: the user said they rent only, or a plan rented before stays
    rented on a follow-up that said nothing of buying (assistant.engine._rented_stays leaves the preference
    unstated): never 'you rent only' when the user never said so (review CT E8)."""
    return "rb.rented_stays" if "preference" in w.flexible else "rb.renting_only"


def cheapest_caveat(rec: Any, lang: str, rents_only: bool) -> str:
    """Why the plan rents though owning that machine costs less over the months compared; else nothing."""
    rb = rec.rent_or_buy
    if rec.action != "rent" or rb.buy_total_usd >= rb.rent_total_usd:
        return ""
    if rents_only:
        return say(lang, renting_key(rec.workload))
    if rec.workload.budget_usd_per_month is not None and rec.workload.budget_usd is None:
        return say(lang, "rb.monthly_budget")
    from gpu_advisor.tools.recommend import owning_pays

    if not owning_pays(rb.rent_total_usd, rb.buy_total_usd):  # a small saving: not worth the risk of idle cards
        return say(lang, "rb.small_saving", pct=f"{(rb.owning_saves or 0) * 100:.0f}%")
    return say(lang, "rb.cheapest_rent_first")
