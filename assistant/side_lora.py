"""A fine-tune asked beside a serving question ("How many cards? Also can we LoRA finetune it on the same boxes?",
"同一台机器晚上闲着，能不能拿来lora微调这个14b，数据大概3万条，每条1k token"): it was refused ("ask it on its own").
Now it is checked on the serving plan's own cards while serving is paused: the method's memory per GPU
(training_memory, ZeRO-3 over the cards) against what a card holds, and the hours for the data given
(training_time), or per 10M tokens when no data was said. When LoRA does not fit, QLoRA on the same cards is tried.
A fine-tune of another model beside the service stays a second job said, not sized here (assistant/pairing.py)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say

PER_RUN = 10_000_000.0  # tokens the hours are said for when the user gave no data
TRAINING = ("fine-tune", "train-and-serve")


def _model(asked: str, first: str) -> str:
    """The model trained: the one named, else the plan's ('这个14b', 'it')."""
    from gpu_advisor.knowledge import find_model

    if not asked:
        return first
    if asked.strip().lower().rstrip("b").replace(".", "").isdigit():
        # a bare size ('这个14b'): the plan's own model, unless the size is another ('full FT on models up to 32B'
        # beside serving a 72B: the 32B is fine-tuned, never the 72B; review AP E13)
        try:
            said, plan = find_model(asked), find_model(first)
        except LookupError:
            return first
        return first if abs(said.total_params_b - plan.total_params_b) <= 0.1 * plan.total_params_b else said.id
    try:
        return find_model(asked).id
    except LookupError:
        return first


def _tokens(also: dict[str, Any]) -> float | None:
    run = also.get("run") or {}
    tokens = run.get("train_tokens") or also.get("train_tokens")
    examples, seq = run.get("train_examples") or also.get("train_examples"), run.get("seq_len")
    if not tokens and examples and seq:
        tokens = float(examples) * float(seq)
    epochs = run.get("epochs") or also.get("epochs") or 1
    return float(tokens) * float(epochs) if tokens else None


def _check(model: str, method: str, gpu: Any, n: int, tokens: float, recorder: Any) -> tuple[Any, Any]:
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
    from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

    mem_in = TrainingMemoryInput(model=model, method=method, gpus=n, zero=3 if n > 1 else None)
    mem = training_memory(mem_in)
    time_in = TrainingTimeInput(model=model, gpu=gpu.id, gpus=n, method=method, tokens=tokens,
                                precision="bf16" if gpu.native_bf16 else "fp16")
    run = training_time(time_in)
    if recorder is not None:
        recorder("training_memory", mem_in.model_dump(mode="json"), mem.model_dump(mode="json"), 0.0)
        recorder("training_time", time_in.model_dump(mode="json"), run.model_dump(mode="json"), 0.0)
    return mem, run


def serving_side_training(answer: Any, also: dict[str, Any] | None, lang: str, first_model: str,
                          recorder: Any) -> str:
    """The paragraph on the fine-tune asked beside a serving plan, on the plan's cards; empty when it does not apply."""
    from gpu_advisor.assistant.pairing import _name
    from gpu_advisor.assistant.writers import gb, hours
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import usable_bytes

    rec = answer.recommend
    best = rec.best if rec else None
    if not also or also.get("phase") not in TRAINING or best is None or answer.training_memory is not None \
            or not first_model:
        return ""
    model = _model(str(also.get("model") or ""), first_model)
    if model != first_model and not model.startswith("generic-") and not also.get("side"):
        return ""  # another model's fine-tune beside the service: said as a second job (pairing), sized on its own
    asked = str(also.get("method") or (also.get("run") or {}).get("method") or "lora")
    data = _tokens(also)
    tokens = data or PER_RUN
    gpu, n = find_gpu(best.gpu), int(best.gpus)
    room = usable_bytes(gpu)
    tried = [asked] + (["qlora"] if asked == "lora" else [])
    try:
        checks = []
        for method in tried:
            mem, run = _check(model, method, gpu, n, tokens, recorder)
            checks.append((method, mem, run))
            if mem.per_gpu_total_bytes <= room:
                break
    except (ToolError, LookupError, ValueError):
        return ""
    method, mem, run = checks[-1]
    fits = mem.per_gpu_total_bytes <= room
    also["sized"] = {"model": model, "method": method, "gpu": gpu.id, "gpus": n, "fits": fits,
                     "per_gpu_bytes": mem.per_gpu_total_bytes, "capacity_bytes": room, "hours": run.hours,
                     "tokens": tokens}
    first = checks[0]
    args = {"model": _name(model), "n": n, "card": gpu.name, "have": gb(room), "hours": hours(run.hours),
            "tokens": f"{tokens / 1e6:,.0f}M", "method": say(lang, f"method.{method}"),
            "asked": say(lang, f"method.{first[0]}"), "need": gb(mem.per_gpu_total_bytes),
            "need_asked": gb(first[1].per_gpu_total_bytes)}
    if not fits:
        return say(lang, "second2.side_no", **args)
    key = "second2.side_yes" if len(checks) == 1 else "second2.side_lighter"
    tail = say(lang, "second2.side_data" if data else "second2.side_per", **args)
    return say(lang, key, **args) + ("" if lang == "zh" else " ") + tail
