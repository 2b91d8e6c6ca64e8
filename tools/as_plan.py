"""Another card sized the way a plan of model copies is laid out ('why not 4090s?' beside a plan of twelve
copies): each copy holds its share of the users, so what a card of it needs is one copy's need on that card,
never every user's on one tensor-parallel group."""

from __future__ import annotations

import math

from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools import arch
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.recommend import (
    Option,
    Workload,
    evaluate,
    scaled_option,
    serving_precision,
    serving_tries,
)
from gpu_advisor.tools.scale import Layout


def laid_out_like(w: Workload, gpu: Gpu, plan: Option, n: int | None = None) -> Option | None:
    """`gpu` serving `w` as copies: with a count (a setup the user named, or the plan's own count), the best
    layout of all n cards; without one, the fewest cards that serve it. When no layout serves, the plan's
    copies on this card (each of tensor parallel as wide as the count allows), so the reasons say what one
    copy needs on a card of it."""
    found = scaled_option(w, gpu, count=n) if n else scaled_option(w, gpu)
    if found is not None:
        return found
    model = resolve_model(w.model)
    tries = [t for t in serving_tries(w, gpu, False, serving_precision(w, model, gpu)) if t[0] in ("vllm", "sglang")]
    if not tries:
        return evaluate(w, gpu, n or plan.gpus)
    engine, precision, kv = tries[0]
    valid = arch.valid_tensor_parallel(model, 8)
    replicas = max(1, min(plan.replicas, n or plan.replicas))
    room = (n // replicas) if n else max(valid)
    tp = max([t for t in valid if t <= room] or [min(valid)])
    replicas = max(1, n // tp) if n else replicas
    layout = Layout(tp=tp, replicas=replicas, users_per_replica=math.ceil(w.users / replicas),
                    engine=engine, precision=precision, kv_precision=kv)
    return evaluate(w, gpu, layout.gpus, layout=layout)

__all__ = ["laid_out_like"]
