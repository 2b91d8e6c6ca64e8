"""'Is it enough?' on cards that hold the job but finish it after the deadline: no, first, with the hours against
the deadline (a fit in memory is not a yes when the run ends too late)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.recommend import Option, Recommendation


def late_fit(rec: Recommendation, option: Option, lang: str, words: str, used: str, capacity: str) -> str | None:
    """The 'no' for cards that hold the run or job but end it past the deadline said; None otherwise."""
    w = rec.workload
    took = option.training_hours if w.spec.trains else option.job_hours
    if w.deadline_hours is None or took is None or took <= w.deadline_hours:
        return None
    return say(lang, "deadline.fits_late", option=words, used=used, capacity=capacity, hours=f"{took:,.0f}",
               deadline=f"{w.deadline_hours:,.0f}")
