"""buy2: the count a vague phrase gives the card to buy ('buy a couple of 4090s or just rent an H100', '买两三张4090
还是继续租H100'). The phrase stays a preference, not a cap (text.clean drops it, words/vague_counts.yaml), but the
purchase weighed against renting is priced at the smallest count the words say: 'a couple' 2, 'a few' 3, '两三张' 2
(words/buy2.yaml); assistant/buy_or_rent.py says it as an assumption."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern


def vague_buy_count(m: Message, gpu_id: str) -> dict[str, object]:
    """{'buy_n': n, 'buy_vague': True} when the card to buy (gpu_id) is said with a vague count; else {}."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    after = word_pattern("buy2_card_after")
    key = re.sub(r"[^a-z0-9]", "", gpu_id)
    for phrase, _n in pattern_rows("vague_count_phrases"):
        for x in phrase.finditer(typed):
            n = next((int(c) for p, c in pattern_rows("buy2_vague_counts") if p.search(x.group())), None)
            card = after.match(typed, x.end())
            if n and card and re.sub(r"[^a-z0-9]", "", card.group(1)) in key:
                return {"buy_n": n, "buy_vague": True}
    return {}


def one_card_bought(m: Message) -> int | None:
    """1 where the user says they will buy one card and names no count beyond it ('想买张卡', 'buy a card', '买一块
    显卡'): the plan is one card (reading/buy_count.py), not the two a count of one once had to become."""
    from gpu_advisor.assistant.reading.clauses import negated

    for x in word_pattern("buy2_one_card").finditer(m.masked):
        if not negated(m.masked, x.start()) and "▒" not in x.group():
            return 1
    return None
