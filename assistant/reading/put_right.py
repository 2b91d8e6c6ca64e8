"""What a message puts right of what was said before, read in order: a length said as a correction is no recount of
cards (length_said), a card put right (replaced), a card's memory put right with no card named (memory_variant)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.length_said import drop_length_recount, read_bare_length
from gpu_advisor.assistant.reading.memory_variant import read_memory_variant
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.replaced import read_replaced


def read_put_right(m: Message, u: Understanding) -> None:
    """'sorry, the sequences are actually 4096', 'I meant H200s not H100s', "they're the 80GB ones not 40"."""
    drop_length_recount(u)
    read_replaced(m, u)
    read_memory_variant(m, u)
    read_bare_length(m, u)
