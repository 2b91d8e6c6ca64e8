"""A rate now and a higher one later ('3 rps now and 20 rps in 6 months', '现在每秒3个请求，半年后20个'): the plan is
sized for the rate now and the later rate is kept to size beside it (u.ask['later_rate'], assistant/later_load.py),
never read as a usual rate and its peak, nor the time as a deadline. The words are words/turns.yaml's."""

from __future__ import annotations

import unicodedata
from dataclasses import replace

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

LATER_WINDOW = 40  # characters after a rate where its time to come is said ('20 rps in 6 months')


def read_later_rate(m: Message, u: Understanding) -> None:
    """requests_per_s: the rate now; ask['later_rate']: the later rate, in requests a second, and when (as typed)."""
    rates = m.role("request_rate")
    rps = u.updates.get("requests_per_s")
    if not rates or not rps:
        return
    rates += [replace(q, extra=rates[0].extra) for q in m.role("") if q.start > rates[0].end  # '半年后每秒20个'
              and word_pattern("later_rate_bare_before").search(m.masked[max(0, q.start - 16):q.start])]
    if len(rates) < 2:
        return
    rps = max(rps, max(q.number for q in rates) * rps / rates[0].number) if len(m.role("request_rate")) < 2 else rps
    now = rates[0]
    late, when = next(((q, x) for q in rates[1:] if (x := _later_said(m.masked, now.end, q.start, q.end))), (None, None))
    if late is None or late.extra != now.extra or not 0 < now.number < late.number:
        return
    u.notes = [(k, v) for k, v in u.notes if k != "note.rate_peak_base"]
    if u.updates.get("owned"):  # cards one has, asked whether they hold the growth: sized at the rate to come
        u.updates["requests_per_s"] = rps
        u.notes.append(("cluster.note.later_sized", {"now": f"{rps * now.number / late.number:g}", "later": f"{rps:g}"}))
    else:
        u.updates["requests_per_s"] = round(rps * now.number / late.number, 4)
        u.ask["later_rate"] = {"rps": rps, "when": unicodedata.normalize("NFKC", when.group(0)).strip() if when else ""}
    deadline = next((q for q in m.role("deadline") if late.end <= q.start <= late.end + LATER_WINDOW), None)
    if deadline is not None:
        u.updates.pop("deadline_hours", None)  # 'in 6 months' is when the rate comes, not a go-live date


def _later_said(text: str, after_now: int, start: int, end: int):
    """The time to come said right after a rate ('20 rps in 6 months') or right before it, after the rate now
    ('现在 3 qps，6个月后 20 qps')."""
    return word_pattern("later_after").search(text[end:end + LATER_WINDOW]) \
        or word_pattern("later_after").search(text[max(after_now, start - LATER_WINDOW):start])
