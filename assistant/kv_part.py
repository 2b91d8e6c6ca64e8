"""The KV-cache part of a question in parts, answered first ('1) how big is the kv cache for llama 3.1 8b at 128k,
per request? 2) how many users at 32k fit on an A100 80gb'): one conversation's cache at that part's own context, in
BF16 and in FP8, from inference_memory; then the reply to the other part (the reader: reading/kv_part.py)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb


def kv_first(ctx: Any, code: str, text: str) -> str:
    """The reply with the KV part's answer before it; the reply alone when no such part was asked or it is the KV
    answer already."""
    from gpu_advisor.assistant.followups import _call
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

    part = ctx.turn.ask.get("kv_part")
    if not part or code == "kv_cache" or not text:
        return text
    model, context = str(part["model"]), int(part["context"])
    sizes: dict[str, Any] = {}
    try:
        for kv in ("bf16", "fp8"):
            sizes[kv] = _call(ctx, "inference_memory", inference_memory, InferenceMemoryInput(
                model=model, precision="bf16", kv_precision=kv, context=context, batch=1))
    except (ToolError, LookupError, ValueError):
        return text
    one, eight = sizes["bf16"], sizes["fp8"]
    ctx.data["kv_part"] = {"model": model, "context": context, "per_user_bytes": one.kv_cache_bytes,
                           "fp8_per_user_bytes": eight.kv_cache_bytes}
    lines = [ctx.say("fup.kv.one", model=one.model, context=f"{context:,}", kv="BF16", gb=gb(one.kv_cache_bytes)),
             ctx.say("fup.kv.eight", gb=gb(eight.kv_cache_bytes))]
    return ("" if ctx.lang == "zh" else " ").join(lines) + "\n\n" + text


def with_kv_part(text: str, turn: Any, filled: Any, answer: Any, lang: str, recorder: Any) -> str:
    """A plan's reply with the KV part of the question before it ('1) kv cache at 128k? 2) how many h100s for 50
    users at 8k'): the plan answers the other part."""
    from gpu_advisor.assistant.inform import Context

    if not turn.ask.get("kv_part"):
        return text
    ctx = Context(lang, turn, filled.model_dump(mode="json"), answer.model_dump(mode="json"),
                  filled.region or "global", recorder)
    return kv_first(ctx, "plan", text)
