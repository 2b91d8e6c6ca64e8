"""FP8 on the cards you own, the first lever before buying more (review AZ #12: 16 H100 serving a 72B model in BF16
at 30 requests a second need about 40; FP8 runs prefill on the FP8 tensor cores at twice BF16's rate and halves the
weights, so the same 16 go much further). Sized with the same queueing model (tools.queueing) as the 16-bit count:
what the owned cards sustain in FP8, and how many of that card the rate needs in FP8."""

from __future__ import annotations

from typing import Any

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.queueing import MAX_UTILISATION, RateInput, Traffic, size_by_rate

SIXTEEN_BIT = ("bf16", "fp16")


def fp8_on_owned(traffic: Traffic, args: dict[str, Any], have: int, ttft_ms: float | None, most: int) -> None:
    """Sets traffic.fp8_owned_rps and fp8_needed_gpus when the owned cards serve in 16 bits, short of the rate, on a
    card with FP8 units; `args`: the RateInput the 16-bit count was sized with, `have`: the cards owned, `most`:
    the largest count sized."""
    if args.get("precision") not in SIXTEEN_BIT:
        return
    try:
        if not find_gpu(str(args["gpu"])).fp8_tflops:
            return
    except LookupError:
        return
    eight = {**args, "precision": "fp8"}
    for target in (ttft_ms, None):
        try:
            need = size_by_rate(RateInput(**eight, ttft_target_ms=target, max_gpus=most))
        except (ToolError, ValueError):
            continue
        traffic.fp8_needed_gpus = need.gpus
        traffic.fp8_owned_rps = (have // need.unit_gpus) * need.replica_capacity_rps * MAX_UTILISATION
        return
