"""Users at once who each wait for their answer before asking again (a closed loop) generate no more requests than
the plan's own speed at that load lets them (review BF 11: 100 users at once, 5.66 requests/s implied at the bare
decode speed of 23 tokens/s, a plan that then writes at 14 tokens/s per user, and '161 in flight' for 100 people).

tools.prefill_load turns N streams into a rate with the plan's bare speed; the plan sized for that rate writes
slower (prefill beside decode, tools.queueing), so the same N people then ask less often:

    rate' = N / (ttft + (output - 1) / speed at load)

This settles the rate and the plan together: size for the rate, take the plan's speed at that load, recompute the
rate, size again while it falls by more than SETTLE_TOLERANCE (at most SETTLE_ROUNDS times). The prompt load then
says the rate the plan is sized for and the one per-user speed the plan states."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_advisor.tools.prefill_load import PrefillLoad, prefill_load

SETTLE_ROUNDS = 4
SETTLE_TOLERANCE = 0.03


def _speed(rec: Any) -> float | None:
    best = getattr(rec, "best", None)
    if best is None or not best.ok or not best.at_load or not best.decode_tokens_per_s:
        return None
    return float(best.decode_tokens_per_s)


def settle(implied: PrefillLoad, rated: Any, size: Callable[[float], Any], active_params_b: float) -> tuple[Any, PrefillLoad]:
    """(the plan, its prompt load) once the rate the users generate at the plan's speed holds."""
    out = max(implied.output_tokens - 1, 0)
    ttft = implied.users / implied.requests_per_s - out / implied.tokens_per_s  # the users plan's first token
    replicas = implied.requests_per_s * ttft / implied.share if implied.share > 0 else 1.0
    plan, rate = rated, implied.requests_per_s
    for _ in range(SETTLE_ROUNDS):
        speed = _speed(plan)
        if speed is None or ttft < 0:
            break
        nxt = implied.users / (ttft + out / speed)
        if nxt >= rate * (1 - SETTLE_TOLERANCE):
            break
        again = size(nxt)
        if _speed(again) is None:
            break
        plan, rate = again, nxt
    if plan is rated:
        return rated, implied
    speed = out / max(implied.users / rate - ttft, 1e-9) if out else implied.tokens_per_s
    load = prefill_load(implied.users, implied.prompt_tokens, implied.output_tokens, ttft, speed,
                        max(round(replicas), 1), active_params_b, implied.sized_gpus, implied.sized_gpu)
    # the streams are said at the plan's one per-user speed (within SETTLE_TOLERANCE of the rate's own)
    return plan, load.model_copy(update={"tokens_per_s": _speed(plan) or speed, "binds": True})
