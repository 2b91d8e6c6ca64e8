"""How many people generating at once a serving plan's cards hold: the largest count whose KV cache still fits
and whose per-user decode speed stays at the plan's floor (reading speed, or the target said), first-token
target included when one was said. Each count is the same evaluation the plan was ranked on (tools.recommend
.evaluate) at the plan's weight format, so the answer and the plan never disagree; the search doubles the count
until a limit is met, then halves the gap (about 2·log2(N) evaluations)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools.models import resolve_model
from gpu_advisor.tools.own_format import own_format
from gpu_advisor.tools.recommend import (
    Option,
    Workload,
    _server_gpus,
    evaluate,
    serving_precision,
    serving_tries,
)
from gpu_advisor.tools.scale import Layout, plan, unit_capacity

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


def _shape(o: Option) -> Layout | None:
    """The layout of a plan whose copies span servers (2×TP8 on two servers, TP8×PP2, DP16+EP16), None for one
    copy in one server (evaluate lays that out itself)."""
    if o.tp is None or o.engine is None or not (o.pp > 1 or o.replicas > 1 or o.dp_attention > 1):
        return None
    return Layout(tp=o.tp, pp=o.pp, replicas=o.replicas, users_per_replica=max(1, o.users_per_replica or 1),
                  engine=o.engine, precision=o.precision or "bf16", kv_precision=o.kv_precision,
                  dp_attention=o.dp_attention > 1)


def _most_users(w: Workload, gpu: Gpu, gpus: int, owned: bool) -> Layout | None:
    """Cards over several servers with no plan yet ('两台Atlas 800I A2 … 能撑多少并发', 'two 8xA100 nodes … how many
    concurrent users'): of the layouts that use all of them in the format asked (tools.scale.plan: copies, pipeline
    stages, data-parallel attention with expert parallel), the one that holds the most users at the floor, counted
    per copy (tools.scale.unit_capacity) times the copies; None within one server (evaluate lays that out)."""
    per_server = _server_gpus(w, gpu)
    if gpus <= per_server:
        return None
    fmt = w.serve_precision or "bf16"
    tries = [t for t in serving_tries(w, gpu, owned, fmt) if t[1] == fmt]
    first_kv = tries[0][2] if tries else None  # the KV format asked (or the engine's 16-bit default), never a lever
    tries = [t for t in tries if t[2] == first_kv]
    layouts = plan(w.model, gpu, tries, 1, w.context, w.speed_floor, owned=gpus, server_gpus=per_server,
                   max_gpus=gpus)

    def held(x: Layout) -> int:
        return x.replicas * unit_capacity(w.model, gpu.id, x.engine, x.precision, x.kv_precision, x.tp, x.pp,
                                          w.context, w.speed_floor, per_server)

    within = max((x for x in layouts if x.unit <= per_server), key=held, default=None)  # (the first of equals)
    spanning = max((x for x in layouts if x.unit > per_server), key=held, default=None)
    if within is None or (spanning is not None and held(spanning) >= SPAN_GAIN * held(within)):
        return spanning
    return within


# A copy spread over servers (pipeline stages, data-parallel attention over the network) waits on the network each
# token and stops with either server: it is the layout counted on only where it seats this many times the people of
# the best layout of copies within a server (405B FP8 on two 8 x A100: 185 against 88; Qwen2.5-72B on two 8 x H800:
# 409 against 380, so two copies of TP8)
SPAN_GAIN = 1.25


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
    said = base.serve_precision
    if said is None:
        # the plan's own format (the checkpoint's, else 8-bit) for every count: the search never drifts to 4-bit
        # weights to seat more people at a slower speed than that format gives them
        base = base.model_copy(update={"serve_precision": serving_precision(base, resolve_model(w.model), gpu)})
    shape = _shape(plan) if plan is not None else _most_users(base, gpu, gpus, owned)

    def at(users: int) -> Option | None:
        layout = None if shape is None else shape.model_copy(update={
            "users_per_replica": -(-users // shape.replicas),
            "precision": base.serve_precision or shape.precision or "bf16"})
        return evaluate(base.model_copy(update={"users": users}), gpu, gpus, owned=owned, layout=layout)
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
