"""An end-to-end target that no count of a card meets (review AZ #11: Mistral 7B on L4, 400 tokens within 2 s p99
needs about 200 tokens/s per stream; one L4 reads the weights for every token at 300 GB/s and tops out near 40 even
alone): the fastest one stream decodes on one copy of the plan's card with nothing else running (batch 1,
tools.throughput), against the speed the target needs after the first token. When the ceiling is below the need,
more copies (less load each) cannot meet it: only a faster card, shorter answers or another target can."""

from __future__ import annotations

from typing import Any

from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.queueing import Traffic
from gpu_advisor.tools.throughput import SpeedInput, speed


def stream_bound(best: Any, w: Any, traffic: Traffic) -> None:
    """Sets traffic.stream_tps_max and stream_tps_needed for the plan `best` (an Option) missing w.e2e_ms at the
    rate; leaves them None when not sized."""
    output = best.e2e_output_tokens or 0
    if w.e2e_ms is None or best.precision is None or output < 2 or best.e2e_first_s is None:
        return
    left = w.e2e_ms / 1000 - best.e2e_first_s
    copy = best.tp or max(1, best.gpus // max(1, best.replicas * best.pp))
    try:
        alone = speed(SpeedInput(model=w.model, precision=best.precision, gpu=best.gpu, gpus=copy, pp=best.pp,
                                 batch=1, context=(traffic.prompt_tokens or 0) + output,
                                 engine=best.engine if best.engine in ("vllm", "sglang") else None))
    except (ToolError, ValueError, LookupError):
        return
    traffic.stream_tps_max = alone.decode_tokens_per_s
    traffic.stream_tps_needed = (output - 1) / left if left > 0 else None
