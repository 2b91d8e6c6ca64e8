"""Redundancy a service plan must run ("N+1", "failover", "two data centers", "两个机房"): a slot the budget
check bills (every card the plan says to run), besides the note that says what it takes. The words live in
words/constraints.yaml (redundancy, two_sites)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.constraints import _said
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern


def read_redundancy(m: Message) -> str | None:
    """'two-sites' when two sites must each carry the whole load, 'n+1' for a spare copy, else None."""
    if _said(m, word_pattern("two_sites")):
        return "two-sites"
    if _said(m, word_pattern("redundancy")):
        return "n+1"
    return None
