"""buy2: a training run of many months on the cards named ('用4张H100训7B，2T token要多久': ~15,700 h) is no plan an
expert signs as meeting the job: past PRACTICAL_DAYS it is impractical (hardware fails, the model is stale before it
is done, the money is spent before anything is learned). What would make it practical, each sized by the training-time
tool: the cards that finish it in a month (MONTH_DAYS), the tokens the cards named get through in that month, and
continued pretraining of an open model of the size instead of training from scratch (review AY 14)."""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel

from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

PRACTICAL_DAYS = 90  # a run past about three months on the cards named is impractical
MONTH_DAYS = 30
NODE = 8  # cards beyond one server come in whole 8-card servers
MAX_CARDS = 4096


class LongRun(BaseModel):
    gpu: str
    gpus: int
    hours: float
    days: float
    month_gpus: int | None  # cards that finish the same run within MONTH_DAYS (whole servers past one)
    month_hours: float | None
    month_tokens_b: float  # billions of tokens the cards named train in MONTH_DAYS


def too_long(hours: float | None) -> bool:
    return hours is not None and hours > PRACTICAL_DAYS * 24


def long_run(args: TrainingTimeInput) -> LongRun | None:
    """The run on args.gpus cards, and what makes it practical; None when it takes PRACTICAL_DAYS or less."""
    r = training_time(args)
    if not too_long(r.hours):
        return None
    want = args.gpus * r.hours / (MONTH_DAYS * 24)
    n = max(NODE, math.ceil(want / NODE) * NODE) if want > NODE else 2 ** math.ceil(math.log2(max(1.0, want)))
    month_gpus, month_hours = None, None
    while n <= MAX_CARDS:  # the fewest that finish within the month as the tool times them (scaling is not linear)
        m = training_time(args.model_copy(update={"gpus": n}))
        if m.hours <= MONTH_DAYS * 24:
            month_gpus, month_hours = n, m.hours
            break
        n += NODE
    tokens = args.tokens * args.epochs * min(1.0, MONTH_DAYS * 24 / r.hours) / 1e9
    return LongRun(gpu=args.gpu, gpus=args.gpus, hours=r.hours, days=r.hours / 24, month_gpus=month_gpus,
                   month_hours=month_hours, month_tokens_b=tokens)


def mark_long_runs(w: Any, rec: Any, extra: list[Any] | None = None) -> Any:
    """The plan and its rows, each run past PRACTICAL_DAYS with no deadline said marked as not meeting the job
    (meets['practical'] False, with the reason), after the plan is chosen: the cards named stay the plan, never
    scaled up past what the user has; what would make it practical is said beside it (assistant/long_run_block.py)."""
    if rec is None or w.spec.serves or not w.spec.trains or w.deadline_hours:
        return rec
    rows = [o for o in [rec.best, *rec.options, *(extra or [])] if o is not None and too_long(o.job_hours)]
    for o in {id(o): o for o in rows}.values():
        if o.meets.get("practical") is None:
            o.meets["practical"] = False
            o.ok = False
            o.reasons.append(f"a run takes {o.job_hours / 24:,.0f} days, past the {PRACTICAL_DAYS} days a run can "
                             "practically take")
    return rec
