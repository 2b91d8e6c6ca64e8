"""The first half of "how much memory does it need, and how many users can our cards take?" (a capacity question
that also asks the memory, or names the checkpoint's own weights, '满血'): the model's memory in the format the
count is made in (tools.inference: weights, then with one conversation's KV cache and the engine's overhead,
all cards together and per card), and whether the cards asked about hold it: yes or no before the count. A
reasoning model's count is made at a usable speed, not reading speed: that floor is said with its reason."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.capacity import REASONING_ANSWER_S, Capacity
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.own_format import NATIVE
from gpu_advisor.tools.recommend import Workload


def asks_memory(ask: dict[str, Any]) -> bool:
    """The question asks the model's memory too, or names the checkpoint's own weights."""
    return ask.get("figure") == "memory" or ask.get("precision") == NATIVE


def memory_lines(ctx: Any, w: Workload, gpu_id: str, gpus: int, fmt: str | None) -> list[str]:
    """The model's memory in `fmt` on `gpus` × `gpu_id` (one conversation of the workload's context), and
    whether it fits there."""
    if not fmt:
        return []
    try:
        r = inference_memory(InferenceMemoryInput(model=w.model, precision=fmt, context=w.context, batch=1,
                                                  gpus=gpus, gpu=gpu_id))
    except ValueError:
        return []
    ctx.data["capacity_memory"] = {"precision": fmt, "weights_bytes": r.weights_bytes, "total_bytes": r.total_bytes,
                                   "per_gpu_bytes": r.per_gpu_total_bytes, "gpus": gpus, "gpu": gpu_id,
                                   "gpu_capacity_bytes": r.gpu_capacity_bytes, "fits": r.fits}
    key = "zh1cap.memory_native" if ctx.turn.ask.get("precision") == NATIVE else "zh1cap.memory"
    head = ctx.say(key, model=resolve_model(w.model).name, fmt=fmt.upper(), weights=gb(r.weights_bytes),
                   total=gb(r.total_bytes), context=f"{w.context:,}", gpus=gpus, per=gb(r.per_gpu_total_bytes))
    card = find_gpu(gpu_id)
    verdict = ctx.say("zh1cap.fits" if r.fits else "zh1cap.no_fit", option=f"{gpus} × {card.name}",
                      total=f"{card.memory_gb * gpus:,.0f}")
    return [head + ("" if ctx.lang == "zh" else " ") + verdict]


def floor_line(ctx: Any, w: Workload, c: Capacity) -> list[str]:
    """Why a reasoning model's users are counted at a higher speed than reading speed."""
    if not c.reasoning_floor:
        return []
    thinking = resolve_model(w.model).reasoning_output_tokens or 0
    return [ctx.say("zh1cap.reasoning_floor", thinking=f"{thinking:,}", floor=tps(c.floor),
                    secs=f"{REASONING_ANSWER_S:.0f}")]
