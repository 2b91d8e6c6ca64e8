"""The answer to a precision asked as a saving ('那上w8a8量化能省多少', 'how much would int8 save?',
reading/saving.py): the cards (and servers) the new plan takes against the plan before, and the memory per card.
When the plan before already ran that many bits (a native FP8 model served as W8A8 on cards without FP8), it says
so and sets the plan against the same job in 16-bit (BF16) weights, sized by the same tools (advice.compute)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import gb, gpu_words

SIXTEEN = "bf16"  # the weights a quantized plan is set against when it was already quantized


def _bits(precision: str | None) -> float | None:
    from gpu_advisor.knowledge import find_precision

    try:
        return float(find_precision(precision).bits_per_weight) if precision else None
    except (LookupError, ValueError):
        return None


def _cards(lang: str, o: Any) -> str:
    return say(lang, "saving.servers", cards=gpu_words(o), servers=o.servers) if o.servers else gpu_words(o)


def _against(lang: str, plan: Any, base: Any, key: str, **values: Any) -> str:
    """One sentence: the new plan against a base plan, cards and servers fewer (or not) and memory per card."""
    fewer = base.gpus - plan.gpus
    used_new = plan.serve_per_gpu_bytes or plan.train_per_gpu_bytes or 0
    used_base = base.serve_per_gpu_bytes or base.train_per_gpu_bytes or 0
    change = say(lang, "saving.fewer", n=fewer) if fewer > 0 else say(lang, "saving.more", n=-fewer) if fewer < 0 \
        else say(lang, "saving.same_cards", this=gb(used_new), was=gb(used_base))
    if base.servers and plan.servers and base.servers != plan.servers:
        change += say(lang, "saving.fewer_servers", this=plan.servers, was=base.servers)
    same = (plan.gpu, plan.gpus) == (base.gpu, base.gpus)
    return say(lang, key + ("_same" if same else ""), this=_cards(lang, plan), base=_cards(lang, base), change=change,
               **values)


def precision_saving(answer: Any, previous: dict[str, Any], filled: Any, lang: str,
                     recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    from gpu_advisor.assistant import advice
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import Option

    old_best = (previous.get("recommend") or {}).get("best")
    new = answer.recommend.best
    if not old_best or new is None:
        return None
    old = Option.model_validate(old_best)
    old_bits, new_bits = _bits(old.precision), _bits(new.precision)
    data: dict[str, Any] = {"old_gpus": old.gpus, "new_gpus": new.gpus, "old_precision": old.precision,
                            "new_precision": new.precision}
    if old_bits is None or new_bits is None:
        return None
    if old_bits != new_bits:
        data["code"] = "versus"
        return _against(lang, new, old, "saving.versus", new=new.precision, old=old.precision), data
    if new_bits >= 16:
        return None
    try:
        base = advice.compute(filled.model_copy(update={"precision": SIXTEEN}), None, [], None,
                              recorder=recorder).recommend.best
    except (ToolError, LookupError, ValueError):
        base = None
    data["code"] = "already"
    if base is None:
        return say(lang, "saving.already_alone", precision=old.precision, bits=f"{old_bits:g}"), data
    data.update({"base_gpus": base.gpus, "base_precision": base.precision, "base_servers": base.servers})
    return _against(lang, new, base, "saving.already", precision=old.precision, bits=f"{old_bits:g}"), data
