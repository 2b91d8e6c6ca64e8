"""Owned first for a full fine-tune (review BF 3: 'lab has 16 x A100 40GB, full finetune llama 3.1 70B on 300M
tokens, do we need to buy more hardware? deadline 3 weeks' was answered 'Yes … rent 8 x B200' beside its own
ZeRO-3 + CPU offload plan on the 16 owned cards in 19-38 h).

When the one kind of card the user owns cannot hold the full fine-tune as planned, but DeepSpeed ZeRO-3 with the
optimizer in CPU memory keeps it on them (tools.zero_offload) and its slow end still meets the deadline (no deadline
said: within OFFLOAD_NO_DEADLINE_H), the plan is those cards with that offload: nothing is bought or rented, and the
rented plan that finishes sooner stays the alternative (`instead`). Its time is the slow end of the offload range,
its memory the offload plan's per GPU. System RAM said too small for the states: not taken."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Recommendation, Workload

# Without a deadline, an offload run that takes longer than a week is no plan to keep on your cards by default:
# renting finishes it sooner at a price the answer states.
OFFLOAD_NO_DEADLINE_H = 168.0
# The stacks DeepSpeed ZeRO-3 with CPU optimizer offload runs on (deepspeed.ai: NVIDIA CUDA and AMD ROCm).
ZERO_OFFLOAD_STACKS = ("cuda", "rocm")
# The code the plan carries in Recommendation.relaxed (the writers' lever sentence says it).
ZERO_OFFLOAD = "zero_offload"


def offload_on_owned(w: Workload, rec: Recommendation) -> Recommendation | None:
    """The owned cards with ZeRO-3 CPU offload as the plan, or None (see the module)."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.zero_offload import zero_offload_plan  # (zero_offload imports tools.recommend)

    best = rec.best
    if (best is not None and best.owned) or len(rec.owned_options) != 1 or not w.spec.trains or w.spec.serves:
        return None
    mine = rec.owned_options[0]
    if mine.trains is not False or mine.owned_gpus or find_gpu(mine.gpu).stack not in ZERO_OFFLOAD_STACKS:
        return None  # (DeepSpeed's CPU offload runs on CUDA and ROCm cards: never a Mac or an Ascend)
    plan = zero_offload_plan(w, mine)
    if plan is None or not plan.fits or plan.ram_ok is False:
        return None
    limit = w.deadline_hours if w.deadline_hours is not None else OFFLOAD_NO_DEADLINE_H
    if plan.hours_high > limit:
        return None
    meets = dict(mine.meets) | ({"deadline": True} if w.deadline_hours is not None else {})
    kept = mine.model_copy(update={
        "trains": True, "ok": True, "reasons": [], "train_per_gpu_bytes": plan.per_gpu_bytes,
        "headroom_fraction": 1 - plan.per_gpu_bytes / plan.capacity_bytes, "job_hours": plan.hours_high,
        "training_hours": plan.hours_high, "meets": meets})
    options = [kept, *[o for o in rec.options if not (o.owned and o.gpu == mine.gpu)]]
    return rec.model_copy(update={"best": kept, "action": "use", "relaxed": ZERO_OFFLOAD, "instead": best,
                                  "owned_options": [kept], "options": options, "rent_or_buy": None,
                                  "owned_as_planned": mine})
