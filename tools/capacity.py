"""How many people generating at once a serving plan's cards hold: the largest count whose KV cache still fits
and whose per-user decode speed stays at the plan's floor (reading speed, or the target said), first-token
target included when one was said. Each count is the same evaluation the plan was ranked on (tools.recommend
.evaluate) at the plan's weight format, so the answer and the plan never disagree; the search doubles the count
until a limit is met, then halves the gap (about 2·log2(N) evaluations)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.own_format import own_format
from gpu_advisor.tools.recommend import Option, Workload, evaluate, serving_precision
from gpu_advisor.tools.scale import Layout

MAX_USERS = 65_536  # beyond any one plan's cards; the search stops here


class Capacity(BaseModel):
    users: int = Field(description="people generating at once the cards hold within the limits (0: not even one)")
    limit: str = Field(description="what stops one more: memory (the KV cache), speed (per-user tokens/s), "
                                   "latency (first token), or max (the search's ceiling)")
    at_limit: Option | None = Field(None, description="the plan evaluated at that many users")
    next_option: Option | None = Field(None, description="the plan evaluated at one step more, where a limit fails")
    floor: float = Field(0.0, description="the per-user tokens/s each counted user gets at least: the one said, else "
                                          "a reasoning model's (its thinking written in REASONING_ANSWER_S), else "
                                          "reading speed")
    reasoning_floor: bool = Field(False, description="the floor is a reasoning model's, not reading speed")


# A reasoning model (R1, QwQ) writes its thinking before the answer (about 1,500 tokens on record): a user is
# counted only while the whole answer comes within this many seconds, 15 tokens/s for R1 (at reading speed, 6
# tokens/s, it takes over four minutes).
REASONING_ANSWER_S = 100.0


def _floor(w: Workload) -> tuple[float, bool]:
    """The per-user speed a counted user gets: said, else a reasoning model's, else the workload's floor."""
    if w.min_tokens_per_s:
        return w.min_tokens_per_s, False
    thinking = resolve_model(w.model).reasoning_output_tokens
    floor = thinking / REASONING_ANSWER_S if thinking else 0.0
    return (floor, True) if floor > w.speed_floor else (w.speed_floor, False)


def _holds(o: Option | None, w: Workload) -> str | None:
    """None when the option serves the users within its limits, else the first limit it breaks."""
    if o is None or not o.serves:
        return "memory"
    if (o.decode_tokens_per_s or 0) < w.speed_floor:
        return "speed"
    if o.meets.get("latency") is False or o.meets.get("e2e") is False:
        return "latency"  # the first token, or the whole answer, later than the target said
    return None


# The format tried when none was said and the usual ones hold nobody: 4-bit weights.
FALLBACK_PRECISION = "int4"


def capacity(w: Workload, gpu_id: str, gpus: int, owned: bool = False, precision: str | None = None,
             plan: Option | None = None) -> Capacity:
    """The most users at once `gpus` × `gpu_id` serve for workload `w` (its context, format and targets). `plan`:
    the option being asked about, when its copies span servers (pipeline stages): each count is evaluated in that
    same layout, so a plan across two servers is never called unable to hold one person."""
    gpu = find_gpu(gpu_id)
    floor, reasoning = _floor(w)
    base = w.model_copy(update={"serve_precision": own_format(w.model, precision or w.serve_precision, gpu),
                                "flexible": [], "min_tokens_per_s": floor})
    spans = plan if plan is not None and (plan.pp > 1 or plan.replicas > 1) and plan.tp is not None \
        and plan.engine is not None else None  # copies over servers (2×TP8 on two servers): that layout too

    def at(users: int) -> Option | None:
        layout = None if spans is None or spans.tp is None or spans.engine is None else Layout(
            tp=spans.tp, pp=spans.pp, replicas=spans.replicas, users_per_replica=-(-users // spans.replicas),
            engine=spans.engine, precision=base.serve_precision or spans.precision or "bf16",
            kv_precision=spans.kv_precision)
        return evaluate(base.model_copy(update={"users": users}), gpu, gpus, owned=owned, layout=layout)

    said = base.serve_precision
    if said is None:
        # the plan's own format (the checkpoint's, else 8-bit) for every count: the search never drifts to 4-bit
        # weights to seat more people at a slower speed than that format gives them
        base = base.model_copy(update={"serve_precision": serving_precision(base, resolve_model(w.model), gpu)})
    first = at(1)
    broken = _holds(first, base)
    if broken and said is None:
        # no format said and none of the usual ones holds one person: 4-bit weights, as a consumer card serves it
        four = base.model_copy(update={"serve_precision": FALLBACK_PRECISION})
        opt = evaluate(four.model_copy(update={"users": 1}), gpu, gpus, owned=owned)
        if not _holds(opt, four):
            base, first, broken = four, opt, None
    if broken:
        return Capacity(users=0, limit=broken, next_option=first, floor=floor, reasoning_floor=reasoning)

    good, good_opt, bad, bad_opt, why = 1, first, None, None, "max"
    n = 2
    while n <= MAX_USERS:
        o = at(n)
        broken = _holds(o, base)
        if broken:
            bad, bad_opt, why = n, o, broken
            break
        good, good_opt, n = n, o, n * 2
    if bad is None:
        return Capacity(users=good, limit="max", at_limit=good_opt, floor=floor, reasoning_floor=reasoning)
    while bad - good > 1:
        mid = (good + bad) // 2
        o = at(mid)
        broken = _holds(o, base)
        if broken:
            bad, bad_opt, why = mid, o, broken
        else:
            good, good_opt = mid, o
    return Capacity(users=good, limit=why, at_limit=good_opt, next_option=bad_opt, floor=floor,
                    reasoning_floor=reasoning)
