"""What a monthly budget sustains, asked beside a serving plan ('if not 20 req/s, how many req/s can 40k a month get
me', '每月5万能撑多少QPS'; reading/scale_out.py reads it as u.ask["budget_rate"]): on the plan's card and the other
cards of its table, the most the budget rents and the requests a second they sustain (tools.budget_rate), the one that
sustains the most first, and what the rate asked costs when the budget falls short of it."""

from __future__ import annotations

from functools import partial
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import cash
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import Recommendation

CARDS = 4  # cards weighed: the plan's, then its table's


def _rps(x: float) -> str:
    return f"{x:,.0f}" if x >= 10 else f"{x:,.1f}"


def budget_rate_answer(asked: Any, rec: Recommendation | None, lang: str, recorder: Any = None
                       ) -> tuple[str, dict[str, Any]] | None:
    """The rate the budget sustains on the plan's cards and its table's (text, data); None when nothing was asked,
    no monthly budget was said, or the plan serves no one."""
    from gpu_advisor.assistant.advice import _call
    from gpu_advisor.tools.budget_rate import BudgetRate, budget_rate

    if not asked or rec is None or rec.best is None:
        return None
    w = rec.workload
    budget = w.budget_usd_per_month
    if not budget or not w.spec.serves or w.spec.trains or w.spec.batch:
        return None
    cards: list[tuple[str, str | None, str | None]] = []
    segment = find_gpu(rec.best.gpu).segment
    for o in [rec.best, *rec.options]:
        if o.owned or o.serves is False or o.avoid or any(c[0] == o.gpu for c in cards) or len(cards) >= CARDS \
                or (segment == "datacenter" and find_gpu(o.gpu).segment != "datacenter"):
            continue  # (a service planned on datacenter cards is weighed on datacenter cards)
        cards.append((o.gpu, o.engine, o.precision))
    found: list[BudgetRate] = []
    for gpu, engine, fmt in cards:
        args = {"workload": w.model_dump(mode="json"), "gpu": gpu, "budget_usd_per_month": budget, "engine": engine,
                "precision": fmt}
        got = _call(recorder, "budget_rate", args, partial(budget_rate, w, gpu, budget, engine, fmt))
        if got is not None:
            found.append(got)
    if not found:
        return say(lang, "budget_rate.none", budget=cash(budget, rec)), {"code": "budget_rate", "options": []}
    found.sort(key=lambda f: -f.sustain_rps)
    top = found[0]
    rows = [say(lang, "budget_rate.row", gpus=f.gpus, gpu=f.gpu_name, rps=_rps(f.sustain_rps),
                cost=cash(f.usd_per_month, rec)) for f in found[1:]]
    text = say(lang, "budget_rate.head", budget=cash(budget, rec), gpus=top.gpus, gpu=top.gpu_name,
               rps=_rps(top.sustain_rps), copies=top.copies, unit=top.unit_gpus, cost=cash(top.usd_per_month, rec),
               prompt=f"{top.prompt_tokens:,}", output=f"{top.output_tokens:,}", cap=f"{top.cap:.0%}")
    if rows:
        text += say(lang, "budget_rate.others", rows=say(lang, "budget_rate.sep").join(rows))
    month = rec.best.billed_usd_per_month
    rate = w.requests_per_s
    if rate and month and month > budget and top.sustain_rps < rate:
        text += say(lang, "budget_rate.asked", rate=_rps(rate), cost=cash(month, rec), gpus=rec.best.gpus,
                    gpu=rec.best.gpu_name)
    return text, {"code": "budget_rate", "options": [f.model_dump(mode="json") for f in found],
                  "gpu": top.gpu, "gpus": top.gpus, "sustain_rps": top.sustain_rps, "usd_per_month": top.usd_per_month}
