"""Inline code completion is a latency use (knowledge/data/use_cases.yaml `latency_target_s`): whether the plan's
model answers one completion within the target on the plan's card, and, when it does not, the largest of the
use's smaller models that does. One completion: the changed tokens around the cursor prefilled (the rest is in the
server's KV cache) and the first line of the suggestion decoded, at the speeds the throughput tool gives."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.use_cases import UseCase, use_case
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.throughput import SpeedInput, speed


def completion_seconds(model: str, precision: str, gpu: str, gpus: int, engine: str | None, uc: UseCase) -> float:
    """Seconds one completion takes: the uncached prompt at prefill speed plus the first line at decode speed."""
    s = speed(SpeedInput(model=model, precision=precision, gpu=gpu, gpus=gpus, engine=engine, batch=1,
                         context=max(uc.latency_prompt_tokens, 1)))
    return uc.latency_prompt_tokens / s.prefill_tokens_per_s + uc.latency_output_tokens / s.decode_tokens_per_s


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def completion_words(model: str | None, use: str | None, rec: Any, lang: str) -> tuple[str, dict[str, Any]] | None:
    """The paragraph on the completion latency (code completion only), and its figures."""
    uc = use_case(use)
    best = getattr(rec, "best", None)
    if uc is None or uc.latency_target_s is None or not model or best is None or not best.serves or not best.precision:
        return None
    per_copy = best.tp or best.gpus
    try:
        own = completion_seconds(model, best.precision, best.gpu, per_copy, best.engine, uc)
    except (ToolError, LookupError, ValueError):
        return None
    card = find_gpu(best.gpu).name
    data: dict[str, Any] = {"target_s": uc.latency_target_s, "seconds": round(own, 3), "meets": own <= uc.latency_target_s,
                            "gpu": best.gpu, "smaller": None}
    values = {"target": _ms(uc.latency_target_s), "took": _ms(own), "card": card,
              "prompt": f"{uc.latency_prompt_tokens:,}", "line": uc.latency_output_tokens}
    if own <= uc.latency_target_s:
        return say(lang, "completion.meets", **values), data
    for m in uc.latency_models:
        if m.id == model:
            continue
        try:
            t = completion_seconds(m.id, best.precision, best.gpu, per_copy, best.engine, uc)
        except (ToolError, LookupError, ValueError):
            continue
        if t <= uc.latency_target_s:
            data["smaller"] = {"model": m.id, "name": m.name, "seconds": round(t, 3)}
            return say(lang, "completion.smaller", **values, small=m.name, small_took=_ms(t)), data
    return say(lang, "completion.none", **values), data


def with_completion(text: str, model: str | None, use: str | None, rec: Any, lang: str) -> str:
    """The reply with the autocomplete paragraph under its headline (code completion only)."""
    from gpu_advisor.assistant.owned_slow import place_first

    words = completion_words(model, use, rec, lang)
    return place_first(text, words[0]) if words else text
