"""Rent or buy for a card with no price on record ('昇腾910B买还是租划算？'): not only 'ask your vendor', but the
rule the answer turns on (tools.cost.rent_buy_rule): buying pays off above the guide's utilisation line over the
horizon, which way the use said leans, and what quotes make it exact. Words: catalog rb.rule.*."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.cost import HOURS_PER_MONTH, rent_buy_rule


def rule_line(w: Any, lang: str) -> str:
    """The sentence after 'no prices on record'."""
    r = rent_buy_rule(w.utilisation)
    said = "assumed" if "utilisation" in w.flexible else "said"  # never 'your 24%' for a use nobody gave
    return say(lang, "rb.rule.line", low=f"{r.low:.0%}", high=f"{r.high:.0%}", months=r.horizon_months,
               use_words=say(lang, f"rb.rule.use.{said}", use=f"{r.utilisation:.0%}"), hours=f"{HOURS_PER_MONTH:.0f}",
               lean=say(lang, f"rb.rule.lean.{r.lean}"))
