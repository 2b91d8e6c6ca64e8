"""A purchase with a budget that buys more than the job's minimum (review AU7: ¥30万, Qwen2.5 32B for 20 people, 2 × L20
planned): the plan keeps to what the job needs, and one line says what the budget's headroom buys on the same card --
twice the cards, still within the budget, with its speed per user and memory to spare from the sizing tool; else
(review BK #13: the budget raised from ¥20万 to ¥40万 and the 8 × 3090 plan kept) the option of the plan's table the
budget pays for that is clearly better: faster per user, a first token in half the time, or roomier."""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.recommend import TIGHT_HEADROOM, Option, Recommendation, evaluate

# The headroom is worth a sentence when the larger box is at least this much faster per user or roomier.
GAIN = 1.3
# Another card the budget buys may give up this much per-user speed for the rest of its gain (a first token in half the time).
SLOWER_OK = 0.8


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
        more = None
    if more is not None and _affordable(more, w.budget_usd) and _gain(more, best) >= GAIN:
        return [say(lang, "buybox.budget_room", option=words(more), usd=cash(more.purchase_usd or 0.0, rec),
                    this=tps(more.decode_tokens_per_s or 0.0), best=tps(best.decode_tokens_per_s),
                    spare=f"{more.headroom_fraction * 100:.0f}", spare0=f"{best.headroom_fraction * 100:.0f}")]
    # dearer than the plan (what more budget buys), not tight, and no slower per user than SLOWER_OK of the plan
    others = [o for o in rec.options if o is not best and not o.owned and _affordable(o, w.budget_usd)
              and (o.purchase_usd or 0) > best.purchase_usd and (o.gpu, o.gpus) != (best.gpu, best.gpus) and not o.avoid
              and o.headroom_fraction >= TIGHT_HEADROOM
              and (o.decode_tokens_per_s or 0) >= SLOWER_OK * best.decode_tokens_per_s]
    better = max(others, key=lambda o: (_gain(o, best), -(o.purchase_usd or 0)), default=None)
    if better is None or _gain(better, best) < GAIN or not better.ttft_s or not best.ttft_s:
        return []
    return [say(lang, "buybox.budget_room_other", option=words(better), usd=cash(better.purchase_usd or 0, rec),
                ttft=_seconds(better.ttft_s), ttft0=_seconds(best.ttft_s), this=tps(better.decode_tokens_per_s or 0),
                best=tps(best.decode_tokens_per_s), spare=f"{better.headroom_fraction * 100:.0f}",
                spare0=f"{best.headroom_fraction * 100:.0f}")]


def _affordable(o: Option | None, budget: float) -> bool:
    return o is not None and o.ok and bool(o.purchase_usd) and (o.purchase_usd or 0) <= budget \
        and bool(o.decode_tokens_per_s)


def _gain(o: Option, best: Option) -> float:
    """How much better `o` serves than the plan: the largest of its per-user speed, first-token time and memory to
    spare, each as a ratio to the plan's (1.0: no better)."""
    speed = (o.decode_tokens_per_s or 0) / max(best.decode_tokens_per_s or 0, 1e-9)
    first = best.ttft_s / o.ttft_s if o.ttft_s and best.ttft_s else 0.0
    room = o.headroom_fraction / max(best.headroom_fraction, 0.01)
    return max(speed, first, room)


def _seconds(s: float) -> str:
    return f"{s * 1000:,.0f} ms" if s < 1 else f"{s:.1f} s"
