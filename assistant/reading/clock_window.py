"""A job's window said as the clock time it starts and the one it must end by ('starts at 1am, must finish by 8am',
'from 11pm to 6am', '凌晨1点开始…早上8点前跑完'): the hours between them are its deadline (7 h), and 'is it enough'
is answered on them. Not on a service (a range there is its busy hours); a bare range only on a batch or training
job, a start and a due time also in a later turn that names no job. Grammar only: the
words are in words/clock_window.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.deadline import _clock
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern

DAY_HOURS = 24.0
# The phases whose job has an end (m.phase): a service's range of hours is when it is busy, not a deadline.
JOB_PHASES = ("batch", "fine-tune", "pretrain", "continued-pretrain")


def window_hours(m: Message, said: float | None) -> float | None:
    """The job's deadline: hours from the clock time it starts to the one it must end by (past midnight: the next
    day's), before the deadline words read (`said`, tools of reading.deadline); a bare range only when no deadline was
    said ('three days, but the machines only from 10pm to 8am': a window of the days, shrinking them, in the engine)."""
    if m.phase is not None and m.phase not in JOB_PHASES:
        return said
    text = m.masked
    pair = _start_and_due(text) or (_range(text) if said is None and m.phase in JOB_PHASES else None)
    if pair is None:
        return said
    start, due = pair
    return round((due - start) % DAY_HOURS or DAY_HOURS, 4)


def _range(text: str) -> tuple[float, float] | None:
    """'from 11pm to 6am', 'between 1am and 8am': a range said once, not working hours."""
    x = word_pattern("window_range").search(text)
    if x is None or negated(text, x.start()) or word_pattern("window_not").search(text[max(0, x.start() - 30):x.end()]):
        return None
    start, due = _clock(x.group(1)), _clock(x.group(2))
    return None if start is None or due is None else (start, due)


def _start_and_due(text: str) -> tuple[float, float] | None:
    """'starts at 1am … must finish by 8am', in either order: the start's clock and the due one."""
    s = word_pattern("window_start").search(text)
    d = word_pattern("clock_due").search(text)
    if s is None or d is None or negated(text, d.start()):
        return None
    start, due = _clock(next(g for g in s.groups() if g)), _clock(d.group(1))
    return None if start is None or due is None else (start, due)
