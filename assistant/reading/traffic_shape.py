"""A service's traffic shape said in words (tools.traffic_month prices it by the month): the busy hours a day
('9 to 6', 'busy during the day', '白天高峰'), the days a week ('on weekdays', '工作日'), and how busy the rest of the
time is ('almost nobody at night', '晚上几乎没人'). Read on a service only. Grammar only: the words are in
words/traffic_shape.yaml and words/time.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.serving import _clock_span
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern

SERVING_PHASES = ("serve", "train-and-serve")
DAYTIME_HOURS = 12.0  # 'busy during the day' without clock times: the day's half
WEEKDAYS = 5.0


def _serving(m: Message) -> bool:
    return m.phase in SERVING_PHASES


def read_offpeak_share(m: Message) -> float | None:
    """The quiet hours' load as a share of the busy hour's: 'almost nobody at night' 0.05, 'nobody at night' 0."""
    if not _serving(m):
        return None
    for pattern, value in pattern_rows("offpeak_share"):
        if pattern.search(m.masked) or pattern.search(m.raw.lower()):
            return float(value)
    return None


def read_peak_hours(m: Message) -> float | None:
    """Busy hours a day: a clock range ('9 to 6 on weekdays' 9), else 'busy during the day' (12), when the message
    says a shape (a clock range, a daytime peak, or quiet hours)."""
    if not _serving(m):
        return None
    span = _clock_span(m)
    if span is not None:
        return round(span * 24, 2)
    if word_pattern("daytime_peak").search(m.masked) or read_offpeak_share(m) is not None:
        return DAYTIME_HOURS
    return None


def read_peak_days(m: Message) -> float | None:
    """Days a week with busy hours: 5 when said on weekdays only, with a busy span."""
    if read_peak_hours(m) is not None and word_pattern("weekdays_only").search(m.masked):
        return WEEKDAYS
    return None
