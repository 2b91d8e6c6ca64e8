"""Deadlines from one weekday and hour to another ('its friday 5pm, deadline is monday morning': 64 h; '周五下班到
周一早上'): the days between times 24 plus the hours between the two times of day, a part of the day ('morning')
taken at its usual hour and said back. Read only when both hours are known; else the weekday readers decide."""

from __future__ import annotations

import re
from collections.abc import Callable

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import vocab, word_pattern

NOTE_KEY = "deadline.window"
_DAYS_ZH = {"monday": "周一", "tuesday": "周二", "wednesday": "周三", "thursday": "周四", "friday": "周五",
            "saturday": "周六", "sunday": "周日"}


def _hour(text: str, clock: Callable[[str], float | None]) -> tuple[float | None, str | None]:
    """The hour a few words name and, when it is a part of the day ('morning', '下班'), that word."""
    parts = {**vocab()["parts_of_day"], **vocab()["weekday_window_parts"]}
    said = text.strip(" ,(")
    for word in sorted(parts, key=len, reverse=True):
        if re.match(rf"(?:in the\s+|at\s+|by\s+)?{re.escape(word)}(?![a-z])", said):
            return float(parts[word]), word
    return clock(text), None


def _ends(m: Message) -> tuple[str, str, str, str, bool, bool] | None:
    """(start day, the start's words, due day, the due's words, whether the due day is next week's ('下周一'), whether
    the start is today ('its thursday')) said in the message."""
    x = word_pattern("weekday_window_range").search(m.masked)
    if x and not negated(m.masked, x.start()):
        return x.group(1), x.group(2), x.group(4), m.masked[x.end():x.end() + 24], bool(x.group(3)), False
    today = word_pattern("weekday_today").search(m.masked)
    due = next((d for d in word_pattern("weekday_window_due").finditer(m.masked)
                if today and not today.start() <= d.start() < today.end()), None)
    if today and due and not negated(m.masked, due.start()):
        return (today.group(1), m.masked[today.end():today.end() + 24], due.group(2),
                m.masked[due.end():due.end() + 24], bool(due.group(1)), True)
    return None


def window_deadline(m: Message, clock: Callable[[str], float | None]) -> float | None:
    """Hours from the start day and hour to the due day and hour, said back with any hour assumed; None when
    the message says no such pair of days with both hours. Today's weekday said with no time ('its thursday, due
    monday morning') is taken late that day (weekday_window_now_unknown): the least time the day can leave, said
    (review CH #3: Thursday to Monday 09:00 was 96 h, the most it could be and more than most of the day leaves)."""
    ends = _ends(m)
    if ends is None:
        return None
    start_day, start_words, due_day, due_words, next_week, today = ends
    (start_h, start_part), (due_h, due_part) = _hour(start_words, clock), _hour(due_words, clock)
    now_unknown = today and start_h is None and due_h is not None
    if now_unknown:
        start_h = float(vocab()["weekday_window_now_unknown"])
    if start_h is None or due_h is None:
        return None
    order = list(_DAYS_ZH)
    start, due = order.index(start_day), order.index(due_day)
    days = 7 - start + due if next_week else (due - start) % 7  # '下周一' from a Wednesday: 5 days
    hours = days * 24 + due_h - start_h
    if hours <= 0:
        hours += 7 * 24
    zh = m.lang == "zh"
    parts_zh = vocab()["weekday_window_parts_zh"]
    assumed = [(parts_zh.get(part, part) if zh else part, f"{hour:02.0f}:00")
               for part, hour in ((start_part, start_h), (due_part, due_h)) if part]
    key = NOTE_KEY + ("_now" if now_unknown else "") + ("_assumed" if assumed else "")
    m.notes.append((key, {
        "start": _when(start_day, start_h, zh), "due": _when(due_day, due_h, zh), "hours": f"{hours:,.0f}",
        "assumed": ("，" if zh else ", ").join((f"“{w}”按 {h}" if zh else f'"{w}" as {h}') for w, h in assumed)}))
    return round(hours, 4)


def _when(day: str, hour: float, zh: bool) -> str:
    clock = f"{int(hour) % 24:02d}:{round(hour % 1 * 60):02d}"
    return f"{_DAYS_ZH[day]} {clock}" if zh else f"{day.capitalize()} {clock}"
