"""Requests per person a day beside a count of daily users: "日活两万，每人每天大概问 10 次", "20k DAU, each asks about
10 questions a day", "10 queries per user per day". The day's requests are users x requests per person; the
cards are sized for the busiest hour's rate, the day's average times rules.daily_requests_peak_factor, said in
the answer (not a share of the day's users at once). The words are in words/daily_asks.yaml."""

from __future__ import annotations

from dataclasses import replace

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import rules

SECONDS_A_DAY = 86400


def _per_person_a_day(m: Message, start: int, end: int) -> bool:
    """Whether the count at start:end is each person's a day ('each asks 10 questions a day', '每人每天问10次')."""
    before, after = m.masked[max(0, start - 40):start], m.masked[end:end + 48]
    words = word_pattern("daily_asks_after").match(after)
    person_before = word_pattern("daily_asks_person_before").search(before)
    if words is None or not (words.group("noun") or words.group("person")):
        return False
    person = bool(person_before or words.group("person"))
    day = bool(words.group("day") or (person_before and word_pattern("daily_asks_day_before").search(
        person_before.group(0))))
    return person and day


def read_daily_asks(m: Message) -> None:
    """A count of requests per person a day with the day's users said: the busiest hour's request rate, with a
    note that says how it was counted."""
    users = next((q for q in m.qty if q.role == "daily_users" and not q.negated and q.value >= 1), None)
    if users is None or any(q.role == "request_rate" for q in m.qty):
        return
    for i, q in enumerate(m.qty):
        if q.role not in ("", "items", "epochs") or q.negated or not 0 < q.value <= 1000:  # '每人每天聊20轮': turns
            continue
        if not _per_person_a_day(m, q.start, q.end):
            continue
        per_day = users.value * q.value
        factor = rules().daily_requests_peak_factor
        rps = per_day / SECONDS_A_DAY * factor
        m.qty[i] = replace(q, number=float(f"{rps:.3g}"), scale="", role="request_rate", extra="")
        k = m.qty.index(users)  # the day's users are counted in the rate: no share of them at once is sized
        m.qty[k] = replace(users, role="daily_users_in_rate")
        m.notes.append(("note.daily_asks_rate", {
            "users": f"{users.value:,.0f}", "each": f"{q.value:,.3g}", "per_day": f"{per_day:,.0f}",
            "avg": f"{per_day / SECONDS_A_DAY:.3g}", "factor": f"{factor:g}", "rps": f"{rps:.3g}"}))
        return
