"""A chat service whose per-user speed is at about reading speed: said as such, with what fixes it.

A plan can pass the project's reading-speed floor (tools.recommend MIN_TOKENS_PER_S, about 6 tokens/s) and
still stream each user's answer barely ahead of the reader: under SLOW_CHAT_TOKENS_PER_S a chat for several
people feels slow (long answers and code trail the eye; review AX #5: 7.9 tokens/s per user for DeepSeek-V3 on
32 Ascend 910B for 200 users, not flagged). The plan then carries one warning that gives the speed and the fix,
sized by the tools: more copies of the same layout, each holding fewer of the users at once (tools.throughput
speed at that batch), the fewest copies (up to MAX_COPIES) that reach the mark; else fewer users per copy."""
from __future__ import annotations

import math

from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.recommend import Option, Recommendation, Workload
from gpu_advisor.tools.throughput import SpeedInput, speed

# per user, tokens/s: below this a chat service for several people reads as slow (about 1.5x the reading-speed
# floor of about 6 tokens/s, Brysbaert 2019, so answers stay ahead of a reader skimming code and lists)
SLOW_CHAT_TOKENS_PER_S = 10.0
# copies of the plan's layout tried for the fix: the plan's copies times 2, 3, 4
MAX_COPIES = 4


# Smaller weight formats tried first on cards the user owns (8-bit, then 4-bit), by engine: fewer bytes read per
# token is the lever that costs no hardware (review BE #16: four owned V100s at f16, 6.4 tokens/s per user).
SMALLER_FORMATS = {"llama.cpp": ("q8_0", "q4_k_m"), "vllm": ("w8a8-int8", "awq")}
SIXTEEN_BIT = ("bf16", "fp16", "f16", "gguf-bf16")


def _per_user(w: Workload, o: Option, users_per_copy: int, precision: str | None = None) -> float | None:
    try:
        return speed(SpeedInput(model=w.model, precision=precision or o.precision or "bf16", gpu=o.gpu,
                                gpus=o.tp or o.gpus,
                                pp=o.pp, batch=users_per_copy, context=w.context, engine=o.engine or "vllm",
                                kv_precision=o.kv_precision)).decode_tokens_per_s
    except (ToolError, ValueError):
        return None


def flag_slow_chat(w: Workload, rec: Recommendation) -> Recommendation:
    """The recommendation, its plan warned when several people chat with it at under SLOW_CHAT_TOKENS_PER_S each
    (a speed the user stated, a batch job, one user, or a plan that is not met is left as it is)."""
    o = rec.best
    if o is None or not o.ok or not w.spec.serves or w.spec.trains or w.users < 2 or w.min_tokens_per_s is not None \
            or w.requests_per_s or not o.decode_tokens_per_s or o.decode_tokens_per_s >= SLOW_CHAT_TOKENS_PER_S:
        return rec
    copies = max(1, o.replicas)
    per_copy_gpus = max(1, o.gpus // copies)
    fix = ""
    for k in range(2, MAX_COPIES + 1):
        per_user = _per_user(w, o, math.ceil(w.users / (copies * k)))
        if per_user is not None and per_user >= SLOW_CHAT_TOKENS_PER_S:
            fix = (f"; {copies * k} copies of this layout ({copies * k * per_copy_gpus:,} GPUs, "
                   f"{math.ceil(w.users / (copies * k)):,} users each) give about {per_user:.0f} tokens/s per user")
            break
    smaller = _smaller_format(w, o, math.ceil(w.users / copies)) if o.owned else None
    if smaller is not None:  # on cards owned, a smaller format first: no hardware bought
        fix = f"; on these cards in {smaller[0].upper()} it is about {smaller[1]:.0f} tokens/s per user, at a small loss of quality"
    warning = (f"{o.decode_tokens_per_s:.1f} tokens/s per user is only about reading speed (under "
               f"{SLOW_CHAT_TOKENS_PER_S:g} tokens/s): answers trail the reader and long answers feel slow"
               + (fix or "; fewer users per copy or a faster card would fix it"))
    best = o.model_copy(update={"warnings": [*o.warnings, warning]})
    return rec.model_copy(update={"best": best})


def _smaller_format(w: Workload, o: Option, users_per_copy: int) -> tuple[str, float] | None:
    """The first smaller weight format (8-bit, then 4-bit) that brings the plan's layout to SLOW_CHAT_TOKENS_PER_S
    per user, with that speed; None when the plan is not in 16 bits or none reaches it."""
    if (o.precision or "bf16") not in SIXTEEN_BIT:
        return None
    for fmt in SMALLER_FORMATS.get(o.engine or "vllm", ()):
        per_user = _per_user(w, o, users_per_copy, fmt)
        if per_user is not None and per_user >= SLOW_CHAT_TOKENS_PER_S:
            return fmt, per_user
    return None
