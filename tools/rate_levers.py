"""The levers of a plan sized for a request rate, each sized for that rate itself.

A rate plan is laid out on the card and count the queueing model sized (the count pinned as the only
candidate), so the levers tried on that pinned workload come back on the same count: "a smaller model:
56 x H200" beside a 671B plan of 56 x H200 (review AV EN8). A smaller model, 4-bit weights or an FP8 KV cache
changes the copies a rate needs (each copy is faster and holds more requests), so each lever is sized again
for the rate on its own, and a lever the rate sizing cannot place is dropped rather than shown on the
plan's count.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpu_advisor.tools.queueing import Traffic
    from gpu_advisor.tools.recommend import Lever, Option, Recommendation, Workload

# The lever codes whose change is a storage format or another model: (code prefix, the changed fields)
STORAGE: dict[str, dict[str, Any]] = {
    "int4": {"serve_precision": "int4"},
    "kv8": {"kv_cache": 8},
    "int4_kv8": {"serve_precision": "int4", "kv_cache": 8},
}


def lever_change(code: str) -> dict[str, Any] | None:
    """The workload fields a rate plan's lever code changes; None for a lever not re-sized at the rate."""
    if code in STORAGE:
        return dict(STORAGE[code])
    key, _, value = code.partition("=")
    if key == "model" and value:
        return {"model": value, "serve_precision": None}
    return None


def levers_at_the_rate(w: Workload, levers: list[Lever],
                       size: Callable[[Workload], Recommendation]) -> list[Lever]:
    """`levers` with each storage or model lever's option sized for the rate by `size` (the rate sizing, run
    without levers on `w` changed by the lever); one it cannot size is dropped, the others are kept as they are."""
    out: list[Lever] = []
    for lever in levers:
        change = lever_change(lever.change)
        if change is None:
            out.append(lever)
            continue
        variant = w.model_copy(update=change)
        try:
            best = size(variant).best
        except (ValueError, KeyError):
            best = None
        if best is not None:
            out.append(lever.model_copy(update={"option": best}))
    return out


# A count set by the per-user speed with copies below this share of the utilisation cap: the speed said is what
# the cards are bought for, and what a slower stream would save is said (review AV EN8: 7 servers at 35% load).
SPEED_BOUND = ("tpot_p50_s", "tpot_p99_s")
SLOW_LOAD = 0.6
# The slower speed weighed: three quarters of the one said (40 tokens/s -> 30), still faster than people read.
SLOWER = 0.75


def speed_costs(w: Workload | None, best: Option | None, t: Traffic, cap: float,
                size: Callable[[Workload], Recommendation]) -> None:
    """When the per-user speed said sets a rate plan's count and its copies run well below the utilisation `cap`,
    the rate sized again at SLOWER of that speed: its card count goes on `t` (slower_speed, slower_gpus) when it
    needs fewer cards of the same kind. `w` None (a sizing run without levers): nothing."""
    if w is None or best is None or t.binding not in SPEED_BOUND or not w.min_tokens_per_s or t.utilisation is None:
        return
    if t.utilisation >= SLOW_LOAD * cap:
        return
    slower = round(w.min_tokens_per_s * SLOWER)
    try:
        other = size(w.model_copy(update={"min_tokens_per_s": float(slower)})).best
    except (ValueError, KeyError):
        return
    if other is not None and other.gpu == best.gpu and other.gpus < best.gpus:
        t.slower_speed, t.slower_gpus = float(slower), other.gpus
