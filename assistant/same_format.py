"""Two models weighed on speed or memory in different formats (concept4): "glm4-9b 和 qwen2.5-14b 我该跑哪个？…想要快一点的"
on a 16 GB card sized GLM-4-9B in Q8_0 and Qwen2.5-14B in Q4_K_M, and "about the same" came out of comparing the
formats, not the models. The criterion decides on the models at one format: each re-sized by the tools in the
fewest-bits format among the ones first chosen (the one every model fits in), then one pick by the criterion with
its figures and the ratio, then the trade-off (the larger model is the stronger one when its speed is enough)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.knowledge import find_model, find_precision

DIMS = ("speed", "memory")


def aligned(ctx: Any, good: list[Any], gpu: Any, count: int, owned: bool) -> list[Any]:
    """The runs the dimension asked is judged on: each model in one common format when they came in different
    ones and speed or memory was asked; else the runs as they are."""
    from gpu_advisor.assistant.weigh import _run

    dims = set(ctx.turn.ask.get("dims") or [])
    first: dict[str, Any] = {}
    for run in good:
        first.setdefault(run[0], run)
    if not dims & set(DIMS) or len(first) < 2:
        return good
    formats = {r[2].precision or "bf16" for r in first.values()}
    if len(formats) < 2:
        return good
    common = min(formats, key=lambda f: find_precision(f).bits_per_weight)
    out = []
    for m, _p, o in first.values():
        same = o if (o.precision or "bf16") == common else _run(ctx, m, common, gpu, count, owned)
        if same is None or not same.ok:
            return good
        out.append((m, common, same))
    ctx.data["same_format"] = common
    return out


def note(ctx: Any, runs: list[Any]) -> list[str]:
    """'Compared at the same format (Q4_K_M)', the ratio of the two speeds, and the trade-off."""
    common = ctx.data.get("same_format")
    pick = (ctx.data.get("pick") or {}).get("model")
    if not common or not pick or len(runs) < 2:
        return []
    by = {m: o for m, _p, o in runs}
    other = next(m for m in by if m != pick)
    a, b = by[pick].decode_tokens_per_s or 0, by[other].decode_tokens_per_s or 0
    lines = [ctx.say("concept4.same_format", fmt=common.upper())]
    if a and b and a > b:
        ctx.data["speed_ratio"] = round(a / b, 1)
        lines[0] += ("" if ctx.lang == "zh" else " ") + ctx.say("concept4.same_ratio", model=find_model(pick).name, ratio=f"{a / b:.1f}",
                                  other=find_model(other).name)
    big, small = sorted(by, key=lambda m: -find_model(m).total_params_b)
    if big != pick and find_model(big).total_params_b > find_model(small).total_params_b:
        lines.append(ctx.say("concept4.same_tradeoff", big=find_model(big).name, pb=f"{find_model(big).total_params_b:g}",
                             sb=f"{find_model(small).total_params_b:g}", tps=f"{by[big].decode_tokens_per_s or 0:.0f}"))
    return lines
