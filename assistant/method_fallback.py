"""'our lab owns 4 nodes of 8x L40S … can we do full-param SFT of Qwen3-14B at 8k? if not, LoRA?', '全参能跑吗？不行的话
LoRA': a fine-tuning method asked first, another named as its fallback (reading/method_why.py, u.ask["method_fallback"]).
The plan is the method asked when it fits (on the cards you own, when you own some; else on any card sized), the
fallback when it does not; the other one is sized beside it either way (engine._methods_weighed)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.tools.common import ToolError


def fits(rec: Any, owned: bool) -> bool:
    """Whether the plan's method trains in memory as asked: on one of your own layouts when you own cards, else on
    the best option; a plan that holds it only with a lever (rec.relaxed: the optimizer in CPU memory, a shorter
    sequence), or at the edge of memory (tools.train_margin: the margin not free), does not."""
    from gpu_advisor.tools.train_margin import roomy

    def held(o: Any) -> bool:  # trains, with the training margin free (at 97% of a card it needs offload in practice)
        return bool(o.trains) and (not o.train_per_gpu_bytes or not o.capacity_bytes
                                   or roomy(o.train_per_gpu_bytes, o.capacity_bytes, o.gpus))

    if rec.relaxed:
        return False
    if owned:
        return any(held(o) for o in rec.owned_options)
    return rec.best is not None and held(rec.best)


def chosen(filled: Any, ask: dict[str, Any], recorder: Any = None) -> str | None:
    """The method the plan takes when a fallback was named: the one asked when it fits, else the fallback; None when
    no fallback was named (the plan as read)."""
    from gpu_advisor.assistant import advice

    fallback = ask.get("method_fallback")
    if not fallback or filled.method == fallback or filled.phase != "fine-tune":
        return None
    try:
        first = advice.compute(filled, None, [], None, recorder=recorder)
    except (ToolError, LookupError, ValueError):
        return None
    return str(filled.method) if fits(first.recommend, bool(filled.owned)) else str(fallback)


def on_fallback(filled: Any, profile: Any, ask: dict[str, Any], recorder: Any = None) -> tuple[Any, Any]:
    """The profile filled and the user's, on the method chosen (both as they were when no fallback was named)."""
    method = chosen(filled, ask, recorder)
    if method is None:
        return filled, profile
    return filled.model_copy(update={"method": method}), profile.model_copy(update={"method": method})


def other_weighed(pair: list[str], method: str | None) -> str:
    """Of the two methods weighed, the one the plan is not on."""
    return next((m for m in pair if m != method), pair[-1])


def verdict(ask: dict[str, Any], method: str | None) -> str | None:
    """The verdict's code beside the other method sized (assistant.method_switch): asked_fits when the method asked
    is the plan, fallback_taken when it did not fit; None when no fallback was named."""
    fallback = ask.get("method_fallback")
    if not fallback:
        return None
    return "fallback_taken" if method == fallback else "asked_fits"
