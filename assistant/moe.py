"""Why a mixture-of-experts model needs memory for every parameter but runs at the speed of its active ones,
for the model asked about, with the tools' figures: the weights at 8 bits (tools.arch.weight_bytes), the
weights one decode step reads for one user and for a batch (tools.arch.params_read_per_step), and the speed
the tools give one user on a reference server of the region's cards (tools.recommend.evaluate)."""

from __future__ import annotations

import time
from typing import Any

from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_gpu, find_model, find_precision
from gpu_advisor.tools.arch import params_read_per_step, weight_bytes
from gpu_advisor.tools.recommend import Workload, evaluate

# The reference server a speed is shown on: eight of the region's usual large-memory card.
REFERENCE = {"china": "h20", "global": "h200-sxm"}
COUNTS = (1, 2, 4, 8)  # the fewest of these cards that hold the model
BATCH = 32  # users at once for "a busy server touches more experts"
FORMAT = "fp8"  # the 8-bit format the memory is shown in


def moe_memory(ctx: Any) -> str:
    from gpu_advisor.assistant.engine import describe

    spec = str(ctx.turn.ask.get("moe") or ctx.profile.get("model") or "")
    model = find_model(spec)
    name = describe("model", spec, ctx.lang)
    fp8 = find_precision(FORMAT)
    total = weight_bytes(model, fp8)
    one = params_read_per_step(model, 1)
    busy = params_read_per_step(model, BATCH)
    one_bytes, busy_bytes = weight_bytes(model, fp8, params=one), weight_bytes(model, fp8, params=busy)
    ctx.data["moe"] = {"model": model.id, "total_params_b": model.total_params_b, "active_params_b": model.active_params_b,
                       "experts": model.num_experts, "experts_per_token": model.experts_per_token,
                       "precision": FORMAT, "bits_per_weight": fp8.bits_per_weight, "weights_bytes": total,
                       "read_one_user_bytes": one_bytes, "batch": BATCH, "read_batch_bytes": busy_bytes,
                       "ratio": total / one_bytes}
    values = {"model": name, "total": f"{model.total_params_b:g}", "active": f"{model.active_params_b:g}",
              "experts": model.num_experts, "k": model.experts_per_token, "gb": gb(total), "one_gb": gb(one_bytes),
              "ratio": f"{total / one_bytes:,.0f}", "batch": BATCH, "busy_gb": gb(busy_bytes)}
    from gpu_advisor.assistant.moe_compare import compare_lines

    compared = compare_lines(ctx, REFERENCE.get(ctx.region, REFERENCE["global"]))  # the question asked, first
    lines = [*compared, *([""] if compared else []), "## " + ctx.say("moe.title", **values), "",
             "- " + ctx.say("moe.memory", **values),
             "- " + ctx.say("moe.speed", **values),
             "- " + ctx.say("moe.batch", **values)]
    reference = _reference(ctx, model.id)
    if reference:
        lines.append("- " + reference)
    lines += ["", ctx.say("moe.rule", **values)]
    return "\n".join(lines)


def fewest_that_hold(ctx: Any, model_id: str, gpu: Any) -> Any:
    """The option of the fewest of `gpu` (COUNTS) that hold `model_id` in FORMAT for one user, each try recorded;
    None when 8 do not."""
    w = Workload(phase="serve", model=model_id, serve_precision=FORMAT, users=1, region=ctx.region)
    for n in COUNTS:
        start = time.perf_counter()
        o = evaluate(w, gpu, n)
        if ctx.recorder is not None:
            ctx.recorder("evaluate_option", {"workload": w.model_dump(mode="json"), "gpu": gpu.id, "gpus": n},
                         o.model_dump(mode="json") if o else {}, (time.perf_counter() - start) * 1000)
        if o is not None and o.ok:
            return o
    return None


def _reference(ctx: Any, model_id: str) -> str | None:
    """One user on the fewest of the region's large cards (1, 2, 4, 8) that hold it in 8-bit, as the tools size it;
    on the card the user named when one was (assistant/moe_card.py)."""
    if ctx.turn.ask.get("moe_card"):
        from gpu_advisor.assistant.moe_card import on_card

        return on_card(ctx, model_id, ctx.turn.ask["moe_card"])
    gpu = find_gpu(REFERENCE.get(ctx.region, REFERENCE["global"]))
    o = fewest_that_hold(ctx, model_id, gpu)
    if o is None or not o.decode_tokens_per_s:
        return None
    ctx.data["reference"] = {"gpu": gpu.name, "gpus": o.gpus, "per_gpu_bytes": o.serve_per_gpu_bytes,
                             "capacity_bytes": o.capacity_bytes, "tokens_per_s": o.decode_tokens_per_s}
    option = f"{o.gpus} × {gpu.name}" if o.gpus > 1 else gpu.name
    return ctx.say("moe.reference", option=option, per=gb(o.serve_per_gpu_bytes or 0), cap=gb(o.capacity_bytes),
                   tps=tps(o.decode_tokens_per_s))
