"""Hours a month or a week said with the period first ('一个月大概用两百个小时', '每月200小时左右', 'per week we use
it 40 hours'): the hours the cards are busy in that period (role hours_per, extra the period), read by
serving.read_utilisation as a share of the time (200 h a month = 27%). Grammar only: words/item_rate.yaml."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message


def period_hours(m: Message) -> None:
    """Give hours said after 'a month' / 'per week' (fillers between) the role hours_per with that period."""
    for i, q in enumerate(m.qty):
        if q.negated or q.role not in ("", "duration", "hours") or not 0 < q.value <= 744:
            continue
        if not word_pattern("hours_period_after").match(m.masked[q.end:q.end + 12]):
            continue
        said = word_pattern("hours_period_before").search(m.masked[max(0, q.start - 40):q.start])
        if said:
            m.qty[i] = replace(q, role="hours_per", extra=said.group("per"))
