"""'why not deepspeed' after a fine-tuning plan: the run on the plan's own cards with the framework it is sized
with and with the one asked about, side by side (training_memory and training_time for each), and what that
framework's sharding does on this many GPUs. Nothing is re-planned; 'with DeepSpeed' plans with it."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb, hours


def framework_why(ctx: Any) -> str:
    from gpu_advisor.assistant.followups import _call, _sep
    from gpu_advisor.tools.recommend import training_setup, training_time_setup
    from gpu_advisor.tools.training import find_framework, training_memory
    from gpu_advisor.tools.training_time import training_time

    asked = find_framework(str(ctx.turn.ask.get("framework")))
    rec = ctx.rec
    run = rec.trains_on if rec else None
    if rec is None or run is None or not rec.workload.spec.trains or rec.workload.reinforces:
        ctx.data["framework_why"] = {"plan": False, "framework": asked.id}
        return ctx.say("fup.fw.no_plan", framework=asked.name)
    w = rec.workload
    now = find_framework(w.framework)
    if now.id == asked.id:
        ctx.data["framework_why"] = {"plan": True, "framework": asked.id, "same": True}
        return ctx.say("fup.fw.already", framework=asked.name)
    rows: list[dict[str, Any]] = []
    for fw in (now, asked):
        # the plan as answered (with no framework named, full fine-tuning is sized in mixed precision), then the asked
        with_fw = w if fw is now else w.model_copy(update={"framework": fw.id})
        mem = _call(ctx, "training_memory", training_memory, training_setup(with_fw, run.gpus, run.gpu))
        t = _call(ctx, "training_time", training_time, training_time_setup(with_fw, run.gpu, run.gpus, run.owned))
        rows.append({"framework": fw.id, "per_gpu_bytes": mem.per_gpu_total_bytes, "hours": t.hours})
    ctx.data["framework_why"] = {"plan": True, "framework": asked.id, "gpu": run.gpu, "gpus": run.gpus, "rows": rows}
    lines = [ctx.say("fup.fw.compare", now=now.name, asked=asked.name, option=f"{run.gpus} × {run.gpu_name}",
                     mem_now=gb(rows[0]["per_gpu_bytes"]), hours_now=hours(rows[0]["hours"]),
                     mem_asked=gb(rows[1]["per_gpu_bytes"]), hours_asked=hours(rows[1]["hours"]))]
    if run.gpus == 1 and asked.multi_gpu_zero:  # a framework whose point is sharding, on one card
        lines.append(ctx.say("fup.fw.one_gpu", asked=asked.name))
    lines.append(ctx.say("fup.fw.switch", asked=asked.name))
    return _sep(ctx).join(lines)
