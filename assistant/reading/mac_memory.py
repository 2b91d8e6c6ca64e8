"""A Mac named by its product and its memory rather than its chip ('thinking of buying a mac studio to run deepseek r1
… is 512gb enough?', session 20 review BM #3: the Mac was dropped and 20 RTX PRO 6000 bought): the one catalog Apple
record of that product with that memory (the 512 GB Mac Studio is the M3 Ultra), added to the cards named as if its
name had been said. Nothing is added when the chip is named, or when no record, or more than one, fits. The words:
words/mac_memory.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import gpus


def read_mac_by_memory(m: Message) -> None:
    if any(g.startswith("apple-") for _s, _e, g, _c in m.gpus):
        return
    product = word_pattern("mac_product").search(m.masked)
    memory = word_pattern("mac_memory").search(m.masked)
    if product is None or memory is None:
        return
    name = product.group(0).replace(" ", "")
    found = [g for g in gpus() if g.id.startswith("apple-") and g.memory_gb == int(memory.group(1))
             and any(a.replace(" ", "").startswith(name) for a in g.aliases)]
    if len(found) == 1:
        m.gpus = sorted([*m.gpus, (product.start(), product.end(), found[0].id, 1)])
