"""Cards of several kinds owned in one machine, trained on together (review AT C20): 'i have one 4090 and one
3090 in my rig, want to qlora llama 3.1 70b … doable?', or the same said as a correction ('oh wait no, its one 4090
and one 3090'). A LoRA/QLoRA run splits the model's layers across the cards (Accelerate device_map, llama.cpp-style
pipeline), so their memory adds up and the slowest card sets the pace: the plan is sized as that many of the
weakest card (least memory, then least compute), and the answer says so first, yes or no. Before, each card was
checked alone and the plan rented a B200."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.premise import counted
from gpu_advisor.knowledge import find_gpu

SPLIT_METHODS = ("qlora", "lora")
MAX_POOLED = 8  # cards of one machine


def pooled_owned(profile: Any) -> dict[str, Any] | None:
    """{'owned': [the pool as N × the weakest card], 'cards': the owned entries, 'pace': weakest id} when the
    profile trains with LoRA/QLoRA on owned cards of several kinds in one machine; None otherwise."""
    owned = [counted(e) for e in profile.owned or []]
    if profile.phase != "fine-tune" or (profile.method or "lora") not in SPLIT_METHODS or len({c for _n, c in owned}) < 2:
        return None
    total = sum(n for n, _c in owned)
    try:
        gpus = [find_gpu(c) for _n, c in owned]
    except LookupError:
        return None
    if total > MAX_POOLED or len({g.vendor for g in gpus}) != 1 or any(g.vendor == "apple" for g in gpus):
        return None
    pace = min(gpus, key=lambda g: (g.memory_gb, g.bf16_tflops or 0))
    slow = min(gpus, key=lambda g: g.bf16_tflops or 0)
    return {"owned": [f"{total}x {pace.id}"], "cards": list(profile.owned), "pace": pace.id, "slow": slow.id,
            "total": total}


def pooled_line(pool: dict[str, Any], rec: Any, lang: str) -> str:
    """The answer first: whether the pooled cards do the job, and how they are sized."""
    from gpu_advisor.assistant.card_diff import short_name

    cards = say(lang, "corr3.pool_join").join(
        f"{n} × {short_name(c)}" if n > 1 else short_name(c) for n, c in (counted(e) for e in pool["cards"]))
    mine = [o for o in getattr(rec, "owned_options", None) or [] if o.owned and not o.owned_gpus]
    ok = any(o.ok for o in mine)
    key = "corr3.pool_yes" if ok else "corr3.pool_no"
    return say(lang, key, cards=cards, slow=short_name(pool["slow"]), n=pool["total"], pace=short_name(pool["pace"]))
