"""'does quantization fix it?', '量化能解决吗' on a slow setup of the user's own (review AR 17: a DGX H100 serving Qwen2.5
72B in BF16 to 60 users, 'second box or quantization?', where quantisation was never addressed). The lever in figures,
each the recommend tool's evaluate on the user's own cards: the 8-bit format their cards run (FP8 where they have FP8
units, else INT8) as copies on half as many cards each (2 × TP4 on a box of 8), then 4-bit (AWQ), each against the
speed they get now, with the memory one copy's weights free and what each costs in quality."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def _try(rec: Any, mine: Any, precision: str, split: int) -> Any:
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import evaluate
    from gpu_advisor.tools.scale import Layout

    gpu, w = find_gpu(mine.gpu), rec.workload
    units = max(1, mine.gpus // split)
    layout = Layout(tp=split, replicas=units, users_per_replica=-(-w.users // units), engine=mine.engine or "vllm",
                    precision=precision, kv_precision=None)
    try:
        o = evaluate(w.model_copy(update={"serve_precision": precision}), gpu, mine.gpus, owned=True, layout=layout)
    except (ValueError, LookupError):
        return None
    return o if o is not None and o.serves and o.decode_tokens_per_s else None


def _best(rec: Any, mine: Any, precision: str) -> Any:
    """The layout in this format that is fastest per user: copies on half the cards each, else as laid out now."""
    split = mine.tp or max(1, mine.gpus // max(mine.replicas, 1))
    found = [o for s in dict.fromkeys((max(1, split // 2), split)) for o in [_try(rec, mine, precision, s)] if o]
    return max(found, key=lambda o: o.decode_tokens_per_s, default=None)


def quant_words(rec: Any, mine: Any, lang: str) -> str | None:
    """The paragraph on quantising, or None when their weights are already 8-bit or less."""
    from gpu_advisor.assistant.writers import tps
    from gpu_advisor.knowledge import find_gpu

    if (mine.precision or "bf16") not in ("bf16", "fp16") or not mine.decode_tokens_per_s:
        return None
    gpu = find_gpu(mine.gpu)
    eight = "fp8" if gpu.fp8_tflops else "int8"
    lines = []
    for precision, key in ((eight, "quant_lever.eight"), ("awq", "quant_lever.four")):
        o = _best(rec, mine, precision)
        if o is None:
            continue
        unit = o.gpus // max(o.replicas, 1)
        layout = f"{o.replicas} × TP{unit}" if o.replicas > 1 else f"TP{unit}"
        lines.append(say(lang, key, fmt=precision.upper(), layout=layout, tps=tps(o.decode_tokens_per_s),
                         now=tps(mine.decode_tokens_per_s), x=f"{o.decode_tokens_per_s / mine.decode_tokens_per_s:.1f}",
                         card=gpu.name))
    if not lines:
        return None
    return say(lang, "quant_lever.head") + ("" if lang == "zh" else " ") + ("" if lang == "zh" else " ").join(lines)
