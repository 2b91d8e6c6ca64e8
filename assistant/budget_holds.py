"""A one-off budget that does not buy the service's plan (review CJ #6: '预算三十万以内' with an 8 x 4090 server quoted at
¥28万, Qwen2.5 32B for 200 people at once; 32 x 4090 were planned with no word of the budget): what the budget does
buy of the plan's card -- whole servers where the plan spans servers -- and how many people at once that holds
(tools.capacity), said beside the plan, which is over the budget. Words: catalog budget.holds."""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import Gpu, find_gpu
from gpu_advisor.tools.capacity import capacity
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.recommend import (
    Option,
    Recommendation,
    Workload,
    buys_over_budget,
    evaluate,
    within_budget,
)


def _counts(best: Option) -> list[int]:
    """Fewer cards of the plan's card, the most first: whole servers of it, then a server's halves."""
    per = best.server_gpus if best.server_gpus and best.server_gpus < best.gpus else max(best.gpus // 2, 1)
    servers = [k * per for k in range(best.gpus // per - (best.gpus % per == 0), 0, -1)]
    halves = []
    n = per // 2
    while n >= 1:
        halves.append(n)
        n //= 2
    return [n for n in servers + halves if 0 < n < best.gpus]


def _plan(rec: Recommendation) -> Option | None:
    """The plan, else (nothing meets every requirement) the closest option that misses only the budget."""
    if rec.best is not None:
        return rec.best
    return next((o for o in rec.options if not o.owned and o.meets.get("budget") is False
                 and all(v for k, v in o.meets.items() if k != "budget")), None)


def _price(w: Workload, gpu: Gpu, n: int, per: int) -> float | None:
    """What n of the card cost to buy (the user's quote where given): as one setup, else as whole servers of `per`."""
    one = w.model_copy(update={"users": 1})  # priced as bought, whatever load it holds
    o = evaluate(one, gpu, n)
    if o is None and n > per and n % per == 0:  # no one copy spans the servers: their price, server by server
        o = evaluate(one, gpu, per)
        return o.purchase_usd * (n // per) if o is not None and o.purchase_usd is not None else None
    return o.purchase_usd if o is not None else None


def within(rec: Recommendation) -> tuple[Option, int] | None:
    """The most of the plan's card the budget buys (the user's quote where given) and the people at once it holds;
    None when the plan itself is within the budget, or the budget buys none that holds one person."""
    w, best = rec.workload, _plan(rec)
    if best is None or best.owned or not w.spec.serves or w.budget_usd is None or not buys_over_budget(w, best):
        return None
    gpu = find_gpu(best.gpu)
    per = best.server_gpus or best.gpus
    for n in _counts(best):
        usd = _price(w, gpu, n, per)
        if usd is None or not within_budget(usd, w.budget_usd, w):
            continue
        try:
            held = capacity(w, gpu.id, n, precision=best.precision)
        except (ToolError, LookupError, ValueError):
            return None
        o = held.at_limit
        if held.users <= 0 or o is None or o.purchase_usd is None or not within_budget(o.purchase_usd, w.budget_usd, w):
            return None
        return o, held.users
    return None


def budget_holds_line(rec: Recommendation, lang: str, words: Callable[[Option], str],
                      cash: Callable[[float, Recommendation], str], tps: Callable[[float], str]) -> list[str]:
    """One line: what the budget buys of the plan's card, the people at once it holds, and what everyone takes."""
    found, plan = within(rec), _plan(rec)
    if found is None or plan is None or plan.purchase_usd is None:
        return []
    o, users = found
    shown = (o.precision or "") + (say(lang, "fig.kv", kv=o.kv_precision.upper()) if o.kv_precision else "")
    return [say(lang, "budget.holds", option=words(o), usd=cash(o.purchase_usd or 0.0, rec), budget=cash(rec.workload.budget_usd or 0.0, rec),
                users=f"{users:,}", precision=shown, tps=tps(o.decode_tokens_per_s or 0.0),
                asked=f"{rec.workload.users:,}", plan=words(plan), plan_usd=cash(plan.purchase_usd, rec))]


def held_block(rec: Recommendation, lang: str, words: Callable[[Option], str],
               cash: Callable[[float, Recommendation], str], tps: Callable[[float], str]) -> list[str]:
    """The line as a paragraph of its own (no plan met every requirement, so no budget paragraph holds it)."""
    held = budget_holds_line(rec, lang, words, cash, tps)
    return [*held, ""] if held else []
