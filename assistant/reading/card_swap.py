"""A card given up as not to be had and another put in its place: '算了，A800现在买不到，改成昇腾910B吧，其他不变', 'can't get
A800s right now, switch to ascend 910b, everything else the same', 'A800没货了，用910B吧'. Not a stock question: the
plan moves to the new card (u.ask['replaced'], applied by assistant.replaced: the card said before is swapped where
the profile holds it), every other slot kept. The words are in words/card_swap.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import rejected
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def _given_up(m: Message, s: int, e: int) -> bool:
    """A card said not to be had ('A800现在买不到', 'A800没货了'), or ruled out in a message that says a change ('no A800,
    switch to 910b'); 'no h100, use a100' alone is a rule on the plan's cards, no swap."""
    filler = word_pattern("card_swap_filler").match(m.masked[e:e + 40])  # 'now', '现在' (or none)
    if word_pattern("card_unavailable_after").match(m.masked[(filler.end() if filler else 0) + e:e + 60]):
        return True
    return rejected(m, s, e) and bool(word_pattern("card_swap_change").search(m.masked))


def card_swap(m: Message) -> tuple[str, str, int] | None:
    """(new card, old card, start of the new card) when one card is given up and one other put in its place."""
    if len(m.gpus) != 2 or word_pattern("card_swap_asked").search(m.masked):
        return None
    (s1, e1, old, _n1), (s2, e2, new, _n2) = m.gpus
    if old == new or not _given_up(m, s1, e1) or _given_up(m, s2, e2):
        return None
    if not word_pattern("card_swap_before").search(m.masked[max(0, s2 - 32):s2]):
        return None
    return new, old, s2


def read_card_swap(m: Message, u: Understanding) -> bool:
    """u.ask['replaced'] for a card swap; True when the message swaps cards."""
    swap = card_swap(m)
    if swap is None:
        return False
    new, old, s = swap
    n = next((c for st, _e, g, c in m.gpus if st == s), None) if s in m.counted else None
    u.ask = {**u.ask, "replaced": (new, old, n)}
    u.whatif_gpus, u.recount, u.compare_gpus = None, None, []
    u.intents -= {"whatif", "availability"}
    for slot in ("only", "owned", "preference"):  # '买不到' says no way to buy or rent, no preference
        u.updates.pop(slot, None)
    u.updates["exclude"] = [old]  # not to be had: never the plan's alternative either
    return True
