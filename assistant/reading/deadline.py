"""Readers of time: deadlines in hours, from durations, day words and clock times."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.growth import calendar_said
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import pattern_rows, vocab, word_pattern
from gpu_advisor.assistant.reading.weekday_deadline import NOTE_KEY, SAID_KEY, said_instead, weekday_hits
from gpu_advisor.assistant.reading.weekday_window import NOTE_KEY as WINDOW_KEY
from gpu_advisor.assistant.reading.weekday_window import window_deadline

WEEK_HOURS = 168


def read_deadline(m: Message) -> float | None:
    """Hours until an offline job must be done: 'within 2 days' (48), 'in 10 hours', 'by tomorrow'
    (24), 'by Friday' (1 to 7 days: the short end, 24, said with the range)."""
    window = window_deadline(m, _clock)  # 'its friday 5pm, due monday morning': 64 h
    return window if window is not None else _said_deadline(m)


def _said_deadline(m: Message) -> float | None:
    """The deadline from durations, day words and clock times (read_deadline)."""
    hits: list[tuple[int, float]] = []
    table = vocab()["duration_hours"]
    for q in m.role("deadline"):
        hits.append((q.start, q.value * table.get(q.extra, 1)))
    said = bool(hits)
    for pattern, hours in pattern_rows("deadline_words"):
        for x in pattern.finditer(m.masked):
            if not negated(m.masked, x.start()) and not (said and hours <= 24):
                hits.append((x.start(), float(hours)))  # "overnight in an 8 hour window": the hours said win
    hits += _changed_to(m, hits)
    spans = _spans(m)
    hits, days = weekday_hits(m, hits)  # "by next wednesday": a range of days, the short end taken and said
    spans += days
    hits += spans
    hits += _restated(m, hits, table)
    now = word_pattern("clock_now").search(m.masked)
    now_h = _clock(next(g for g in now.groups() if g)) if now else None
    tomorrow = word_pattern("tomorrow").search(m.masked)
    weekday = word_pattern("weekday_today").search(m.masked)
    if now_h is not None and tomorrow and not weekday:  # "by tomorrow 9am, its 6pm now"
        due_h = _clock(m.masked[tomorrow.end():tomorrow.end() + 20])
        if due_h is not None:
            hits = [(pos, 24 + due_h - now_h if pos == tomorrow.start() or hours == 24 else hours)
                    for pos, hours in hits]
    due_clock = word_pattern("clock_due").search(m.masked)
    if now_h is not None and due_clock and not weekday and not negated(m.masked, due_clock.start()):
        due_h = _clock(due_clock.group(1))  # "it's 8pm now, due by 9am": the next 9am, 13 hours away
        if due_h is not None:
            hours = (due_h - now_h) % 24 or 24.0
            hits = [(pos, h) for pos, h in hits if h != 24] + [(due_clock.start(), hours)]
    today = word_pattern("weekday_today").search(m.masked) or word_pattern("weekday_start").search(m.masked)
    if today:  # "today is Tuesday", "if I start monday morning": the hours from then to the day due
        days = vocab()["zh_weekdays"].values()
        order = list(dict.fromkeys(days))  # monday ... sunday
        group = 1 if today.group(1) else 2
        start = order.index(today.group(group))
        now_h = _clock(m.masked[today.end(group):today.end(group) + 20])
        due = {x.start(): _days_to(order.index(x.group(1)), start, "following" in x.group(0)) * 24.0 + (
                   (_clock(m.masked[x.end():x.end() + 20]) or now_h) - now_h if now_h is not None else 0.0)
               for x in word_pattern("weekday_due").finditer(m.masked)
               if not today.start() <= x.start() < today.end()}  # the start's own "by monday" is no deadline
        hits = [(pos, due.get(pos, hours)) for pos, hours in hits if not today.start() <= pos < today.end()]
    if not hits:
        date = word_pattern("deadline_dates").search(m.masked)
        if date and not negated(m.masked, date.start()):  # "before Christmas": no calendar to count to; asked
            m.notes.append(("reply.deadline_date", {"words": date.group().strip()}))
        return None
    value = max(hits)[1]
    if value <= 0:
        m.problems.append(("deadline_past", {}))
        return None
    if max(hits) not in spans:
        calendar_said(m, max(hits)[0], value)
    return round(value, 4)


def _restated(m: Message, hits: list[tuple[int, float]], table: dict[str, float]) -> list[tuple[int, float]]:
    """A bare duration after the deadline word says it exactly ('by tomorrow morning, so ~12 hours', 'by thursday (2
    days)': the hours said, not the weekday's short end); with no deadline word, a message that is only a duration."""
    if not hits:
        bare = _bare_duration(m)  # 'call it 6 days', '算6天吧' after a plan: the deadline, corrected
        return [bare] if bare is not None else []
    first = min(pos for pos, _h in hits)
    restated = [(q.start, q.value * table[q.extra]) for q in m.qty
                if not q.role and q.extra in table and q.start > first and not q.negated
                and word_pattern("deadline_restated_before").search(m.masked[max(0, q.start - 24):q.start])
                and not word_pattern("deadline_restated_not").match(m.masked[q.end:q.end + 24])]
    said_instead(m, restated)
    if restated and not any(key == SAID_KEY for key, _v in m.notes):
        # 'by end of next week (call it 6 days)': the days said count, said back, never the vague words' guess
        m.notes.append((SAID_KEY, {"hours": f"{max(restated)[1]:,.0f}"}))
    return restated


def _bare_duration(m: Message) -> tuple[int, float] | None:
    """A message that is only a duration, with the words that correct a figure around it ('call it 6 days', 'make it
    144 hours', '算6天吧', '改成5天'): the time the job has, replacing a vaguer deadline said before."""
    said = [q for q in m.qty if not q.negated]
    if m.pending not in (None, "deadline_hours") or len(said) != 1 or said[0].role or said[0].extra not in vocab()["deadline_bare_units"]:
        return None
    q = said[0]
    if not word_pattern("deadline_bare_before").fullmatch(m.masked[:q.start]) \
            or not word_pattern("deadline_bare_after").fullmatch(m.masked[q.end:]):
        return None
    return q.start, q.value * vocab()["duration_hours"][q.extra]


def _spans(m: Message) -> list[tuple[int, float]]:
    """Deadlines said relative to today that span weeks ('by the end of next month': 4 to 8 weeks): the short end,
    said with the range and how to correct it."""
    found: list[tuple[int, float]] = []
    for pattern, (short, long, key) in pattern_rows("deadline_spans"):
        x = pattern.search(m.masked)
        if x and not negated(m.masked, x.start()):
            hours = float(short * WEEK_HOURS)
            found.append((x.start(), hours))
            m.notes.append((str(key), {"short": f"{short}", "long": f"{long}", "hours": f"{hours:,.0f}"}))
    return found


def _changed_to(m: Message, hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """A deadline changed to a day word ('the deadline gets pulled in to tomorrow 9am', 'deadline moved to friday'):
    read as 'by' that day."""
    found: list[tuple[int, float]] = []
    for x in word_pattern("deadline_change").finditer(m.masked):
        said = "by " + m.masked[x.end():x.end() + 40]
        for pattern, hours in pattern_rows("deadline_words"):
            if pattern.match(said) and not any(pos == x.end() for pos, _h in [*hits, *found]):
                found.append((x.end(), float(hours)))
    return found


def _days_to(day: int, today: int, next_week: bool) -> int:
    """Days from today to a weekday (Monday 0): the coming one, or next week's ('下周五': from Monday, 11)."""
    return 7 - today + day if next_week else (day - today) % 7 or 7


def _clock(text: str) -> float | None:
    """The hour a few words name ('5pm', '17:30', 'morning'; Chinese clock words are rewritten into
    these before reading), as hours after midnight."""
    x = re.match(r"\s*(?:at\s+|by\s+|,\s*)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\s*(?:at\s+|by\s+)?(\d{1,2}):(\d{2})\b", text)
    if x and x.group(1):
        hour = int(x.group(1)) % 12 + (12 if x.group(3) == "pm" else 0)
        return hour + int(x.group(2) or 0) / 60
    if x:
        return int(x.group(4)) + int(x.group(5)) / 60 if int(x.group(4)) < 24 else None
    parts = vocab()["parts_of_day"]
    word = re.match(r"\s*(?:in the\s+|at\s+|by\s+)?([a-z][a-z ]{0,20})", text)
    for n in range(3, 0, -1):  # 'end of day' before 'day'
        said = " ".join((word.group(1) if word else "").split()[:n]) if word else ""
        if said in parts:
            return float(parts[said])
    return None



def span_noted(notes: list[tuple[str, dict[str, str]]]) -> bool:
    """Whether the message's deadline was a span of weeks already said back ('by the end of next month')."""
    keys = {str(key) for _p, (_s, _l, key) in pattern_rows("deadline_spans")} | {NOTE_KEY, SAID_KEY, WINDOW_KEY, WINDOW_KEY + "_assumed", WINDOW_KEY + "_now", WINDOW_KEY + "_now_assumed"}
    return any(key in keys for key, _v in notes)
