"""'How much vram to run gemma 2 27b in fp16, just me? … could i lora finetune it on my 2x 3090?' (review BD 13): when
the plan keeps the job on the user's cards by serving it in fewer bits than the format they named
(tools.owned_qlora, relaxed 'qlora_serve=…'), the memory question is answered first in the format named, with
whether it fits their cards, and the format the plan serves in (tools.inference.inference_memory)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.owned_qlora import QLORA_SERVE


def stated_format_memory(rec: Any, lang: str) -> str | None:
    """The memory line in the format named, or None when the plan serves what was named."""
    from gpu_advisor.assistant.writers import gb, gpu_words

    w, best = rec.workload, rec.best
    code, _, shown = (rec.relaxed or "").partition("=")
    named = rec.instead.precision if rec.instead is not None else None  # the plan as asked: the format named
    if code != QLORA_SERVE or w is None or best is None or not named:
        return None
    mem = inference_memory(InferenceMemoryInput(model=w.model, precision=named, context=w.context,
                                                batch=max(w.users, 1)))
    have = best.capacity_bytes * best.gpus
    return say(lang, "advice.asked_format_memory", precision=named.upper(), total=gb(mem.total_bytes),
               weights=gb(mem.weights_bytes), kv=gb(mem.kv_cache_bytes), users=f"{max(w.users, 1):,}",
               context=f"{w.context:,}", option=gpu_words(best, lang), have=gb(have), shown=best.precision or shown)
