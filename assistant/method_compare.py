"""The reply to two fine-tuning methods compared (intent method_compare): each one's training memory on one GPU
for the model asked about (tools.training.training_memory, the usual 2,048-token sequences, micro-batch 1), what
makes the difference (16-bit weights and no optimizer for the frozen base in LoRA; a 4-bit base in QLoRA; every
weight's gradient and optimizer state in a full fine-tune), and the cards each fits."""

from __future__ import annotations

from typing import Any

from assistant.writers import gb

# The glossary's words for each method, for the concept answer when no model is known.
WORDS = {"lora": "lora", "qlora": "qlora", "full": "full fine-tuning"}
# Card memories people own, the smallest first: where each method fits is said against them.
COMMON_CARDS_GB = (12, 16, 24, 48, 80)


def method_compare(ctx: Any) -> str:
    from assistant.followups import _call
    from tools.common import ToolError
    from tools.training import TrainingMemoryInput, training_memory

    methods = ctx.turn.ask.get("methods") or []
    rec = ctx.rec
    model = ctx.profile.get("model") or (rec.workload.model if rec else None)
    if not model:  # "what's the difference between LoRA and QLoRA?": the glossary's answer, then the offer
        from assistant.writers import glossary_reply
        from knowledge import find_topic

        ctx.data["method_compare"] = None
        topics = dict.fromkeys(t for t in (find_topic(WORDS[m]) for m in methods) if t)
        return "\n\n".join([*(glossary_reply(t, ctx.lang) for t in topics), ctx.say("mcmp.no_model")])
    rows = []
    for method in methods:
        try:
            r = _call(ctx, "training_memory", training_memory, TrainingMemoryInput(model=model, method=method))
        except (ToolError, LookupError, ValueError):
            continue
        rows.append((method, r))
    if not rows:
        return ctx.say("mcmp.no_model")
    ctx.data["method_compare"] = [{"method": m, "per_gpu_bytes": r.per_gpu_total_bytes, "weights_bytes": r.weights_bytes}
                                  for m, r in rows]
    lines = [ctx.say("mcmp.head", model=rows[0][1].model)]
    for method, r in rows:
        fits = next((c for c in COMMON_CARDS_GB if c * 1e9 * 0.95 >= r.per_gpu_total_bytes), None)
        where = ctx.say("mcmp.fits", gb=fits) if fits else ctx.say("mcmp.several")
        lines.append("- " + ctx.say(f"mcmp.{method}", total=gb(r.per_gpu_total_bytes), weights=gb(r.weights_bytes)) + where)
    (m1, r1), (m2, r2) = rows[0], rows[-1]
    if m1 != m2 and r2.per_gpu_total_bytes > 0:
        low, high = sorted((r1, r2), key=lambda r: r.per_gpu_total_bytes)
        lines.append(ctx.say("mcmp.saves", x=f"{high.per_gpu_total_bytes / low.per_gpu_total_bytes:.1f}"))
    lines.append(ctx.say("mcmp.quality"))
    return "\n".join(lines)
