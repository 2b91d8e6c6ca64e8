"""Cards counted in each of several machines, the machines said after them: '每台8卡A100，共4台' (read as 'each with 8
gpus a100, 共 4 servers'), 'we have 8 A100 in each of 4 servers', '8 H100 per node, 4 nodes'. The cards are those of
one machine times the machines. Machines counted, then the cards in brackets ('只用两台服务器（16张910B）', '2 servers (16
910B)') or said as all of them ('2 servers with 16 910Bs in total'): the cards of all the machines, not of each.
The words: words/per_machine.yaml."""

from __future__ import annotations

import re

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


def cards_of_all(text: str, machines_said: str, count_said: str, e0: int) -> bool:
    """Whether the cards counted after machines are all the machines' cards: the count bare in brackets right after
    them ('2 servers ( 16 910b)') or said as the total after the card ('… 16 910bs in total'); never a count written
    per machine ('8x', '8 gpus' for '8卡', 'each')."""
    if word_pattern("count_each_form").search(count_said) or "each" in machines_said:
        return False
    return bool(word_pattern("machines_bracket").search(machines_said)
                or word_pattern("cards_total_after").match(text[e0:e0 + 24]))


def machines_cards(text: str, machines: re.Match[str], count_said: re.Match[str] | None, e0: int,
                   count: int) -> tuple[int | None, int]:
    """(cards in each machine, all the cards) for machines counted before counted cards: the machines multiply the
    cards ('2 servers each with 8 A100'), unless the cards are all of them ('2 servers ( 16 910b)': 8 in each where
    they split evenly)."""
    n = int(machines.group(1))
    if count_said is not None and cards_of_all(text, machines.group(0), count_said.group(0), e0):
        return (count // n if count % n == 0 and count > n else None), count
    return count, count * n
