"""A bare count said per day, hour, minute or second, with no noun ('no wait, 50k a day', 'actually 50k/day', '不对，是
每天五万', '改成每小时5000'): alone it names nothing, but after a message that counted requests it corrects that rate
(review S27 #1). The rate it would be, read as 'N requests a day' is (reading.serving.read_request_rate: a day's volume
sized at its busiest hour, said), is kept in u.ask['period_rate'] with its notes; assistant/period_rate.py applies it
only when the plan already has a request rate. Grammar only: the words are in words/period_count.yaml."""

from __future__ import annotations

from dataclasses import replace

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern

NEAR = 40  # characters read before the count for its period


def _period(word: str) -> str | None:
    word = word.strip().lower()
    return next((p for p, words in vocab()["period_count"]["periods"].items() if word in words), None)


def read_period_count(m: Message, u: Understanding) -> None:
    """u.ask['period_rate'] = {'requests_per_s', 'period', 'notes'} for the last bare count said per period."""
    from gpu_advisor.assistant.reading.serving import read_request_rate

    if "requests_per_s" in u.updates or m.phase == "batch" or m.role("request_rate"):
        return
    for i in reversed(range(len(m.qty))):
        q = m.qty[i]
        if q.role or q.negated or q.value < 1:
            continue
        period = _said_period(m, q.start, q.end)
        if period is None:
            continue
        kept, notes, problems = list(m.qty), len(m.notes), len(m.problems)
        m.qty[i] = replace(q, role="request_rate", extra=period)
        try:
            rate = read_request_rate(m)
        finally:
            said = m.notes[notes:]
            m.qty, m.notes, m.problems = kept, m.notes[:notes], m.problems[:problems]
        if rate:
            u.ask["period_rate"] = {"requests_per_s": rate, "period": period, "notes": said}
        return


def _said_period(m: Message, start: int, end: int) -> str | None:
    """The period a bare count at masked[start:end] is said per, or None (a noun after it names something else)."""
    after = word_pattern("period_count.after").match(m.masked[end:end + NEAR])
    if after and word_pattern("period_count.end").match(m.masked[end + after.end():end + after.end() + NEAR]):
        return _period(after.group("per") or after.group("ly"))
    before = word_pattern("period_count.before").search(m.masked[max(0, start - NEAR):start])
    if before and word_pattern("period_count.end").match(m.masked[end:end + NEAR]):
        return _period(next(g for g in (before.group("per"), before.group("one"), before.group("zh")) if g))
    return None
