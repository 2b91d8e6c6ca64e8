"""The hours of a day a service is used, when the message says them: a clock range ('9 to 6', '9:00-18:00'), hours a
day ('12 hours a day'), working hours ('工作时间', 'during office hours': a working day's WORKING_DAY_HOURS) or the
daytime ('白天用', 'during the day': DAYTIME_HOURS). A volume said per day is used within them, not spread round the
clock (reading.usage; assistant.day_volume packs one said before). Grammar only: the words are words/time.yaml's
utilisation rows and words/traffic_shape.yaml's."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.serving import _hours_a_day
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern
from gpu_advisor.assistant.reading.traffic_shape import DAYTIME_HOURS

# A working day: the hours behind the utilisation table's 'working hours' (about 40 of the week's 168, 5 days of 8).
WORKING_DAY_HOURS = 8.0
WORKING = "working hours"  # the label of the utilisation row those words fill (words/time.yaml)


def busy_hours_a_day(m: Message) -> float | None:
    """The hours a day the service is used, when said (under 24), else None."""
    hours = _hours_a_day(m)
    if hours is not None:
        return hours if 0 < hours < 24 else None
    for pattern, (_value, label) in pattern_rows("utilisation"):
        said = [x.group(0) for x in pattern.finditer(m.masked) if not negated(m.masked, x.start())] if label == WORKING else []
        if said:  # 'during the day', 'daytime': the day's half; 'working hours', '9-5': a working day
            return DAYTIME_HOURS if all(word_pattern("day_window_daytime").fullmatch(w) for w in said) else WORKING_DAY_HOURS
    if word_pattern("daytime_peak").search(m.masked):
        return DAYTIME_HOURS
    return None
