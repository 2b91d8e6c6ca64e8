"""Rent or buy for a card with no price on record ('昇腾910B买还是租划算？'): not only 'ask your vendor', but the
rule the answer turns on (tools.cost.rent_buy_rule): buying pays off above the guide's utilisation line over the
horizon, which way the use said leans, and what quotes make it exact. Words: catalog rb.rule.*."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.cost import HOURS_PER_MONTH, rent_buy_rule


def rule_line(w: Any, lang: str) -> str:
    """The sentence after 'no prices on record'; none for a user who said they buy (no lean to renting for them)."""
    if w.preference == "buy":
        return ""
    r = rent_buy_rule(w.utilisation)
    said = "assumed" if "utilisation" in w.flexible else "said"  # never 'your 24%' for a use nobody gave
    return say(lang, "rb.rule.line", low=f"{r.low:.0%}", high=f"{r.high:.0%}", months=r.horizon_months,
               use_words=say(lang, "buybox.use_around_clock" if said == "assumed" and r.utilisation >= 1 else f"rb.rule.use.{said}",
                             use=f"{r.utilisation:.0%}"), hours=f"{HOURS_PER_MONTH:.0f}",
               lean=say(lang, f"rb.rule.lean.{r.lean}"))


def bought_line(w: Any, best: Any, lang: str, money: Any) -> str | None:
    """The user buys ('预算两百万以内买设备，够吗') a card with no purchase price on record: no lean to renting, but the
    budget plainly unchecked and the price per card (the server's share included) that keeps it within the budget
    (budget / cards); without a budget, the quote to ask for. None when buying was not what the user said."""
    if w.preference != "buy" or best is None or best.owned:
        return None
    if w.budget_usd:
        return say(lang, "rb.unpriced_buy.budget", gpu=best.gpu_name, n=best.gpus, budget=money(w.budget_usd),
                   per=money(w.budget_usd / best.gpus))
    return say(lang, "rb.unpriced_buy.quote", gpu=best.gpu_name, n=best.gpus)
