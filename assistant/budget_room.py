"""A purchase with a budget that buys more than the job's minimum (review AU7: ¥30万, Qwen2.5 32B for 20 people, 2 × L20
planned): the plan keeps to what the job needs, and one line says what the budget's headroom buys on the same card --
twice the cards, still within the budget, with its speed per user and memory to spare from the sizing tool."""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import Option, Recommendation, evaluate

# The headroom is worth a sentence when the larger box is at least this much faster per user or roomier.
GAIN = 1.3


def budget_room_lines(rec: Recommendation, lang: str, words: Callable[[Option], str],
                      cash: Callable[[float, Recommendation], str], tps: Callable[[float], str]) -> list[str]:
    """One line: the plan's card at twice the count, when the budget pays for it and it is clearly better."""
    w, best = rec.workload, rec.best
    if rec.action != "buy" or best is None or best.owned or not w.budget_usd or not w.spec.serves \
            or not best.purchase_usd or not best.decode_tokens_per_s or best.owned_gpus:
        return []
    if best.purchase_usd * 1.5 > w.budget_usd:
        return []  # little left over: nothing to say
    try:
        more = evaluate(w, find_gpu(best.gpu), best.gpus * 2)
    except (LookupError, ValueError):
        return []
    if more is None or not more.ok or not more.purchase_usd or more.purchase_usd > w.budget_usd \
            or not more.decode_tokens_per_s:
        return []
    faster = more.decode_tokens_per_s >= GAIN * best.decode_tokens_per_s
    roomier = more.headroom_fraction >= GAIN * max(best.headroom_fraction, 0.01)
    if not (faster or roomier):
        return []
    return [say(lang, "buybox.budget_room", option=words(more), usd=cash(more.purchase_usd, rec),
                this=tps(more.decode_tokens_per_s), best=tps(best.decode_tokens_per_s),
                spare=f"{more.headroom_fraction * 100:.0f}", spare0=f"{best.headroom_fraction * 100:.0f}")]
