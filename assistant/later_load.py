"""Now and later ('3 rps now and 20 rps in 6 months … what do we need now and later'): the plan is sized for the rate
now; the rate said for later is sized beside it with the same tool (tools.recommend) on the same job, and both are
stated first, each with its cards and hourly price (reading/later_rate.py reads the two rates)."""

from __future__ import annotations

import json
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import cash, gpu_words, tps


def now_and_later(answer: Any, later_rps: float, lang: str, recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    """The plan now and the plan at the later rate, in one block; None when the plan has no rate or no option."""
    from gpu_advisor.assistant.advice import _call
    from gpu_advisor.tools.recommend import recommend

    rec = answer.recommend
    if rec is None or rec.workload is None or rec.best is None or not rec.workload.requests_per_s:
        return None
    w = rec.workload.model_copy(update={"requests_per_s": float(later_rps)})
    later = _call(recorder, "recommend", json.loads(json.dumps(w.model_dump(mode="json"))), lambda: recommend(w))
    rows = [_row(rec.best, rec, rec.workload.requests_per_s, "later.now", lang)]
    rows.append(_row(later.best, later, later_rps, "later.later", lang) if later.best is not None
                else say(lang, "later.none", rate=f"{later_rps:g}"))
    data = {"code": "later.sizing", "now_rps": rec.workload.requests_per_s, "later_rps": later_rps,
            "now": {"gpu": rec.best.gpu, "gpus": rec.best.gpus},
            "later": {"gpu": later.best.gpu, "gpus": later.best.gpus} if later.best is not None else None}
    return "\n".join([say(lang, "later.head"), *rows, say(lang, "later.advice")]), data


def _row(o: Any, rec: Any, rate: float, key: str, lang: str) -> str:
    price = say(lang, "later.per_hour", price=cash(o.usd_per_hour, rec)) if o.usd_per_hour else ""
    return say(lang, key, rate=f"{rate:g}", cards=gpu_words(o, lang), speed=tps(o.decode_tokens_per_s or 0),
               price=price)
