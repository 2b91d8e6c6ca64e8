"""The side job of one kind beside the main one: "mostly lora on the 70b, sometimes full finetune on the 8b"
(reading/main_side.py keeps the side job, with its method, in the `also` slot). The plan is sized for the main
job; this checks the side one on the plan's own cards: its memory per GPU (training_memory, sharded as the plan
is) against what a card holds, and its hours for the plan's tokens per run (training_time). The figures go into
the second job's record (the reply's 'second_job'), so that every number said is a tool's."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def checked(also: dict[str, Any] | None) -> bool:
    """Whether the second job is one this module checks: a training run with its own method said."""
    return bool(also and also.get("phase") == "fine-tune" and also.get("method"))


def side_training(answer: Any, also: dict[str, Any] | None, lang: str, first_model: str, recorder: Any) -> str:
    """The paragraph on the side training run on the plan's cards; empty when the plan is no training run."""
    from gpu_advisor.assistant.pairing import _name
    from gpu_advisor.assistant.writers import gb, hours
    from gpu_advisor.knowledge import find_gpu, find_model
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import usable_bytes
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
    from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

    if answer.training_memory is None:  # a serving plan: the fine-tune asked beside it, on the same cards
        from gpu_advisor.assistant.side_lora import serving_side_training
        return serving_side_training(answer, also, lang, first_model, recorder)
    rec = answer.recommend
    best = rec.best if rec else None
    if also is None or not checked(also) or best is None or answer.training_memory is None:
        return ""
    model, method, n = str(also.get("model") or first_model), str(also["method"]), int(best.gpus)
    gpu = find_gpu(best.gpu)
    try:
        tokens = rec.workload.tokens_per_run(find_model(model))
        mem_in = TrainingMemoryInput(model=model, method=method, gpus=n, zero=3 if n > 1 else None)
        mem = training_memory(mem_in)
        time_in = TrainingTimeInput(model=model, gpu=gpu.id, gpus=n, method=method, tokens=tokens,
                                    precision="bf16" if gpu.native_bf16 else "fp16")
        run = training_time(time_in)
    except (ToolError, LookupError, ValueError):
        return ""
    if recorder is not None:
        recorder("training_memory", mem_in.model_dump(mode="json"), mem.model_dump(mode="json"), 0.0)
        recorder("training_time", time_in.model_dump(mode="json"), run.model_dump(mode="json"), 0.0)
    room = usable_bytes(gpu)
    fits = mem.per_gpu_total_bytes <= room
    also["sized"] = {"model": model, "method": method, "gpu": gpu.id, "gpus": n, "fits": fits,
                     "per_gpu_bytes": mem.per_gpu_total_bytes, "capacity_bytes": room, "hours": run.hours,
                     "tokens": tokens}
    return say(lang, "side.fits" if fits else "side.no", method=say(lang, f"method.{method}"), model=_name(model),
               first=_name(first_model), n=n, card=gpu.name, need=gb(mem.per_gpu_total_bytes), have=gb(room),
               hours=hours(run.hours), tokens=f"{tokens / 1e6:,.0f}M")
