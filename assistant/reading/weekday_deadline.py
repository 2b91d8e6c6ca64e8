"""Weekday deadlines read with no calendar ('by next wednesday', '下周三之前', 'by friday', '周五前'): the days to
the day named are a range that depends on today, so the short end is taken and said with the range, never one
figure said as fact. The day it is today, when said ('today is tuesday'), makes it exact elsewhere (deadline)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import pattern_rows, vocab, word_pattern

NOTE_KEY = "reply.deadline_weekday_span"
SAID_KEY = "deadline.days_said"  # a weekday with the days left said: those count


def _order() -> list[str]:
    return list(dict.fromkeys(vocab()["zh_weekdays"].values()))  # monday ... sunday


def day_range(day: str, which: str) -> tuple[int, int]:
    """Shortest and longest days to a weekday (Monday first): the coming one is 1 to 7 days away; next week's
    ('下周三') from Sunday is 3 days, from Monday 9."""
    index = _order().index(day)
    return (index + 1, index + 7) if which == "following" else (1, 7)


def _said(day: str, which: str, lang: str) -> str:
    """The day as the user would say it: 'next Wednesday', 'Friday', '下周三', '周五'."""
    if lang == "zh":
        zh = next(k for k, v in vocab()["zh_weekdays"].items() if v == day)
        return ("下周" if which == "following" else "周") + zh
    return ("next " if which == "following" else "") + day.capitalize()


def weekday_spans(m: Message, ranges: list[tuple[int, int]]) -> list[tuple[int, int, float]]:
    """(start, end, hours at the short end) of each weekday deadline, with a note saying the range. A deadline
    changed to a day ('the deadline gets pulled in to friday') is read as 'by' that day. Days in `ranges` ('周一到周五')
    are the days of use, no deadline."""
    rows = pattern_rows("weekday_deadline_spans")
    said = [(x.start(), x.end(), x) for pattern, _w in rows for x in pattern.finditer(m.masked)]
    for change in word_pattern("deadline_change").finditer(m.masked):
        rest = "by " + m.masked[change.end():change.end() + 40]
        said += [(change.end(), change.end() + x.end() - 3, x) for pattern, _w in rows if (x := pattern.match(rest))]
    found: list[tuple[int, int, float]] = []
    for start, end, x in sorted(said, key=lambda hit: hit[0]):
        if negated(m.masked, start) or any(s <= start < e for s, e, *_h in [*found, *ranges]):
            continue
        which = "following" if re.search(r"\b(?:next|following)\s", x.group(0)) else "coming"
        day = x.group(1) or x.group(2)
        short, long = day_range(day, which)
        hours = short * 24.0
        found.append((start, max(end, start + 1), hours))
        m.notes.append((NOTE_KEY, {"words": _said(day, which, m.lang), "short": f"{short}",
                                   "long": f"{long}", "hours": f"{hours:,.0f}"}))
    return found


def weekday_hits(m: Message, hits: list[tuple[int, float]]) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """The deadline hits with the weekday ones replaced by their short end, and those (position, hours). The day it
    is today, when said ('today is tuesday', 'if I start monday'), counts exactly instead: nothing replaced."""
    if word_pattern("weekday_today").search(m.masked) or word_pattern("weekday_start").search(m.masked):
        return hits, []
    ranges = [(x.start(), x.end()) for x in word_pattern("weekday_range").finditer(m.masked)]  # '周一到周五用'
    days = weekday_spans(m, ranges)
    kept = [h for h in hits if not any(s <= h[0] < e for s, e, *_h in [*days, *ranges])]
    if m.role("deadline"):  # '周五前（还有3天）', 'by friday, 3 days left': the days said count, no range to guess
        return said_instead(m, kept), []
    return kept, [(s, h) for s, _e, h in days]


def said_instead(m: Message, hits: list[tuple[int, float]]) -> list[tuple[int, float]]:
    """The time left said beside a weekday ('by thursday (2 days)', '周五前（还有3天）') counts: the weekday's range
    note gives way to one saying the hours counted (the last said). Returns the hits."""
    if hits and any(key == NOTE_KEY for key, _v in m.notes):
        m.notes[:] = [n for n in m.notes if n[0] != NOTE_KEY] + [(SAID_KEY, {"hours": f"{max(hits)[1]:,.0f}"})]
    return hits
