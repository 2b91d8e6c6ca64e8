"""What a monthly budget sustains ('how many req/s can $40k a month get me', '每月5万能撑多少QPS'): on each card, the
most cards the budget rents for the hours the service runs, laid out as copies of the model (the unit whose copies
sustain the most), and the requests a second they sustain at the utilisation cap, from the same queueing model a
rate plan is sized with (tools.queueing). Lengths and format are the plan's (tools.recommend.rate_lengths)."""

from __future__ import annotations

import math

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.cost import try_price
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.queueing import MAX_UTILISATION, P99, RateInput, size_by_rate
from gpu_advisor.tools.recommend import (
    Workload,
    quoted,
    rate_lengths,
    rate_precision,
    service_hours,
    serving_precision,
)
from gpu_advisor.tools.scale import MAX_SERVING_GPUS, SERVER_GPUS

UNITS = (1, 2, 4, 8, 16)  # tensor-parallel sizes of one copy tried


class BudgetRate(BaseModel):
    """One card: what the budget rents of it and the rate those cards sustain."""

    gpu: str
    gpu_name: str
    gpus: int = Field(description="cards the plan uses: whole copies of the model within the budget")
    unit_gpus: int = Field(description="GPUs one copy of the model takes")
    copies: int
    usd_per_month: float = Field(description="those cards for the hours the service runs a month")
    sustain_rps: float = Field(description="requests/s the copies sustain at the utilisation cap")
    precision: str
    prompt_tokens: int
    output_tokens: int
    cap: float = MAX_UTILISATION


def _per_card_month(w: Workload, gpu_id: str) -> float | None:
    said = quoted(w, gpu_id)
    if said is not None and said.usd_per_gpu_hour is not None:
        return said.usd_per_gpu_hour * service_hours(w)
    quote = try_price(gpu_id, w.region)
    rent = quote.usd_per_gpu_hour_typical if quote else None
    return rent * service_hours(w) if rent else None


def budget_rate(w: Workload, gpu_id: str, budget_usd_per_month: float, engine: str | None = None,
                precision: str | None = None) -> BudgetRate | None:
    """The rate `budget_usd_per_month` sustains on `gpu_id`; None when it has no price, the budget rents no copy of
    the model, or no layout holds the model."""
    gpu = find_gpu(gpu_id)
    month = _per_card_month(w, gpu.id)
    if not month or budget_usd_per_month <= 0:
        return None
    most = min(int(budget_usd_per_month // month), MAX_SERVING_GPUS)
    prompt, output, _ = rate_lengths(w)
    fmt = rate_precision(w, gpu.id, precision or serving_precision(w, resolve_model(w.model), gpu), engine)
    base = RateInput(model=w.model, gpu=gpu.id, precision=fmt, engine="sglang" if engine == "sglang" else "vllm",
                     requests_per_s=0.01, prompt_tokens=prompt, output_tokens=output,
                     ttft_percentile=w.ttft_percentile or P99,
                     **w.queue_speed_targets(),
                     server_gpus=w.server_gpus or SERVER_GPUS)
    found: list[tuple[float, int, int]] = []  # (sustained rps, unit GPUs, copies)
    for tp in UNITS:
        if tp > most:
            break
        try:
            r = size_by_rate(base.model_copy(update={"tp": tp, "pp": 1, "replicas": 1, "max_gpus": max(tp, most)}))
        except (ToolError, ValueError):
            continue
        copies = most // r.unit_gpus
        if copies:
            found.append((copies * r.replica_capacity_rps * MAX_UTILISATION, r.unit_gpus, copies))
    if not found:
        return None
    rps, unit, copies = max(found, key=lambda f: (f[0], -f[1]))
    n = unit * copies
    return BudgetRate(gpu=gpu.id, gpu_name=gpu.name, gpus=n, unit_gpus=unit, copies=copies,
                      usd_per_month=math.ceil(n * month), sustain_rps=rps, precision=fmt,
                      prompt_tokens=prompt, output_tokens=output)
