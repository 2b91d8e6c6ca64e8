"""The deadline line of a batch job, with its margin (review advice29 #3): the typical time against the deadline,
then the time at the slow end of the speed's measured range (tools.deadline_margin sizes the count so that it is
within the deadline too), and the check to make in the first hour: the tokens per second the cards must write over
the run (Option.needed_tokens_per_s), and the items an hour, below which more cards are needed."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import hours, tps
from gpu_advisor.tools.recommend import Option, Workload


def deadline_lines(w: Workload, best: Option, lang: str) -> list[str]:
    """The '**Deadline:**' paragraph for the plan: met, close or missed; for a batch job its slow end and the
    first-hour check. [] without a deadline or a time."""
    if w.deadline_hours is None or best.job_hours is None:
        return []
    key = ("fig.deadline_met" if best.meets.get("deadline", True) else
           "fig.deadline_close" if best.job_hours <= w.deadline_hours else "fig.deadline_missed")
    line = say(lang, key, hours=hours(best.job_hours), deadline=hours(w.deadline_hours))
    slow = best.job_hours_slow
    if w.spec.batch and slow is not None and slow > best.job_hours * 1.01:
        spare = w.deadline_hours - slow
        line += say(lang, "fig.deadline_slow_end" if spare >= 0 else "fig.deadline_slow_late", slow=hours(slow),
                    spare=hours(max(0.0, spare)), deadline=hours(w.deadline_hours))
    lines = [line, ""]
    if w.spec.batch and best.needed_tokens_per_s and w.deadline_hours > 1:
        per_hour = (w.batch_items or 1) / w.deadline_hours
        lines += [say(lang, "fig.deadline_first_hour", tps=tps(best.needed_tokens_per_s), items=f"{per_hour:,.0f}",
                      typical=tps(best.aggregate_tokens_per_s or 0)), ""]
    return lines
