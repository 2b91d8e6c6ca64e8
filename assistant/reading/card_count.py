"""A count of cards of zero or below ('we have 0 H100s', '我们有0张H100', '-2 h100s', 'on 0 GPUs'): a problem
said back politely, and the card is not taken as one owned (the count used to fall back to one). Grammar only:
the words for cards in general are in words/card_count.yaml."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

_LEAD = re.compile(r"(\d{1,4})(?![\d.])\s*(?:[x×*](?![a-z]{2}))?")  # the count that opens a card's span


def _count_said(text: str, start: int, end: int) -> int | None:
    """The count written at the start of a card's span, negative when a minus sign stands before it."""
    lead = _LEAD.match(text, start, end)
    if lead is None:
        return None
    minus = start > 0 and text[start - 1] == "-" and (start < 2 or not text[start - 2].isalnum())
    return -int(lead.group(1)) if minus else int(lead.group(1))


def card_counts(m: Message) -> None:
    """Drop the cards said with a count of zero or below from m.gpus, and say the problem once."""
    bad: list[int] = []
    kept = []
    for found in m.gpus:
        n = _count_said(m.text, found[0], found[1])
        if n is not None and n < 1:
            bad.append(n)
        else:
            kept.append(found)
    for i, q in enumerate(m.qty):  # 'on 0 gpus', '0张卡': no card named
        if q.value < 1 and float(q.value).is_integer() and not q.negated \
                and word_pattern("card_count_generic_after").match(m.masked[q.end:q.end + 24]):
            bad.append(int(q.value))
            m.qty[i] = replace(q, role="bad_card_count")
    if bad:
        m.gpus = kept
        m.problems.append(("card_count_not_positive", {"n": f"{bad[0]:,}"}))
