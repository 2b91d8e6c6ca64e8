"""The weight format below the one said that holds the model on the cards asked about ('5090 32g 跑qwen3 32b fp8 …
32k': FP8 does not fit one 5090, Q5_K_M and Q4_K_M do). Each format is sized by the same evaluation an explicit
request for it gets (tools.recommend.evaluate, its engine picked the same way: llama.cpp for a GGUF file on one
person's card), so 'no format of 4 bits or more fits' is said only when the explicit 4-bit request also fails
(review BK #16)."""

from __future__ import annotations

from gpu_advisor.knowledge import find_gpu, find_precision
from gpu_advisor.tools.recommend import TIGHT_HEADROOM, Option, Workload, evaluate

# Tried from the most bits down: 8-bit, the 6- and 5-bit GGUF files, then 4-bit (AWQ on vLLM, Q4_K_M on llama.cpp).
LOWER_FORMATS = ("int8", "q6_k", "q5_k_m", "int4")


def _bits(name: str) -> float:
    return find_precision(name).bits_per_weight


def lower_fits(w: Workload, gpu_id: str, gpus: int) -> Option | None:
    """The option at the highest-bit format below the one said that serves one person on `gpus` × `gpu_id` at the
    workload's context and targets with memory to spare (TIGHT_HEADROOM), else the first that serves at all; None
    when none does (or no format was said)."""
    if not w.serve_precision:
        return None
    said = _bits(w.serve_precision)
    gpu = find_gpu(gpu_id)
    one = w.model_copy(update={"users": 1, "flexible": []})
    fitting: list[Option] = []
    for fmt in LOWER_FORMATS:
        if _bits(fmt) >= said - 0.5:  # no lower than what was said (FP8 against Q8_0 is the same 8 bits)
            continue
        o = evaluate(one.model_copy(update={"serve_precision": fmt}), gpu, gpus)
        if o is not None and o.ok and o.serves:
            if o.headroom_fraction >= TIGHT_HEADROOM:
                return o
            fitting.append(o)
    return fitting[0] if fitting else None
