"""Work items said per second, minute or hour: a request rate ('白天高峰一分钟大概600篇', '每小时3万条',
'600 essays a minute'), never people at once nor a batch; and a time each item must be done in, said with a
finishing verb ('each must finish within 20 s', 'within 20 s each'), an end-to-end target. Grammar only:
the words are in words/item_rate.yaml."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.e2e import CLAUSE_END, times_said
from gpu_advisor.assistant.reading.text import vocab, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

# The roles a counted item can have before it is read as a rate ('600 documents' as items, '600 essays' as users).
COUNT_ROLES = ("", "items", "batch_items", "users", "population", "request_rate")


def _period(word: str) -> str:
    return next((p for p, words in vocab()["item_rate_periods"].items() if word.strip() in words), "second")


def item_rates(m: Message) -> None:
    """Give a count of items said per second/minute/hour the role request_rate (extra: the period); the '1' of
    '1 分钟' is the period's, no count of anything. Then read a finishing time as end to end."""
    for i, q in enumerate(m.qty):
        if q.negated or q.role not in COUNT_ROLES or q.value < 1:
            continue
        after = m.masked[q.end:q.end + 40]
        said = word_pattern("item_rate_period_after").match(after)
        per = said.group("per") if said else None
        if per is None and word_pattern("item_rate_noun_after").match(after):
            before = word_pattern("item_rate_period_before").search(m.masked[max(0, q.start - 40):q.start])
            if before:
                per = before.group("per")
                start = q.start - len(m.masked[max(0, q.start - 40):q.start]) + before.start()
                for j, p in enumerate(m.qty):
                    if start <= p.start < q.start and p.value == 1:
                        m.qty[j] = replace(p, role="rate_period")
        if per is not None:
            m.qty[i] = replace(q, role="request_rate", extra=_period(per))
    if m.role("request_rate"):
        for j, p in enumerate(m.qty):  # '要求一篇20秒内出完': 'one item' is each item, no batch of one
            if p.role in ("items", "batch_items") and p.value == 1:
                m.qty[j] = replace(p, role="each_item")
        _item_e2e(m)


def _item_e2e(m: Message) -> None:
    """'each must finish within 20 s', 'within 20 s each': the time each item takes in all, end to end."""
    if m.role("e2e_ms"):
        return
    for i, q, unit, before, tail in times_said(m, tail=30):
        clause = CLAUSE_END.split(before)[-1]
        if word_pattern("e2e_first_token").search(clause):
            continue
        if word_pattern("item_e2e_before").search(clause) or (
                word_pattern("item_e2e_within_before").search(clause) and word_pattern("item_e2e_after").match(tail)):
            m.qty[i] = replace(q, role="e2e_ms", extra=unit[0])
