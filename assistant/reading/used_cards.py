"""Cards said used (h-used): '二手3090', '两张3090二手', 'a used 4090', '闲鱼上收一张', 'pre-owned', 'refurbished' (words/
used_price.yaml and compare_verdict.used). A card said used is bought at its sourced used price
(knowledge.loader.used_prices); a card said new ('新的4060ti') keeps its new price."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

WINDOW = 24  # characters before a card's name searched for 'used' / 'new'


def used_cards(m: Message) -> list[str]:
    """The ids of the cards said used, before or right after the name, in the order said."""
    out: list[str] = []
    for start, end, gpu_id, _n in m.gpus:
        before = m.text[max(0, start - WINDOW):start]
        if word_pattern("compare_verdict.used").search(before) or word_pattern("used_after").search(m.text[end:]):
            out.append(gpu_id)
    return list(dict.fromkeys(out))


def new_cards(m: Message) -> list[str]:
    """The ids of the cards said new ('新的4060ti两张', 'a brand new 4090')."""
    return list(dict.fromkeys(gpu_id for start, _end, gpu_id, _n in m.gpus
                              if word_pattern("new_before").search(m.text[max(0, start - WINDOW):start])))


def said_used(m: Message) -> bool:
    """A card said used, or a used market or used words named, not negated ('not used', '不要二手')."""
    if used_cards(m):
        return True
    for text in (m.raw.lower(), m.text):
        x = word_pattern("used_market").search(text)
        if x and not negated(text, x.start()):
            return True
    return False


def used_only(m: Message, u: Understanding, used: list[str]) -> None:
    """Cards named and only some said used ('二手3090还是4090', 'a used 3090 or a new 4090'): those are priced used,
    the rest new (slot used_cards); every card said used, or none: nothing set."""
    named = list(dict.fromkeys(gpu_id for _s, _e, gpu_id, _n in m.gpus))
    if used and len(named) > 1 and set(named) - set(used):
        u.updates["used_cards"] = [g for g in named if g in used]
        u.updates["used_ok"] = True
