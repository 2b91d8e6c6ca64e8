"""The card named to rent beside a setup to buy, sized for the job ('买 8 张 H20 还是租云上的 H800', 'buy an
8x4090 box or rent H800s'): the fewest cards of it that do the job, in one server (1, 2, 4, 8) or beyond it
(tools.recommend.scaled_option: DeepSeek-V3 on H800 takes two servers, 16 cards), never one card that does not
fit. A service runs the same hours on either setup, so its rented hours are the setup's (ratio 1); a job with
run hours (training, a batch) takes the rented card's hours for the same runs."""

from __future__ import annotations

from typing import Any

SERVER_COUNTS = (1, 2, 4, 8)


def sized(rec: Any, gpu: str) -> Any:
    """The option of the fewest `gpu` cards that do the job, else None."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import evaluate, scaled_option

    card = find_gpu(gpu)
    for k in SERVER_COUNTS:
        o = evaluate(rec.workload, card, k)
        if o is not None and o.ok:
            return o
    if not rec.workload.spec.serves:
        return None
    o = scaled_option(rec.workload, card)
    return o if o is not None and o.ok else None


def rented_for(rec: Any, gpu: str, n: int, named: list[str]) -> tuple[int, str, float] | None:
    """(cards, card, rented hours per hour of the setup's work) for the first card named to rent that does the
    job, sized (sized); None when none is named, none does it, or the job's hours on either are unknown."""
    if rec is None:
        return None
    for name in named:
        o = sized(rec, name)
        if o is None or not o.usd_per_hour:
            continue
        if not (o.job_hours or rec.workload.spec.trains or rec.workload.spec.batch):
            return o.gpus, o.gpu, 1.0  # a service: the same hours on either setup
        mine = next((x for x in rec.options if x.gpu == gpu and x.gpus == n and x.job_hours), None)
        if mine is not None and o.job_hours:
            return o.gpus, o.gpu, o.job_hours / mine.job_hours
    return None


def service(rec: Any) -> bool:
    """A service only (no training run, no batch): the rented setup runs the same hours as the bought one."""
    spec = rec.workload.spec if rec is not None else None
    return bool(spec is not None and spec.serves and not spec.trains and not spec.batch)
