"""The count of cards for each of two weight formats asked ('how many L40S do I need for each?' beside 'fp8 vs int4
(awq)'): the fewest of the card that meet the plan's job in each format (assistant/asked_figure's search on the
plan's load and targets), said with the quality of each (inform.quality). The reader: reading/format_each.py."""

from __future__ import annotations

from typing import Any


def format_counts(ctx: Any) -> str:
    """'**How many of each**, at your load of 10 at once: NVIDIA L40S 48GB: 4 in FP8 (…); 2 in AWQ (…)'; '' when no
    count was asked per format or there is no plan to size."""
    from gpu_advisor.assistant.asked_figure import _count_words, _fewest_on
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError

    ask = ctx.turn.ask
    rec = ctx.rec
    if "count_each_format" not in ask or rec is None or rec.workload is None or rec.best is None:
        return ""
    card = ask.get("count_each_format") or rec.best.gpu
    formats = [str(f) for f in (ask.get("precisions") or [])[:2]]
    sized = []
    for fmt in formats:
        try:
            o = _fewest_on(rec, card, fmt, ctx.recorder)
        except (ToolError, LookupError, ValueError):
            o = None
        sized.append((fmt, o))
    ctx.data["format_counts"] = [{"format": f, "gpu": card, "gpus": o.gpus if o else None,
                                  "per_gpu_bytes": o.serve_per_gpu_bytes if o else None} for f, o in sized]
    w = rec.workload
    load = ctx.say("direct.load.users", users=f"{w.users:,}") if w.spec.serves else ctx.say("direct.load.job")
    counts = ctx.say("sep").join(_count_words(o, fmt, ctx.lang) for fmt, o in sized)
    return ctx.say("figure.counts_head", load=load) + "\n- " + ctx.say("figure.count_row", gpu=find_gpu(card).name,
                                                                        counts=counts)
