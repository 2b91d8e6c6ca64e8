"""A card named only by its memory: 'a single 48gb card', '一张48G的卡' (a card the plan is limited to), 'my 24gb card',
'我的24G显卡' (the user's own). Sized as the catalog's usual card of that memory (words/hardware.yaml's
memory_reference), said in a note: memory decides the fit, the speed is that card's."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import vocab, word_pattern
from gpu_advisor.knowledge import find_gpu


def card_by_memory(m: Message, key: str = "card_by_memory") -> list[str]:
    """'a single 48gb card', '一张48G的卡': a card named only by its memory is sized as the catalog's usual card of
    that memory (words/hardware.yaml's memory_reference), said in a note: memory decides the fit, speed differs."""
    x = word_pattern(key).search(m.masked) or word_pattern(f"{key}_zh").search(m.raw.lower())
    reference = vocab()["memory_reference"].get(int(x["gb"])) if x else None
    if x is None or reference is None:
        return []
    note = ("note.card_by_memory", {"gb": x["gb"], "card": find_gpu(reference).name})
    if note not in m.notes:
        m.notes.append(note)
    return [f"1x {reference}"]


def mine_by_memory(m: Message) -> bool:
    """'my 24gb card', '我的24G显卡': a card by its memory, said as one's own."""
    return bool(word_pattern("card_by_memory_mine").search(m.masked)
                or word_pattern("card_by_memory_mine_zh").search(m.raw.lower()))
