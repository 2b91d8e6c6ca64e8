"""A count of users expected by a date is the users to size for: 'actually users is like 500 by march',
'到3月用户会到500' (500 users), never a utilisation nor a context. Grammar only: the words are in
words/growth.yaml."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message


def users_by_a_date(before: str, strip) -> bool:  # strip: people.strip_fillers
    """The words before a count name the users, with the date they are reached said in between or a lead word
    ('actually users is like', 'users by march will be', 'users 数到 3 months 会涨到')."""
    bare = word_pattern("growth_by_time").sub(" ", before)
    return bool(word_pattern("users_growth_before").search(strip(bare))
                or (bare != before and word_pattern("users_before").search(strip(bare))))


def a_quarter(text: str, start: int, end: int) -> bool:
    """'by Q3', 'before q4': a quarter of the year named, not a weight format."""
    return bool(word_pattern("quarter_date").match(text[start:end])
                and word_pattern("quarter_before").search(text[max(0, start - 20):start]))


def calendar_said(m: Message, pos: int, hours: float) -> None:
    """'by end of month': a date with no calendar to count from; the hours taken for it are said back (an
    English message: the words are the user's own; weekday and weekend words are the engine's note)."""
    said = word_pattern("deadline_calendar").match(m.masked, pos) or word_pattern("deadline_calendar").search(
        m.masked[pos:pos + 40])
    if said and m.lang == "en" and m.phase not in ("serve", "production"):
        m.notes.append(("reply.deadline_assumed", {"words": said.group().strip(), "hours": f"{hours:,.0f}"}))
