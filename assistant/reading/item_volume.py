"""A count of work items said per day, week or month for a service ('部署 Qwen2.5-VL-72B 做发票识别，每天大概两万张图片',
'serve it, ~20k invoices a day'): a volume, never a batch's items (a service has none) and never dropped (review CM
#9: it was, and the reply asked how many people chat with it). It is read as a request rate spread over the period,
as 'N requests a day' is (reading.serving.read_request_rate, its busiest hour said), and the count a day is kept
(slot items_per_day): a later 'not a chat, it runs as a batch, done within 8 h' is a batch job of that many items a
day, never asked again (assistant.day_items). Said with a batch or a window, the count stays the batch's items
(reading.job, reading.daily_volume). Grammar only: the words are in words/item_volume.yaml."""

from __future__ import annotations

from dataclasses import replace

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import vocab, word_pattern

SERVED = ("serve", "production", "train-and-serve", "experiment")
DAYS = {"day": 1.0, "week": 7.0, "month": 30.0}
NEAR = 40  # characters before or after the count read for its period


def _period(word: str) -> str:
    return next((p for p, words in vocab()["item_volume_periods"].items() if word in words), "day")


def period_said(m: Message, start: int, end: int) -> str | None:
    """The period ('day', 'week', 'month') a count of items at masked[start:end] is said per, or None."""
    after = word_pattern("item_volume_period_after").match(m.masked[end:end + NEAR])
    before = word_pattern("item_volume_period_before").search(m.masked[max(0, start - NEAR):start])
    for found in (after, before):
        if found:
            word = next(g for g in (found.groupdict().get(k) for k in ("per", "ly", "zh")) if g)
            return _period(word)
    return None


def volume_said(m: Message) -> bool:
    """Items counted per day, week or month ('20k invoices a day'): a volume, served when nothing else says the
    job's kind (reading.job.read_phase; a batch word or a window said makes it a batch)."""
    return any(not q.negated and q.value >= 1 and period_said(m, q.start, q.end) for q in m.role("items"))


def read_items_per_day(m: Message) -> int | None:
    """Items a day said for a service: the count is made a request rate over its period (a day's, or a month's
    spread the same way; a week's a seventh of it a day) for the rate reader, and returned as the count a day."""
    if m.phase not in SERVED or m.role("request_rate"):
        return None
    per_day = None
    for i, q in enumerate(m.qty):
        if q.negated or q.role != "items" or q.value < 1 or (period := period_said(m, q.start, q.end)) is None:
            continue
        days = DAYS[period]
        extra = "month" if period == "month" else "day"
        m.qty[i] = replace(q, role="request_rate", extra=extra, number=q.number / (7.0 if period == "week" else 1.0))
        per_day = per_day or max(1, round(q.value / days))
    return per_day
