"""Two setups the user named, weighed at the precision that fits each (review AL 5: 'rtx pro 6000 or 2x 5090s,
hobby use, 70b'): a count said that falls short on memory at the plan's 8-bit format is sized again at 4-bit
(llama.cpp's Q4_K_M, AWQ on vLLM) when the user never named a format, so the comparison says 2 × 5090 runs
70B at 4-bit instead of 'falls short'. Every figure is the tool's (tools.recommend.evaluate)."""

from __future__ import annotations

from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools.recommend import FOUR_BIT, Option, Workload, evaluate


def fitting_precision(w: Workload, gpu: Gpu, count: int | None, o: Option) -> Option:
    """The option at 4-bit when the count said holds the model only there; else the option as sized."""
    if o.ok or not count or w.serve_precision is not None or not w.spec.serves or (o.precision or "") in FOUR_BIT:
        return o
    four = evaluate(w.model_copy(update={"serve_precision": "int4"}), gpu, count)
    return four if four is not None and four.ok else o
