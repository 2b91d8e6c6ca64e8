"""Any card will do ('卡不限', '不限卡', 'any card is fine', 'no gpu restriction'), said in a follow-up after a plan
held to some cards ('4张4090够不够'): the earlier "only these cards" is dropped, so the new model is sized on
whatever card fits best. A card named as the new restriction in the same message is kept. The words are
assistant/reading/words/turns.yaml's."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import rejected
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_any_card(m: Message, u: Understanding) -> None:
    """Only: none (every card) when any card is said to do and no card is held to in the same message."""
    said = word_pattern("cards_open").search(m.raw.lower())
    if not said or u.updates.get("owned"):
        return
    held = [g for s, e, g, _n in m.gpus if not rejected(m, s, e)]
    if held and u.updates.get("only"):
        return  # 'any card is fine, but try the H100': that card is the new restriction
    u.updates["only"] = None
    if not held:
        u.updates.pop("exclude", None)
        u.cards, u.counts, u.compare_gpus, u.whatif_gpus = [], {}, [], None
