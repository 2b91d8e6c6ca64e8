"""Two cards that do the job at the same speed, with no price on record for one or both ('is 910C worth it
instead?'): neither is called faster; each is said at the count that holds the same load (a multi-die card in
packages as well as NPUs), and the choice is said to turn on what those counts cost. Words: lang2.* in the catalogs."""
from __future__ import annotations

from typing import Any


def _option(ctx: Any, o: dict[str, Any]) -> str:
    from gpu_advisor.knowledge import find_gpu

    per = find_gpu(o["gpu"]).npus_per_package
    if per > 1 and o["gpus"] % per == 0:
        return ctx.say("lang2.packages", count=o["gpus"], card=o["gpu_name"], packages=o["gpus"] // per)
    return f"{o['gpus']} × {o['gpu_name']}"


def even_unpriced(ctx: Any, v: dict[str, Any], options: list[dict[str, Any]]) -> str | None:
    """The verdict for two working options at the same speed and a cost not weighed; None when not that case."""
    from gpu_advisor.assistant.writers import tps

    ok = [o for o in options if o.get("ok")]
    if len(ok) != 2 or v.get("speed") != "same" or not v.get("unpriced"):
        return None
    plan = next((o for o in ok if o["gpu"] == v.get("pick")), ok[0])
    other = next(o for o in ok if o is not plan)
    return ctx.say("lang2.even_unpriced", plan=_option(ctx, plan), other=_option(ctx, other),
                   tps=tps(plan.get("decode_tokens_per_s") or 0), card=other["gpu_name"])
