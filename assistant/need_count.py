"""The cards a job needs, not the server they are sold in (review AG #14: 'how many h100s? we'd buy them' got 'You need
8 × H100' for Llama 3.1 8B at 500 users, where 2 do it; AH #17: '用几张910B部署' got '需要 8 × 910B' for a 32B model
and 10 people). A board card bought comes in whole servers (tools.recommend plans on the whole server: its price
pays for all of its cards); the count asked is answered with the fewest of the plan's card that do the job (the
recommend tool's evaluate on fewer cards), the server size said beside it."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say

# Fewer counts tried below the plan's, each a whole tensor-parallel group or copies of one.
COUNTS = (1, 2, 4)


def fewest(rec: Any) -> Any:
    """The option on the fewest of the plan's card that does the job, when fewer than the plan's whole server do it;
    else None."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import evaluate

    best = rec.best
    if best is None or best.owned or best.owned_gpus or best.sold_in <= 1 or best.gpus != best.sold_in \
            or rec.workload is None:
        return None
    gpu = find_gpu(best.gpu)
    counts = [c for c in COUNTS if c < best.gpus]
    if rec.workload.requests_per_s or rec.workload._rate_per_s:
        # a request rate sized the plan's copies by the queue (tools.queueing), which a count evaluated alone does
        # not model: the fewest is the plan's own layout, when the whole server was only the purchase's rounding
        # (review AZ #2: 'You need 4 × H100' above a plan of 4 copies × TP2 = 8 for 12 requests a second)
        sized = best.replicas * (best.tp or 1) * best.pp
        counts = [sized] if best.replicas == 1 and sized < best.gpus else []
    for n in counts:
        try:
            o = evaluate(rec.workload, gpu, n)
        except (ToolError, LookupError, ValueError):
            continue
        if o is not None and o.ok:
            return o
    return None


def need_line(rec: Any, lang: str) -> str | None:
    """'**You need 2 × H100** (… per GPU); bought, it comes in servers of 8, so the plan below is the whole server.'"""
    from gpu_advisor.assistant.writers import gb, tps

    o = fewest(rec)
    if o is None:
        return None
    used = o.train_per_gpu_bytes if rec.workload.spec.trains else o.serve_per_gpu_bytes
    if used is None:
        return None
    speed = say(lang, "need_count.speed", tps=tps(o.decode_tokens_per_s)) \
        if rec.workload.spec.serves and o.decode_tokens_per_s else ""
    return say(lang, "need_count.line", n=o.gpus, card=o.gpu_name, used=gb(used), capacity=gb(o.capacity_bytes),
               speed=speed, sold_in=rec.best.sold_in)
