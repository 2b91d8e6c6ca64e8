"""buy2: a training run of many months on the cards named, said first and plainly: impractical, with what would make
it practical (tools.long_run: the cards that finish it in a month, the tokens the cards named get through in a
month, and, for pretraining, continued pretraining of an open model of the size). Words: catalog buy2.long.*."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def long_run_block(answer: Any, lang: str, recorder: Any = None) -> str:
    """The block, or "" when the plan's run takes PRACTICAL_DAYS or less (or a deadline was said)."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.long_run import MONTH_DAYS, PRACTICAL_DAYS, long_run
    from gpu_advisor.tools.recommend import training_time_setup

    rec = answer.recommend if answer is not None else None
    best = rec.best if rec is not None else None
    if rec is None or best is None or best.meets.get("practical") is not False:
        return ""
    w = rec.workload
    try:
        args = training_time_setup(w, best.gpu, best.gpus, best.owned)
        r = long_run(args)
    except (ToolError, LookupError, ValueError):
        return ""
    if r is None:
        return ""
    if recorder is not None:
        recorder("long_run", args.model_dump(mode="json"), r.model_dump(mode="json"), 0.0)
    from gpu_advisor.knowledge import find_gpu

    card = find_gpu(best.gpu).name
    lines = [say(lang, "buy2.long.head", n=best.gpus, card=card, hours=f"{r.hours:,.0f}", days=f"{r.days:,.0f}",
                 limit=PRACTICAL_DAYS), say(lang, "buy2.long.fix")]
    if r.month_gpus:
        lines.append(say(lang, "buy2.long.more_cards", n=r.month_gpus, card=card, hours=f"{r.month_hours:,.0f}",
                         days=MONTH_DAYS))
    lines.append(say(lang, "buy2.long.fewer_tokens", n=best.gpus, card=card, days=MONTH_DAYS,
                     tokens=f"{r.month_tokens_b:,.0f}"))
    if w.spec.pretrains:
        lines.append(say(lang, "buy2.long.continued"))
    return "\n".join(lines)
