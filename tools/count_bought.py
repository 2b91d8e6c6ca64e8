"""The cards weighed for buying at the count said ('rent or buy two 4090s to LoRA qwen3 32b?', '租卡还是买两张4090划算',
'买4张L20还是租'; Workload.only_bought): the plan is that many of the card, the count whose purchase is weighed.
When a LoRA as asked needs more of the card than that and the same adapters on a 4-bit frozen base do the job on
exactly that many (QLoRA, then QLoRA with Unsloth's kernels, no framework named), that is the plan, said as the change
taken (catalog answer.count_named_lever), never more of the card than the user would buy (review CM #8: '8 × 4090'
headlined beside '只用 2 × 4090' and a warning against consumer cards for multi-card training). The card that does
the job as asked stays named beside it (tools.recommend's better card), so renting is weighed against it. A service
takes 4-bit weights with an FP8 KV cache on that many when neither alone does (catalog answer.count_kept_lever)."""

from __future__ import annotations

from typing import Any, Literal

from gpu_advisor.tools.training import find_framework

# The changes tried, in order: the same adapters on a 4-bit copy of the frozen base, then with Unsloth's kernels.
FALLBACKS: tuple[tuple[str, dict[str, str]], ...] = (
    ("qlora", {"method": "qlora"}), ("qlora-unsloth", {"method": "qlora", "framework": "unsloth"}))


def count_bought_with_qlora(w: Any, rec: Any) -> Any:
    """The QLoRA plan on exactly the count weighed for buying, or None (tools.recommend's levers)."""
    from gpu_advisor.tools.recommend import _recommend

    count = count_weighed(w)
    if count is None or not w.spec.trains or w.spec.pretrains or w.spec.serves or w.method != "lora" \
            or w.framework is not None:
        return None
    best = rec.best
    if best is not None and best.ok and best.gpus == count:
        return None  # the count weighed does the job as asked
    for key, change in FALLBACKS:
        limit = find_framework(change["framework"]).max_gpus if "framework" in change else None
        if limit is not None and count > limit:
            continue  # (Unsloth trains on one GPU: never the plan on two of them)
        variant = _recommend(w.model_copy(update=change), with_levers=False)
        if variant.best is not None and variant.best.ok and variant.best.gpus == count:
            return variant.model_copy(update={"taken_lever": key, "taken_because": "count_named"})
    return None


def count_bought_served(w: Any, rec: Any) -> Any:
    """A service on the count weighed for buying that needs more of the card as asked, and that neither an FP8 KV cache
    nor 4-bit weights alone fit (tools.recommend's count-named levers, tried first): both together, when they serve
    it on exactly that many (catalog lever.int4_kv8, said as the change kept to the count); else None."""
    from gpu_advisor.tools.levers import serving_lever_tries, takeable
    from gpu_advisor.tools.recommend import _recommend

    count = count_weighed(w)
    change = dict(serving_lever_tries(w)).get("int4_kv8")
    best = rec.best
    if count is None or not w.spec.serves or w.spec.trains or change is None or not takeable("int4_kv8", w) \
            or (best is not None and best.ok and best.gpus == count):
        return None
    variant = _recommend(w.model_copy(update=change), with_levers=False)
    if variant.best is None or not variant.best.ok or variant.best.gpus != count:
        return None
    return variant.model_copy(update={"taken_lever": "int4_kv8", "relaxed": "int4", "taken_because": "count_kept"})


def count_weighed(w: Any) -> int | None:
    """The one count of the one card weighed for buying ('2x rtx-4090': 2), or None (none weighed, cards owned)."""
    from gpu_advisor.tools.recommend import pinned_cards

    pinned = pinned_cards(w)
    if not w.only_bought or len(pinned) != 1 or w.owned:
        return None
    return int(next(iter(pinned)).partition("x ")[0])


def count_bought_why(w: Any, rec: Any) -> Literal["method"] | None:
    """'method' when the plan took a fallback to fit the count weighed for buying: the card that does the job as asked
    is named beside it (tools.recommend's better card, catalog better.why.method); else None."""
    if w.only_bought and rec.taken_because == "count_named" and rec.taken_lever in {key for key, _c in FALLBACKS}:
        return "method"
    return None
