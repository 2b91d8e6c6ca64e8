"""A card weighed as an addition to the card the user owns: 'i have a 4090 … or should i just buy a used 3090 as a
second card', 'thinking of adding a 3090', '家里一张4090 … 要不要再买一张3090'. The card is considered, not owned
and not the only card allowed: the engine sizes the owned card alone (with part in system RAM) against both as one
pool, and says whether buying it is worth it (assistant/considered.py). The words are in words/considered.yaml.
"""

from __future__ import annotations

from gpu_advisor.assistant.reading.buy_count import buy_count_kept
from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_considered(m: Message, u: Understanding) -> None:
    """Sets u.ask['considered'] ({gpu id: count}) for cards weighed as an addition beside an owned card of another
    kind, and takes them out of the owned, added and only cards read before (and a count of cards to buy said with
    no card, reading.buy_count)."""
    buy_count_kept(u)
    owned = [str(c) for c in u.updates.get("owned") or []]
    owned_ids = {c.partition("x ")[2].strip() for c in owned}
    if not owned_ids:
        return
    considered: dict[str, int] = {}
    for s, _e, gpu_id, count in m.gpus:
        before = m.masked[max(0, s - 40):s]
        cue = word_pattern("considered_add_before").search(before)
        if not cue or negated(m.masked, s) or word_pattern("considered_had").search(before[:cue.start()]):
            continue
        considered[gpu_id] = considered.get(gpu_id, 0) + count
    if not considered or not owned_ids - set(considered):
        return  # 'add a second 4090': more of the card owned, sized by the what-if of adding cards
    for gpu_id in considered:
        u.added_cards.pop(gpu_id, None)
    u.adds_owned = bool(u.added_cards) and u.adds_owned
    u.updates["owned"] = [c for c in owned if c.partition("x ")[2].strip() not in considered] or owned
    only = [c for c in u.updates.get("only") or [] if str(c).partition("x ")[2].strip() not in considered]
    if "only" in u.updates:
        if only:
            u.updates["only"] = only
        else:
            u.updates.pop("only")
    if u.updates.get("preference") == "buy":
        u.updates.pop("preference")  # 'should I buy a 3090': the card weighed, no wish to buy the whole plan
    u.whatif_gpus = None
    u.intents.discard("whatif")
    u.ask = {**{k: v for k, v in u.ask.items() if k != "add_card"}, "considered": considered}
