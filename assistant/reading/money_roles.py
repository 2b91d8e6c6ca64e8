"""Money by the role it is said in, where no currency or budget word marks it: cloud credits ('40k in credits
on aws', '4万额度'), an amount asked about as enough ('is 500k enough?', '五十万够不够') and one asked about as what
it buys ('what would 40k actually buy us', '4万能买什么'), whatever question was pending. Both are a budget. Grammar only: the words are in words/money.yaml."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import vocab, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message
    from gpu_advisor.assistant.reading.quantities import Quantity

# An amount asked about as enough is money from this much on ('is 500 enough?' may be people).
ENOUGH_MONEY_FROM = 10_000


def credits_around(before: str, after: str) -> bool:
    """Whether the amount is cloud credits: '40k in credits', 'credits of $40k', '4万额度'."""
    return bool(word_pattern("credits_after").match(after) or word_pattern("credits_before").search(before))


def money_said(q: Quantity, before: str, after: str, lang: str) -> bool:
    """Whether a number with no unit is money by its role: credits, or an amount asked about as enough
    ('is 500k enough?'; not 'is 128k enough?', a context length)."""
    if credits_around(before, after):
        return True
    if q.value >= ENOUGH_MONEY_FROM and word_pattern("money_buys_after").match(after):
        return True  # 'what would 40k actually buy us'
    if q.value < ENOUGH_MONEY_FROM or not word_pattern("money_enough_after").match(after):
        return False
    return lang == "zh" or q.scale != "k" or q.number not in vocab()["context_sizes_k"]


def credits_note(m: Message, q: Quantity, before: str, clause: str) -> bool:
    """Note an amount that is cloud credits (note.budget_credits: the total the rent stays within, said back with
    what the plan uses of it); True when it is."""
    after = m.masked[q.end:q.end + 30]
    if not (credits_around(before, after) or word_pattern("credits_said").search(clause)):
        return False
    shown = f"¥{q.value:,.0f}" if q.extra == "CNY" else f"${q.value:,.0f}"
    m.notes.append(("note.budget_credits", {"amount": shown}))
    return True
