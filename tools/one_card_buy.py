"""buy2: one card said to buy ('想买张卡…偶尔lora一下', 'want to buy a card … sometimes a LoRA'): the plan is one card
(Workload.buy_count 1). When a LoRA as asked fits on no one card within the budget and the same adapters on a 4-bit
frozen base do (QLoRA, then QLoRA with Unsloth's kernels, no framework named), that is the plan, said as the change
taken (catalog answer.count_named_lever), never two cards bought because one was said (review AY 13)."""

from __future__ import annotations

from typing import Any


def one_card_bought_with_qlora(w: Any, rec: Any) -> Any:
    """The QLoRA plan on the one card to buy, or None (tools.recommend's levers)."""
    from gpu_advisor.tools.recommend import _recommend

    if w.buy_count != 1 or not w.spec.trains or w.spec.pretrains or w.spec.serves or w.method != "lora" \
            or w.framework is not None or (rec.best is not None and rec.best.ok and rec.best.gpus == 1):
        return None
    for key, change in (("qlora", {"method": "qlora"}), ("qlora-unsloth", {"method": "qlora", "framework": "unsloth"})):
        variant = _recommend(w.model_copy(update=change), with_levers=False)
        if variant.best is not None and variant.best.ok and variant.best.gpus == 1:
            return variant.model_copy(update={"taken_lever": key, "taken_because": "count_named"})
    return None
