"""The verdict when formats of one model are weighed on a card ("FP8 or INT4 for Llama 3.1 70B on H100?",
"L40S上跑8B，FP8比BF16值得吗"): a typed code for the user's setting, then the figures that decide it and what
would change it.

Codes (ctx.data["format_verdict"]["code"]):
- cards: no card count said and the format that loses least needs more cards than the other: both, each for
  the count it runs on ("FP8 with two H100s, INT4 with one").
- only: a count said (or cards owned) and only the lower one fits there.
- faster: both fit on the same cards and the 8-bit one writes at least SAME_SPEED× as fast as 16-bit (native
  FP8/INT8 tensor cores): the 8-bit one, close to lossless.
- quality: both fit on the same cards: the one that loses least, with how much faster the other is.
- same: 16-bit against 8-bit at about the same speed (no 8-bit tensor cores for it): 16-bit, nothing lost.
Published accuracy gaps come from knowledge (precisions.yaml: accuracy_drop_pct, accuracy_source).
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.writers import gb, tps
from gpu_advisor.knowledge import find_precision

SAME_SPEED = 1.1  # 8-bit at least this much faster than 16-bit per user: its tensor cores run it natively
# Quality order among formats that fit: 8-bit, then 16-bit, then 4-bit, then below (weigh.quality_class names).
LOSS_RANK = {"near": 0, "lossless": 1, "small": 2, "large": 3}


def _bits(run: Any) -> float:
    return find_precision(run[2].precision or "bf16").bits_per_weight


def _rank(run: Any) -> tuple[int, float]:
    from gpu_advisor.assistant.weigh import quality_class

    return LOSS_RANK[quality_class(run[2].precision or "bf16")], -_bits(run)


def _name(run: Any) -> str:
    return (run[2].precision or run[1] or "").upper()


def _cards(ctx: Any, run: Any, gpu_name: str) -> str:
    n = run[2].gpus
    return ctx.say("fmtv.one_card" if n == 1 else "fmtv.n_cards", n=n, gpu=gpu_name)


def _faster(runs: list[Any]) -> Any:
    """16-bit against 8-bit on the same cards: the 8-bit run when it is SAME_SPEED× as fast, else the 16-bit."""
    from gpu_advisor.assistant.weigh import quality_class

    eight = next((r for r in runs if quality_class(r[2].precision or "bf16") == "near"), None)
    sixteen = next((r for r in runs if quality_class(r[2].precision or "bf16") == "lossless"), None)
    if eight is None or sixteen is None:
        return None
    ratio = (eight[2].decode_tokens_per_s or 0) / max(sixteen[2].decode_tokens_per_s or 1e-9, 1e-9)
    return eight if ratio >= SAME_SPEED else sixteen


def verdict(ctx: Any, runs: list[Any], gpu: Any, count: int, owned: bool, option: str) -> list[str]:
    """The verdict lines for formats of one model weighed on the card; [] when fewer than two formats were sized
    or none does the job (weigh says so then)."""
    good = [r for r in runs if r[2].ok]
    if len(runs) < 2 or not good or len({m for m, _p, _o in runs}) > 1:
        return []
    said = bool(count) or owned
    fewest = min(r[2].gpus for r in good)
    on_fewest = [r for r in good if r[2].gpus == fewest]
    best_any = min(good, key=_rank)
    best_few = _faster(on_fewest) or min(on_fewest, key=_rank)
    data: dict[str, Any] = {}
    if not said and best_any[2].gpus > fewest and _rank(best_any) < _rank(best_few):
        pick, other = best_any, best_few
        data = {"code": "cards", "pick": pick[2].precision, "pick_gpus": pick[2].gpus,
                "other": other[2].precision, "other_gpus": other[2].gpus}
        head = ctx.say("fmtv.cards", pick=_name(pick), pick_n=_cards(ctx, pick, gpu.name), other=_name(other),
                       other_n=_cards(ctx, other, gpu.name), tps=tps(pick[2].decode_tokens_per_s or 0),
                       other_tps=tps(other[2].decode_tokens_per_s or 0))
        change = ctx.say("fmtv.change.cards", pick=_name(pick), other=_name(other),
                         other_n=_cards(ctx, other, gpu.name))
    else:
        pick = best_few
        rest = [r for r in runs if r is not pick]
        short = [r for r in rest if not r[2].ok and _rank(r) < _rank(pick)]
        other = short[0] if short else min(rest, key=lambda r: (_rank(r)[0], -(r[2].decode_tokens_per_s or 0)))
        data = {"pick": pick[2].precision, "pick_gpus": pick[2].gpus, "other": other[2].precision,
                "other_gpus": other[2].gpus}
        head, change = _same_cards(ctx, pick, other, bool(short), gpu, option, data)
    ctx.data["format_verdict"] = data
    ctx.data["pick"] = {"model": pick[0], "precision": data["pick"], "gpus": pick[2].gpus}
    return [x for x in (head, _accuracy(ctx, [pick, other], data), change) if x]


def _same_cards(ctx: Any, pick: Any, other: Any, short: bool, gpu: Any, option: str,
                data: dict[str, Any]) -> tuple[str, str]:
    p, o = pick[2], other[2]
    names = {"pick": _name(pick), "other": _name(other), "option": option}
    if short:  # a count said: the one that loses less does not fit there
        data["code"] = "only"
        return (ctx.say("fmtv.only", **names, need=gb(o.serve_per_gpu_bytes or 0), have=gb(o.capacity_bytes)),
                ctx.say("fmtv.change.only", **names))
    ratio = (p.decode_tokens_per_s or 0) / max(o.decode_tokens_per_s or 1e-9, 1e-9)
    speeds = {"tps": tps(p.decode_tokens_per_s or 0), "other_tps": tps(o.decode_tokens_per_s or 0)}
    data["speed_ratio"] = round(ratio, 1)
    if _bits(pick) < _bits(other) and ratio >= SAME_SPEED:  # 8-bit against 16-bit on FP8/INT8 tensor cores
        data["code"] = "faster"
        saved = (o.serve_per_gpu_bytes or 0) - (p.serve_per_gpu_bytes or 0)
        data["saved_bytes"] = saved
        return (ctx.say("fmtv.faster", **names, **speeds, ratio=f"{ratio:.1f}", saved=gb(saved)),
                ctx.say("fmtv.change.faster", **names))
    if _bits(pick) > _bits(other) and ratio < 1 / SAME_SPEED:
        data.update({"code": "quality", "other_speed_ratio": round(1 / ratio, 1)})
        return (ctx.say("fmtv.quality", **names, **speeds, ratio=f"{1 / ratio:.1f}"),
                ctx.say("fmtv.change.quality", **names))
    weight_only = [r for r in (pick, other) if gpu.arch in find_precision(r[2].precision or "bf16").weight_only_archs]
    if weight_only and _bits(pick) == _bits(other):  # 'INT8 or FP8 on A100?': FP8 without its tensor cores there
        slow = weight_only[0]
        native = other if slow is pick else pick
        data.update({"code": "native", "pick": native[2].precision, "other": slow[2].precision})
        names = {"pick": _name(native), "other": _name(slow), "option": option, "gpu": gpu.name}
        return ctx.say("fmtv.native", **names), ctx.say("fmtv.change.native", **names)
    data["code"] = "same"
    return ctx.say("fmtv.same", **names, **speeds), ctx.say("fmtv.change.same", **names)


def _accuracy(ctx: Any, runs: list[Any], data: dict[str, Any]) -> str:
    """The published accuracy gap of each format shown that knowledge has one for, with the study named."""
    items, source, family = [], "", ""
    for r in runs:
        fmt = find_precision(r[2].precision or "bf16")
        if fmt.accuracy_drop_pct is None:
            continue
        lo, hi = fmt.accuracy_drop_pct
        data.setdefault("accuracy_drop_pct", {})[fmt.id] = [lo, hi]
        items.append(ctx.say("fmtv.acc.none" if hi == 0 else "fmtv.acc.range", fmt=_name(r), lo=f"{lo:g}", hi=f"{hi:g}"))
        source = source or fmt.accuracy_source.split(" (")[0]
        family = family or fmt.accuracy_models
    if not items:
        return ""
    data.update({"accuracy_source": source, "accuracy_models": family})
    return ctx.say("fmtv.acc", items=ctx.say("sep").join(items), source=source, family=family)
