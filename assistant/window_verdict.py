"""The yes of 'is it enough' for a batch job with a deadline on cards you own ('凌晨1点开始，早上8点前跑完…两张 L20
够不够'): the hours the job takes against the hours it has, first, not only that the model fits (review AL 18)."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.durations import hours_figure
from gpu_advisor.tools.recommend import Option, Recommendation


def window_yes(rec: Recommendation, option: Option, lang: str, option_words: str, used: str,
               capacity: str) -> str | None:
    """'**Yes**: 2 x L20 finish the job in about 2.7 h, within the 7 h you have', or None when the job has no
    deadline, is not a batch job, or misses it (the plan's own 'not enough' line says that)."""
    w = rec.workload
    if not w.spec.batch or w.deadline_hours is None or option.job_hours is None or not option.ok:
        return None
    return say(lang, "fig3.window_yes", option=option_words, hours=hours_figure(option.job_hours),
               window=f"{w.deadline_hours:,.4g}", used=used, capacity=capacity)
