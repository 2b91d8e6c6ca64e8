"""Cards counted in each of several machines, the machines said after them: '每台8卡A100，共4台' (read as 'each with 8
gpus a100, 共 4 servers'), 'we have 8 A100 in each of 4 servers', '8 H100 per node, 4 nodes'. The cards are those of
one machine times the machines. The words: words/per_machine.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.text import word_pattern


def machines_after_each(text: str, s0: int, e0: int, count: int) -> tuple[int | None, int, int]:
    """(cards in each machine, all the cards, end of the words read) where the count at s0 is said per machine
    ('each with 8 … , 共 4 servers', '8 a100 in each of 4 servers'); (None, count, e0) otherwise."""
    each = word_pattern("per_machine_before").search(text[max(0, s0 - 16):s0])
    after = word_pattern("per_machine_of_after").match(text[e0:e0 + 40])
    if not after and each:
        after = word_pattern("per_machine_total_after").match(text[e0:e0 + 40])
    if not after or int(after["n"]) <= 0:
        return None, count, e0
    return count, count * int(after["n"]), e0 + after.end()
