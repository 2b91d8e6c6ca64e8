"""A batch job's volume said per day ('每天要处理50万份合同…当天必须跑完', 'generate about 2 billion tokens of synthetic
data per day … that keeps up'): one day's volume with the day to do it in, every day. With no deadline said, the
day is the deadline (24 h), so the cards are counted to finish a day's work within the day, not one card taking
weeks over it. Grammar only: the words are in words/daily_volume.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clock_window import window_hours
from gpu_advisor.assistant.reading.deadline import read_deadline
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern

DAY_HOURS = 24.0
# The roles of a batch job's volume: the items, or the tokens they read or write.
VOLUME_ROLES = ("items", "output_tokens", "batch_input_tokens", "train_tokens", "prompt_tokens")
NEAR_BEFORE, NEAR_AFTER = 24, 48  # characters around the volume read for its day


def read_deadline_or_day(m: Message) -> float | None:
    """Hours until the job must be done: the deadline said, else a day for a batch volume said per day."""
    hours = window_hours(m, read_deadline(m))  # 'starts at 1am, must finish by 8am': 7 h, not a day
    if hours is not None or m.phase != "batch":
        return hours
    return DAY_HOURS if daily_volume(m) else None


def daily_volume(m: Message) -> bool:
    """The message says a batch volume per day, or the day's work due the same day."""
    if word_pattern("daily_volume_same_day").search(m.masked):
        return bool(m.role(*VOLUME_ROLES)) or bool(word_pattern("daily_volume_day").search(m.masked))
    day = word_pattern("daily_volume_day")
    return any(q.value >= 1000 and day.search(m.masked[max(0, q.start - NEAR_BEFORE):q.end + NEAR_AFTER])
               for q in m.role(*VOLUME_ROLES))
