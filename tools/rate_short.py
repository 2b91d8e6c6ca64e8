"""Why fewer cards than a rate plan do not serve its rate ("why not just 1 H100?"): the constraint a fixed count
of one card fails, from the same queueing model the plan was sized with (tools.queueing).

The constraint is the first of, in order: memory (the count holds no copy of the model: a copy needs more cards),
load (the copies that fit sustain fewer requests a second than arrive, each loaded to at most the utilisation cap),
the first-token target (they keep up, but the first token at the percentile said comes later than the target).
When none fails, the count does the job (`meets`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.queueing import MAX_UTILISATION, RateInput, RateResult, size_by_rate

Constraint = Literal["memory", "load", "ttft", "meets"]


class RateShort(BaseModel):
    """A fixed count of one card against a request rate."""

    gpu: str
    gpus: int
    requests_per_s: float
    constraint: Constraint = Field(description="the first requirement the count fails, or 'meets'")
    unit_gpus: int | None = Field(None, description="GPUs one copy of the model needs (tp x pp)")
    copies: int = Field(0, description="copies of the model the count holds")
    sustain_rps: float | None = Field(None, description="requests/s those copies sustain at the utilisation cap")
    load: float | None = Field(None, description="the rate over what the copies sustain at full capacity")
    ttft_target_ms: float | None = None
    ttft_percentile: float | None = None
    ttft_q_s: float | None = Field(None, description="first token at the percentile on this count, when it keeps up")
    needed_gpus: int | None = Field(None, description="the fewest cards of this kind that serve the rate")
    cap: float = MAX_UTILISATION


def _size(inp: RateInput, **change: object) -> RateResult | None:
    try:
        return size_by_rate(inp.model_copy(update=change))
    except (ToolError, ValueError):
        return None


def rate_short(inp: RateInput, gpus: int) -> RateShort:
    """`inp`: the plan's rate sizing inputs on this card (its model, format, lengths, target, GPU limit);
    `gpus`: the count asked about. What that count fails, with the figures that show it."""
    base = dict(gpu=inp.gpu, gpus=gpus, requests_per_s=inp.requests_per_s, ttft_target_ms=inp.ttft_target_ms,
                ttft_percentile=inp.ttft_percentile if inp.ttft_target_ms else None, cap=inp.max_utilisation)
    need = _size(inp) or _size(inp, ttft_target_ms=None)
    needed = need.gpus if need else None
    here = _size(inp, max_gpus=gpus)
    if here is not None and here.gpus <= gpus:
        return RateShort(**base, constraint="meets", unit_gpus=here.unit_gpus, copies=here.replicas,
                         sustain_rps=here.replicas * here.replica_capacity_rps * inp.max_utilisation,
                         load=here.utilisation, ttft_q_s=here.ttft_q_s, needed_gpus=needed)
    # the copies of the model this count holds, each unit of tp cards (one server's tensor parallel), sized freely
    # so that its capacity is known: the unit whose copies sustain the most requests a second
    units = [r for tp in (1, 2, 4, 8, 16) if tp <= gpus
             for r in [_size(inp, tp=tp, pp=1, ttft_target_ms=None, max_gpus=max(inp.max_gpus, gpus))] if r is not None]
    if not units:
        return RateShort(**base, constraint="memory", unit_gpus=need.unit_gpus if need else None, needed_gpus=needed)
    unit = max(units, key=lambda r: (gpus // r.unit_gpus) * r.replica_capacity_rps)
    copies = gpus // unit.unit_gpus
    capacity = copies * unit.replica_capacity_rps
    figures = dict(unit_gpus=unit.unit_gpus, copies=copies, sustain_rps=capacity * inp.max_utilisation,
                   load=inp.requests_per_s / capacity, needed_gpus=needed)
    if inp.requests_per_s > capacity * inp.max_utilisation:
        return RateShort(**base, constraint="load", **figures)
    loose = _size(inp, tp=unit.unit_gpus, pp=1, ttft_target_ms=None, max_gpus=gpus)
    return RateShort(**base, constraint="ttft", ttft_q_s=loose.ttft_q_s if loose else None, **figures)
