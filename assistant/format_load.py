"""Formats weighed on a datacenter card ("fp8 or awq int4 for qwen2.5-72b on 4 H100s, we care about throughput"):
the datacenter engine's own formats, and what each serves at a load, not only for one user.

- engine: on a datacenter card vLLM runs (knowledge/engines.yaml), a format that is not a GGUF file is vLLM's
  (FP8 W8A8 on FP8 tensor cores, AWQ through Marlin), never a llama.cpp stand-in (Q8_0, Q4_K_M).
- load: each format sized again by the tools at the users said, else at the first of LOADS that every format
  fits on the same cards: tokens/s per user and in all (the tools' aggregate_tokens_per_s), and how the gap
  between the formats changes from one user to that load. Asked for throughput first, that comes first.

Data: ctx.data["format_load"] = {"users", "gpus", "rows": [{"precision", "tps", "aggregate_tps"}], "pick"}.
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import tps
from gpu_advisor.knowledge import find_precision
from gpu_advisor.knowledge.engines import engine_for
from gpu_advisor.knowledge.schema import Gpu
from gpu_advisor.tools.recommend import Option, Workload

LOADS = (64, 32, 16, 8)  # users at once tried for the load figures when none were said, most first
CLOSE = 1.2  # the 4-bit format's total within this factor of the 8-bit one's: the 8-bit keeps quality at little cost


def datacenter_engine(w: Workload, gpu: Gpu) -> Workload:
    """The workload on the datacenter engine when the card is a datacenter card, the format is not a GGUF file
    and no engine was said; else as it was."""
    if w.engine is not None or gpu.segment != "datacenter" or engine_for("vllm", gpu) is None:
        return w
    if w.serve_precision and find_precision(w.serve_precision).family == "gguf":
        return w
    return w.model_copy(update={"engine": "vllm"})


def _at(ctx: Any, run: Any, users: int, gpus: int, gpu: Gpu, owned: bool) -> Option | None:
    from gpu_advisor.assistant.weigh import _run

    m, _p, o = run
    return _run(ctx, m, o.precision, gpu, gpus, owned, users)


def _sized_at_load(ctx: Any, good: list[Any], gpu: Gpu, owned: bool) -> tuple[int, int, list[Option]]:
    gpus = max(r[2].gpus for r in good)
    said = int(ctx.profile.get("users") or 1)
    for users in ([said] if said > 1 else list(LOADS)):
        sized = [_at(ctx, r, users, gpus, gpu, owned) for r in good]
        if all(o is not None and o.ok and o.aggregate_tokens_per_s for o in sized):
            return users, gpus, [o for o in sized if o is not None]
    return 0, gpus, []


def load_lines(ctx: Any, runs: list[Any], gpu: Gpu, owned: bool) -> list[str]:
    """The lines on throughput for formats of one model on a datacenter card served by vLLM; [] otherwise."""
    good = [r for r in runs if r[2].ok and r[2].engine in ("vllm", "sglang") and r[2].precision]
    if len(good) < 2 or gpu.segment != "datacenter" or len({m for m, _p, _o in good}) > 1:
        return []
    users, gpus, sized = _sized_at_load(ctx, good, gpu, owned)
    if not sized:
        return []
    option = f"{gpus} × {gpu.name}" if gpus > 1 else gpu.name
    rows = [(str(o.precision), o.decode_tokens_per_s or 0.0, o.aggregate_tokens_per_s or 0.0) for o in sized]
    items = ctx.say("sep").join(ctx.say("fload.item", fmt=f.upper(), tps=tps(one), total=tps(total))
                                for f, one, total in rows)
    lines = [ctx.say("fload.at", users=users, option=option, items=items)]
    top = max(rows, key=lambda r: r[2])
    eight = max(rows, key=lambda r: find_precision(r[0]).bits_per_weight)
    pick = top
    if top is not eight:
        single = {str(r[2].precision): r[2].decode_tokens_per_s or 0.0 for r in good}
        gap_one = single.get(top[0], 0.0) / max(single.get(eight[0], 0.0), 1e-9)
        gap_load = top[2] / max(eight[2], 1e-9)
        names = {"users": users, "load": f"{(gap_load - 1) * 100:.0f}"}
        ctx.data["format_load_gap_pct"] = {"one_user": round((gap_one - 1) * 100), "at_load": round((gap_load - 1) * 100)}
        if gap_load <= CLOSE and gap_load < gap_one:  # the cache reads, not the weights, take most of each step
            pick = eight
            lines.append(ctx.say("fload.close", pick=eight[0].upper(), other=top[0].upper(),
                                 one=f"{(gap_one - 1) * 100:.0f}", **names))
        else:
            lines.append(ctx.say("fload.four_bit", pick=top[0].upper(), other=eight[0].upper(), **names))
    else:
        lines.append(ctx.say("fload.eight", pick=top[0].upper(), users=users))
    ctx.data["format_load"] = {"users": users, "gpus": gpus, "pick": pick[0],
                               "rows": [{"precision": f, "tps": one, "aggregate_tps": total} for f, one, total in rows]}
    return lines
