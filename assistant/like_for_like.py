"""Which of two cards is faster, said like for like (review AY #16: '这个任务上 H100 更快 … 45 对比 35' compared 8 × H100
with 4 × H200: the H100's edge was its twice as many cards, and the premium line gave the H200's higher bandwidth as
'0.7×'). When the two rows that serve the load run different counts, the speed per user is compared at the same
count (the larger one: each card sized there by the same sizing the rows came from), and the counts the load takes
of each are said apart. Words: catalog verdict2.*."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


def same_count(working: list[Any], at: Callable[[str, int], Any]) -> dict[str, Any] | None:
    """Both cards at the larger of their counts (`at(gpu, n)`: that card sized at n cards, or None), when the rows
    run different counts: {'n', 'fast', 'slow', 'a', 'b', 'counts'}; None when the counts agree or a row is missing."""
    if len(working) < 2:
        return None
    one, two = working[0], working[1]
    if one.gpus == two.gpus or not (one.decode_tokens_per_s and two.decode_tokens_per_s):
        return None
    n = max(one.gpus, two.gpus)
    rows = [o if o.gpus == n else at(o.gpu, n) for o in (one, two)]
    if any(r is None or not r.ok or not r.decode_tokens_per_s for r in rows):
        return None
    fast, slow = sorted(rows, key=lambda r: -(r.decode_tokens_per_s or 0))
    return {"n": n, "fast": fast, "slow": slow, "a": fast.decode_tokens_per_s, "b": slow.decode_tokens_per_s,
            "counts": {one.gpu: one.gpus, two.gpu: two.gpus}, "names": {one.gpu: one.gpu_name, two.gpu: two.gpu_name}}


def speed_line(ctx: Any, like: dict[str, Any], tps: Callable[[float], str], even: Callable[..., bool]) -> str:
    """The like-for-like speed, then the count each card takes for the load; the speed code in ctx.data."""
    a, b = like["a"], like["b"]
    tie = even(a, b, tps)
    fast, slow = like["fast"], like["slow"]
    ctx.data["speed"] = {"code": "same" if tie else "faster", "figure": "tokens_per_s", "a": a, "b": b,
                         "pick": None if tie else fast.gpu, "same_count": like["n"], "counts": like["counts"]}
    (g1, n1), (g2, n2) = sorted(like["counts"].items(), key=lambda kv: kv[1])
    names = like["names"]
    speed = ctx.say("verdict2.same_count_tie" if tie else "verdict2.same_count_faster", n=like["n"],
                    fast=fast.gpu_name, slow=slow.gpu_name, a=tps(a), b=tps(b), x=f"{a / b:.1f}")
    counts = ctx.say("verdict2.counts_apart", c1=names[g1], n1=n1, c2=names[g2], n2=n2)
    return speed + ("" if ctx.lang == "zh" else " ") + counts
