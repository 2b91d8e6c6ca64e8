"""A card said by mistake and put right in a later turn: 'sorry, I meant H200s not H100s', 'H200, not H100', '不是H100，
是H200', '我说错了，是H200'. The card said wrong is replaced by the right one in the plan's card constraint (the cards
owned, or the cards the plan is held to); neither is ruled out. The engine applies it (assistant.replaced).

u.ask['replaced'] = (new card id, old card id or None, count said or None). A card said with no count where cards
are had ('we only have 40gb A100s', '我们只有40G的A100') is u.ask['owned_uncounted'] = [card id]: the count said
earlier in the conversation is kept, else the plan takes the count needed and asks how many there are.
The words are in words/premise.yaml."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.clauses import rejected
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def _read_replaced(m: Message, u: Understanding) -> None:
    """u.ask['replaced'] when the message puts right a card said before; the card said wrong is no card ruled out."""
    if word_pattern("recount_hypothetical").search(m.masked) or u.added_cards or u.recount \
            or word_pattern("replaced_suggested").search(m.masked):
        return  # 'sorry, why not the RTX 4090?': a card suggested, not one put right
    old = {g for s, e, g, _n in m.gpus if rejected(m, s, e)}
    new = [(s, g, n) for s, e, g, n in m.gpus if not rejected(m, s, e)]
    said = {g for _s, g, _n in new}
    had = any(s in m.counted for s, _g, _n in new) or word_pattern("replaced_had").search(m.masked)
    if len(said) != 1 or len(old) > 1 or old & said or set(u.compare_gpus) - said or (not old and u.updates.get("owned") and (had or "?" in m.raw or "？" in m.raw)):
        return  # 'sorry, we have 4 a100s': cards had, their count (premise.read_recount), no card put right; 'sorry, will
        # llama run on my H100?' asks of the card had
    cue = word_pattern("replaced_cue").search(m.masked)
    if not cue and not (old and word_pattern("replaced_order").search(m.masked)):
        return
    s, card, n = new[0]
    u.ask = {**u.ask, "replaced": (card, next(iter(old), None), n if s in m.counted else None)}
    if old and u.updates.get("exclude"):
        left = [c for c in u.updates["exclude"] if c not in old]
        if left:
            u.updates["exclude"] = left
        else:
            u.updates.pop("exclude")
    u.whatif_gpus, u.recount, u.compare_gpus = None, None, []
    u.intents.discard("whatif")
    _not_owned_again(m, u, old, card)


def _not_owned_again(m: Message, u: Understanding, old: set[str], card: str) -> None:
    """"my bad, they're L40 not L40S", '我们的卡是L40，不是L40S': the card put right is no new card owned (one of
    each, as 'my'/'they're' read it), the count said before stays with the right card (assistant.replaced); a
    count said with it ('they're 4 L40 not L40S') is kept."""
    counted_now = {g for s, _e, g, _n in m.gpus if s in m.counted}
    owned = [e for e in u.updates.get("owned") or []
             if e.partition("x ")[2] not in old and (e.partition("x ")[2] != card or card in counted_now)]
    if "owned" in u.updates and u.updates["owned"] and len(owned) < len(u.updates["owned"]):
        if owned:
            u.updates["owned"] = owned
        else:
            u.updates.pop("owned")


def read_owned_uncounted(m: Message, u: Understanding) -> None:
    """u.ask['owned_uncounted']: cards said to be had with no count ('we only have 40gb A100s'), not a card people
    have one of (a gaming card, a Mac: words/hardware.yaml's owned_by_default)."""
    from gpu_advisor.assistant.reading.hardware import _default_owned

    owned = {e.partition("x ")[2] for e in u.updates.get("owned") or []}
    said_one = {g for s, e, g, _n in m.gpus if s in m.counted or _default_owned(g)
                or word_pattern("owned_one_before").search(m.text[max(0, s - 32):s])
                or word_pattern("owned_single").match(m.text[s:e])}  # '4 A100 80G ... rent more A100s': counted
    loose = sorted(owned - said_one) if owned <= {g for _s, _e, g, _n in m.gpus} else []
    plural = any(re.match(r"s\b", m.text[e:e + 2]) for _s, e, g, _n in m.gpus if g in loose) \
        or bool(word_pattern("owned_many_said").search(m.raw.lower()))  # 'A100s', 'we', '我们': more than one
    if loose and len(loose) == len(owned) and plural:
        u.ask = {**u.ask, "owned_uncounted": loose}


def read_replaced(m: Message, u: Understanding) -> None:
    """A card said wrong replaced by the right one ('sorry, I meant H200s not H100s'), then cards had with no count
    said ('we only have 40gb A100s'); a card not to be had swapped for another ('A800买不到，改成910B')."""
    from gpu_advisor.assistant.reading.card_change import read_card_change
    from gpu_advisor.assistant.reading.card_swap import read_card_swap
    from gpu_advisor.assistant.reading.count_fixed import read_count_fixed
    from gpu_advisor.assistant.reading.group_change import read_group_change, read_people_bare
    from gpu_advisor.assistant.reading.people_groups import read_group_fixed, read_user_groups
    from gpu_advisor.assistant.reading.whole_document import read_whole_document

    read_count_fixed(m, u)  # '50 users not 500': the count ruled out, so the new one keeps its role
    read_user_groups(m, u)  # '3 ml engineers and 10 PMs': the groups of the sum, by job (reading.people_groups)
    read_group_fixed(m, u)  # '不对，是30个产品经理，不是10个': one group of a sum said again
    read_people_bare(m, u)  # '改成200人' after '260 people use it': the people who use it, not at once
    read_group_change(m, u)  # 'double the physicians, keep the nurses', '如果只给研发用呢': groups changed (reading.group_change)
    read_whole_document(m, u)  # 'users paste long contracts' into a 128k context: the prompt is that long
    if read_card_swap(m, u) or read_card_change(m, u):
        return
    _read_replaced(m, u)
    read_owned_uncounted(m, u)
