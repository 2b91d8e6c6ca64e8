"""Clauses and negation around a span of a message: where its sentence or clause begins and ends, and whether a
word before it negates it ('not rent', 'no users', 'rather than QLoRA'). Grammar only: the negation words are the
vocabulary's (negation, rather_than, negation_exceptions, card_rejected_after)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message


def clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence or clause around a span begins and ends (split at . ; ! ? and line ends,
    a dot between digits excepted)."""
    lo, hi = max(0, start - 300), min(len(text), end + 300)
    left = max(text.rfind(c, lo, start) for c in ";!?\n")
    dots = [x.start() for x in re.finditer(r"\.(?!\d)", text[lo:start])]
    left = max(left, lo + dots[-1] if dots else -1, lo - 1)
    rights = [i for i in (text.find(c, end, hi) for c in ";!?\n") if i >= 0]
    dot = re.search(r"\.(?!\d)", text[end:hi])
    if dot:
        rights.append(end + dot.start())
    return left + 1, min(rights) if rights else hi


def clause_of(text: str, start: int, end: int) -> str:
    """The sentence or clause around a span."""
    left, right = clause_bounds(text, start, end)
    return text[left:right]


def rejected(m: Message, start: int, end: int) -> bool:
    """A card ruled out by a word before it ('no 3090s') or a judgement after it ('3090s feel sketchy for prod',
    '4090不靠谱')."""
    return negated(m.masked, start) or bool(word_pattern("card_rejected_after").match(m.masked[end:end + 48])) \
        or bool(word_pattern("card_unavailable_before").search(m.masked[max(0, start - 40):start])) \
        or bool(word_pattern("card_unavailable_after").match(m.masked[end:end + 48]))  # 'can't get b200', 'b200 拿不到'


def negated(text: str, start: int) -> bool:
    """Whether the value at `start` follows a negation: 'not rent', 'no users', 'rather than QLoRA'."""
    before = text[max(0, start - 48):start]
    before = re.split(r"[,.;:!?()]", before)[-1] if re.search(r"[,.;:!?()]\s*$", before) is None else ""
    if word_pattern("negation_exceptions").search(before):
        return False
    return bool(word_pattern("negation").search(before) or word_pattern("rather_than").search(before))
