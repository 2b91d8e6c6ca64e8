"""The reply to "how many users can it handle?" (intent `capacity`): the most people generating at once the
plan's cards hold (tools.capacity), what stops one more, and that it counts people at once, not a team."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.capacity_memory import asks_memory, floor_line, memory_lines
from gpu_advisor.assistant.launch_reply import block
from gpu_advisor.assistant.writers import layout_label, tps
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.capacity import capacity
from gpu_advisor.tools.kv_format import kv8_format
from gpu_advisor.tools.launch import LaunchError, launch_command
from gpu_advisor.tools.own_format import own_format
from gpu_advisor.tools.recommend import Option, Workload


def _cards(ctx: Any) -> tuple[Workload, str, int, bool, str | None, Option | None] | None:
    """The workload and cards asked about, and the plan when there is one: the plan's, else the model said on the
    user's own cards (the question asked before a plan: 'two 2080 Ti 22G for glm-4-9b ... how many people can it
    take?', '两台Atlas 800I A2 … 大概能撑多少并发')."""
    rec = ctx.rec
    if rec is not None and rec.best is not None:
        return (rec.workload, rec.best.gpu, rec.best.gpus, rec.best.owned, rec.best.precision, rec.best) \
            if rec.workload.spec.serves else None
    owned = ctx.profile.get("owned") or []
    only = [c for c in ctx.profile.get("only") or [] if "x " in c or len(ctx.profile.get("only") or []) == 1]
    if not (ctx.profile.get("model") and (owned or only)):
        return None
    from gpu_advisor.assistant.advice import workload_for
    from gpu_advisor.assistant.policy import Profile

    w = workload_for(Profile.model_validate({**ctx.profile, "phase": ctx.profile.get("phase") or "serve"}))
    count, _x, card = (owned or only)[0].partition("x ") if "x " in (owned or only)[0] else ("1", "", (owned or only)[0])
    return (w, card.strip(), int(count), bool(owned), None, None) if w.spec.serves else None


def capacity_reply(ctx: Any) -> str:
    found = _cards(ctx)
    if found is None:
        return ctx.say("capacity.no_plan")
    w, gpu_id, gpus, owned, planned, option_of = found
    precision = own_format(w.model, ctx.turn.ask.get("precision") or planned, find_gpu(gpu_id))  # '满血': its own
    c = capacity(w, gpu_id, gpus, owned=owned, precision=precision, plan=option_of)
    if ctx.recorder is not None:
        ctx.recorder("capacity", {"workload": w.model_dump(mode="json"), "gpu": gpu_id, "gpus": gpus,
                                  "precision": precision}, c.model_dump(mode="json"), 0.0)
    ctx.data["capacity"] = c.model_dump(mode="json")
    option = f"{gpus} × {find_gpu(gpu_id).name}"
    at = c.at_limit
    fmt = (at.precision if at else None) or precision or w.serve_precision \
        or (c.next_option.precision if c.next_option else None)
    first = memory_lines(ctx, w, gpu_id, gpus, fmt) if asks_memory(ctx.turn.ask) else []  # '要多少显存' first
    if c.users == 0 or at is None:
        return "\n\n".join([*first, ctx.say("capacity.none", option=option, precision=fmt or "int4")])
    kv = ctx.say("capacity.kv8") if at.kv_precision else ""
    label = layout_label(at)  # the layout counted on, where it spans copies or servers: 'DP16+EP16', 'TP8×PP2'
    lines = [*first, ctx.say("capacity.head", users=f"{c.users:,}", option=option, precision=at.precision or precision,
                     context=f"{w.context:,}", kv=kv, layout=ctx.say("capacity.layout", label=label) if label else "",
                     tps=tps(at.decode_tokens_per_s or 0))]
    nxt = c.next_option
    if c.limit == "memory":
        lines.append(_memory_limit(ctx, w, gpu_id, gpus, owned, precision, option_of, c))
    elif c.limit == "speed" and nxt is not None:
        lines.append(ctx.say("capacity.by_speed", floor=f"{c.floor or w.speed_floor:g}", more=f"{c.users + 1:,}",
                             tps=tps(nxt.decode_tokens_per_s or 0)))
    elif c.limit == "latency":
        lines.append(ctx.say("capacity.by_latency", more=f"{c.users + 1:,}"))
    lines += floor_line(ctx, w, c)
    if ctx.turn.ask.get("moe_dense"):  # 'why is the MoE faster than a 32B dense model … how many users each?'
        from gpu_advisor.assistant.moe_dense import moe_dense_lines

        lines += moe_dense_lines(ctx, w, gpu_id, gpus, owned, precision)
    lines.append(ctx.say("capacity.at_once"))
    if option_of is None:  # the cards named with the question, no plan yet: the command that serves that many
        lines += _start(ctx, w.model_copy(update={"users": c.users}), at)
    return "\n\n".join(lines)


def _memory_limit(ctx: Any, w: Workload, gpu_id: str, gpus: int, owned: bool, precision: str | None,
                  option_of: Option | None, c: Any) -> str:
    """What stops one more when it is memory: with a 16-bit KV cache on a card whose engine keeps an 8-bit one
    (tools.kv_format), the count with the cache in 8 bits beside it (the cache is most of the memory of many long
    conversations: review BJ #2, #15, #17), counted the same way."""
    at = c.at_limit
    more = f"{c.users + 1:,}"
    if at.kv_precision:
        return ctx.say("capacity.by_memory_kv8", more=more)
    kv8 = kv8_format(find_gpu(gpu_id))
    if kv8 is None or at.engine not in ("vllm", "sglang"):
        return ctx.say("capacity.by_memory", more=more)
    half = capacity(w.model_copy(update={"kv_cache": 8}), gpu_id, gpus, owned=owned, precision=precision,
                    plan=None if option_of is None else option_of.model_copy(update={"kv_precision": kv8}))
    if ctx.recorder is not None:
        ctx.recorder("capacity", {"workload": w.model_dump(mode="json") | {"kv_cache": 8}, "gpu": gpu_id,
                                  "gpus": gpus, "precision": precision}, half.model_dump(mode="json"), 0.0)
    if half.at_limit is None or half.users <= c.users:
        return ctx.say("capacity.by_memory", more=more)
    ctx.data["capacity"] = {**ctx.data["capacity"], "kv8_users": half.users}
    return ctx.say("capacity.by_memory_with_kv8", more=more, users=f"{half.users:,}", kv=kv8.upper(),
                   tps=tps(half.at_limit.decode_tokens_per_s or 0))


def _start(ctx: Any, w: Workload, at: Option) -> list[str]:
    """The command that starts the counted layout with its engine scheduling that many users at once
    (--max-num-seqs), and the offer to count again (never a question for the count just answered)."""
    try:
        cmd = launch_command(at, w)
    except LaunchError:
        return []
    ctx.data["capacity"] = {**ctx.data["capacity"], "own_offer": True, "max_seqs": cmd.max_seqs}
    return ["\n".join(block(cmd, ctx.lang, ctx.say("launch.start", engine=cmd.engine_name, version=cmd.version))),
            ctx.say("capacity.offer.counted")]
