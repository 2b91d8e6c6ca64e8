"""A MoE model set against a dense one of about its size, asked beside how many users each holds ('为啥 MoE 模型比如
Qwen3-30B-A3B 推理比 32B 稠密模型快那么多，显存却省不了多少？顺便算一下两个模型在一张 H20 上各能撑多少并发'): why (a decode
step reads only the active weights; memory holds all of them: tools.arch.params_read_per_step, weight_bytes) and the
dense model's users at once on the same cards (tools.capacity), beside the MoE model's (assistant.capacity)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_gpu, find_model, find_precision
from gpu_advisor.tools.arch import params_read_per_step, weight_bytes
from gpu_advisor.tools.capacity import capacity
from gpu_advisor.tools.recommend import Workload

FORMAT = "fp8"  # the weights' format when none is said: the bytes a step reads are shown in it


def moe_dense_lines(ctx: Any, w: Workload, gpu_id: str, gpus: int, owned: bool, precision: str | None) -> list[str]:
    """The why, with both models' figures, and the dense model's users at once on `gpus` x `gpu_id`."""
    asked = ctx.turn.ask.get("moe_dense") or {}
    moe, dense = find_model(str(asked.get("moe") or w.model)), find_model(str(asked["dense"]))
    fmt = find_precision(precision or w.serve_precision or FORMAT)
    moe_total, dense_total = weight_bytes(moe, fmt), weight_bytes(dense, fmt)
    moe_step = weight_bytes(moe, fmt, params=params_read_per_step(moe, 1))
    dense_step = weight_bytes(dense, fmt, params=params_read_per_step(dense, 1))
    c = capacity(w.model_copy(update={"model": dense.id}), gpu_id, gpus, owned=owned, precision=precision)
    if ctx.recorder is not None:
        ctx.recorder("capacity", {"workload": w.model_copy(update={"model": dense.id}).model_dump(mode="json"),
                                  "gpu": gpu_id, "gpus": gpus, "precision": precision}, c.model_dump(mode="json"), 0.0)
    ctx.data["moe_dense"] = {"moe": moe.id, "dense": dense.id, "moe_weights_bytes": moe_total,
                             "dense_weights_bytes": dense_total, "moe_step_bytes": moe_step,
                             "dense_step_bytes": dense_step, "dense_users": c.users}
    lines = [ctx.say("moe_dense.why", moe=moe.name, total=f"{moe.total_params_b:g}", active=f"{moe.active_params_b:g}",
                     dense=dense.name, dense_total=f"{dense.total_params_b:g}", precision=fmt.id,
                     moe_step=gb(moe_step), dense_step=gb(dense_step), ratio=f"{dense_step / moe_step:,.0f}",
                     moe_gb=gb(moe_total), dense_gb=gb(dense_total))]
    option = f"{gpus} × {find_gpu(gpu_id).name}"
    at = c.at_limit
    if c.users == 0 or at is None:
        lines.append(ctx.say("moe_dense.none", dense=dense.name, option=option, precision=fmt.id))
    else:
        lines.append(ctx.say("moe_dense.users", dense=dense.name, option=option, users=f"{c.users:,}",
                             tps=tps(at.decode_tokens_per_s or 0)))
    return lines
