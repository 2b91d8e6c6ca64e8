"""'Is it enough?' on cards that hold the job but finish it after the deadline: no, first, with the hours against
the deadline (a fit in memory is not a yes when the run ends too late)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.durations import hours_figure
from gpu_advisor.tools.recommend import Option, Recommendation


def late_fit(rec: Recommendation, option: Option, lang: str, words: str, used: str, capacity: str) -> str | None:
    """The 'no' for cards that hold the run or job but end it past the deadline said; None otherwise."""
    w = rec.workload
    took = option.training_hours if w.spec.trains else option.job_hours
    if w.deadline_hours is None or took is None or took <= w.deadline_hours:
        return None
    met = rec.best is not None and rec.best.ok and rec.best is not option  # a plan below meets it
    if w.spec.batch and option.aggregate_tokens_per_s and option.needed_tokens_per_s:
        # a batch job: the speed the cards give against the speed the deadline asks (review BO #2)
        line = say(lang, "deadline.fits_late_batch", option=words, used=used, capacity=capacity, hours=hours_figure(took),
                   deadline=f"{w.deadline_hours:,.0f}", tps=f"{option.aggregate_tokens_per_s:,.0f}",
                   tps_need=f"{option.needed_tokens_per_s:,.0f}")
        return line + (say(lang, "deadline.plan_below") if met else "")
    return say(lang, "deadline.fits_late" if met or not w.spec.batch else "deadline.fits_late_none", option=words,
               used=used, capacity=capacity, hours=hours_figure(took), deadline=f"{w.deadline_hours:,.0f}")
