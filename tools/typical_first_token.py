"""A first-token target said with no percentile ('首字延迟 2 秒以内', 'first token under 2 s'), that no layout of the
plan's cards meets at the default p99 (the longest prompts of the assumed spread alone take longer to prefill: 6k
prompts of Qwen2.5-72B on 910B, review AO 2): the target held for the typical request, its median. The plan is then
sized for it (copies of 4 or 8 cards, each less loaded, where copies of 2 miss it) and says the p99 beside it, never
'no layout reaches it' with the target dropped and faster cards the domestic-only rule excludes suggested. A
percentile said ('p99 首字 2 秒') stays the one sized for."""

from __future__ import annotations

from typing import Any

MEDIAN = 0.5


def typical_request(w: Any) -> Any | None:
    """The workload with its first-token target held at the median, where the target was said with no percentile;
    None otherwise."""
    if w.ttft_ms is None or w.ttft_percentile is not None:
        return None
    return w.model_copy(update={"ttft_percentile": MEDIAN})


def held_typical(w: Any, percentile: float) -> bool:
    """Whether the rate was sized with the target held for the typical request (typical_request)."""
    return w.ttft_ms is not None and w.ttft_percentile is None and percentile == MEDIAN
