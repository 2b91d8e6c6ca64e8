"""The first line owed to 'will a single A10G get it done?', '一张 A10G 来得及吗' about a batch job with a deadline:
yes or no on the cards asked about, by the hours that many cards take (tools.recommend's option at that count)
against the deadline, never by memory alone (the job fits one A10G; it misses the deadline by days)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import gb, hours
from gpu_advisor.tools.recommend import Option, Recommendation


def batch_deadline_line(rec: Recommendation, option: Option, lang: str) -> tuple[str, dict[str, Any]] | None:
    """'**No**: 1 × A10G takes about 93 h, past the 14 h you have; 8 × A10G below take 11.6 h', or the yes; None
    when the job has no deadline or the cards asked about do not hold it (the memory verdict then says why)."""
    w, best = rec.workload, rec.best
    if best is None or not w.deadline_hours or option.job_hours is None or "deadline" not in option.meets:
        return None
    if option.serve_per_gpu_bytes is not None and option.serve_per_gpu_bytes > option.capacity_bytes:
        return None
    which = f"{option.gpus} × {option.gpu_name}"
    data = {"gpu": option.gpu, "gpus": option.gpus, "fits": True, "meets_deadline": option.meets["deadline"],
            "job_hours": option.job_hours}
    if option.meets["deadline"]:
        return say(lang, "lengths.pinned_batch_yes", option=which, hours=hours(option.job_hours),
                   deadline=f"{w.deadline_hours:,.0f}"), data
    plan = f"{best.gpus} × {best.gpu_name}"
    if best.job_hours is None or best is option:
        return say(lang, "lengths.pinned_batch_no_alone", option=which, hours=hours(option.job_hours),
                   deadline=f"{w.deadline_hours:,.0f}", used=gb(option.serve_per_gpu_bytes or 0),
                   capacity=gb(option.capacity_bytes)), data
    return say(lang, "lengths.pinned_batch_no", option=which, hours=hours(option.job_hours),
               deadline=f"{w.deadline_hours:,.0f}", plan=plan, plan_hours=hours(best.job_hours)), data
