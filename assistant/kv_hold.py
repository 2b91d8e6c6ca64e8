"""'how big is the kv cache for llama 3 70b at 8k with 32 users? and would 2x h100 hold it all': the KV figure
(assistant/followups.kv_cache), then yes or no on the cards named, per weight and KV format (inference_memory on
that many of the card): 16-bit weights and cache, 8-bit weights with a 16-bit cache, both 8-bit. The first that
fits is the answer; the ones before it say why not."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb

# (weights, KV cache) tried in this order: what fits first answers 'would it hold it'.
FORMATS = (("bf16", "bf16"), ("fp8", "bf16"), ("fp8", "fp8"))


def hold_on(ctx: Any, call: Any, model: str, context: int, users: int) -> str:
    """The verdict on the cards named with the KV question (ctx.turn.ask['hold_on'] = [count, card]); '' when none
    were named or the tool cannot size them."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

    named = ctx.turn.ask.get("hold_on")
    if not named:
        return ""
    gpus, gpu_id = int(named[0]), str(named[1])
    try:
        card = find_gpu(gpu_id)
    except LookupError:
        return ""
    rows: list[dict[str, Any]] = []
    for weights, kv in FORMATS:
        if weights == "fp8" and not card.fp8_tflops:
            weights = "int8"  # no FP8 units (A100, 3090): 8-bit weights are INT8 there
        try:
            r = call(ctx, "inference_memory", inference_memory, InferenceMemoryInput(
                model=model, precision=weights, kv_precision=kv, context=context, batch=users, gpus=gpus,
                gpu=gpu_id))
        except (ToolError, LookupError, ValueError):
            continue
        need = r.per_gpu_weights_bytes + r.per_gpu_kv_cache_bytes + r.per_gpu_activation_bytes \
            + r.per_gpu_overhead_bytes
        usable = _usable(r)  # a plan over what the engine may use of a card is no fit, however close
        rows.append({"precision": weights, "kv_precision": kv, "per_gpu_bytes": need,
                     "capacity_bytes": usable, "fits": bool(r.fits) and need <= usable,
                     "weights_bytes": r.weights_bytes, "kv_bytes": r.kv_cache_bytes})
        if rows[-1]["fits"]:
            break
    if not rows:
        return ""
    fits = next((x for x in rows if x["fits"]), None)
    ctx.data["kv_cache"]["hold"] = {"gpu": gpu_id, "gpus": gpus, "rows": rows, "fits": fits is not None,
                                    "fits_with": [fits["precision"], fits["kv_precision"]] if fits else None}
    setup = f"{gpus} × {card.name}"
    shown = fits or rows[-1]
    verdict = "kv_hold.verdict_yes" if fits is not None and fits is rows[0] else \
        "kv_hold.verdict_8bit" if fits is not None else "kv_hold.verdict_no"
    lines = [ctx.say(verdict, setup=setup, weights=shown["precision"].upper(), kv=shown["kv_precision"].upper(),
                     users=f"{users:,}", context=f"{context:,}")]
    for x in rows:
        key = "kv_hold.yes" if x["fits"] else "kv_hold.no"
        lines.append("- " + ctx.say(key, weights=x["precision"].upper(), kv=x["kv_precision"].upper(),
                                    weights_gb=gb(x["weights_bytes"]), kv_gb=gb(x["kv_bytes"]),
                                    per_gpu=gb(x["per_gpu_bytes"]), capacity=gb(x["capacity_bytes"]),
                                    spare=gb(max(0.0, x["capacity_bytes"] - x["per_gpu_bytes"]) * gpus)))
    return "\n".join(lines)


def _usable(r: Any) -> float:
    """What the engine may use of a card: vLLM's share of it (the tool's own term), else the whole card."""
    term = next((t for t in r.terms if t.key == "available_kv_cache_bytes"), None)
    card = float(r.gpu_capacity_bytes or 0.0)
    if term is None or "gpu_memory_utilization" not in term.inputs:
        return card
    return card * float(term.inputs["gpu_memory_utilization"])
