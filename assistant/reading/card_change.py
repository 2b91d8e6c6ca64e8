"""The plan's cards changed in a follow-up that may change other things too: '刚开会老板说不用llama了，换qwen2.5-72b，卡也
改成H20，人数不变', 'use qwen2.5-72b instead and switch the gpus to h20', 'card too: H20', 'make it h20s'. The one card
named becomes the card to plan on (the 'only' slot, with its count when one is said), not a card to weigh beside the
plan; the model or users changed in the same message change too, the rest is kept. The words are in
words/card_change.yaml."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.clauses import rejected
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

_CLAUSE = re.compile(r"[,.;!?，。；！？\n]")


def _clause(text: str, s: int, e: int) -> str:
    """The clause holding text[s:e], cut at the punctuation either side."""
    before = [mt.end() for mt in _CLAUSE.finditer(text, 0, s)]
    after = _CLAUSE.search(text, e)
    return text[before[-1] if before else 0:after.end() if after else len(text)]


def changed_card(m: Message) -> str | None:
    """The card the plan moves to ('8x h20' with a count said, 'h20' without), when one card is named and said as the
    new card, in a clause that asks nothing."""
    named = [g for g in m.gpus if not rejected(m, g[0], g[1])]
    if len(named) != 1 or len({g[2] for g in m.gpus}) != 1:
        return None
    s, e, gpu_id, count = named[0]
    said = word_pattern("card_change_before").search(m.masked[max(0, s - 48):s])
    if not said or word_pattern("card_change_asked").search(_clause(m.masked, s, e)):
        return None
    return f"{count}x {gpu_id}" if s in m.counted else gpu_id


def read_card_change(m: Message, u: Understanding) -> bool:
    """u.updates['only'] for a card the plan moves to; True when the message says one."""
    if u.updates.get("owned") or u.added_cards or u.updates.get("only") or u.recount is not None:
        return False
    card = changed_card(m)
    if card is None:
        return False
    u.updates["only"] = [card]
    u.compare_gpus, u.whatif_gpus = [], None
    u.intents -= {"whatif", "why_not"}
    return True
