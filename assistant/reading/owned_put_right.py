"""The cards owned put right with several kinds ('oh wait no, its one 4090 and one 3090, sorry. still doable?',
'不好意思说错了，是一张4090和一张3090'): the cards named, each with its count, are the cards owned now, in place of
the ones said before, and the plan is made again on them (review AT C20: it compared the two cards and kept the
plan on 2 × 4090). Cards weighed ('compare one 4090 and one 3090') or supposed ('what if …') are no correction.
The words: words/premise.yaml (the correction cues), words/corr3.yaml (weighed)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import rejected
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_owned_put_right(m: Message, u: Understanding) -> None:
    """u.updates['owned'] = the cards named with their counts, when a correction names two kinds or more."""
    cue = word_pattern("replaced_cue").search(m.masked) or word_pattern("recount_cue").search(m.masked)
    if not cue or word_pattern("recount_hypothetical").search(m.masked) or word_pattern("corr3.weighed").search(m.masked):
        return
    cards = [g for g in m.gpus if not rejected(m, g[0], g[1])]
    if len({g[2] for g in cards}) < 2 or len(cards) != len(m.gpus):
        return
    if not all(s in m.counted or word_pattern("owned_one_before").search(m.masked[max(0, s - 12):s]) for s, *_ in cards):
        return
    owned: dict[str, int] = {}
    for _s, _e, gpu_id, n in cards:
        owned[gpu_id] = owned.get(gpu_id, 0) + max(1, n)
    u.updates["owned"] = [f"{n}x {g}" for g, n in owned.items()]
    u.updates.pop("only", None)
    u.intents -= {"compare_cards", "whatif"}
    u.whatif_gpus, u.compare_gpus, u.cards, u.recount = None, [], [], None
    u.ask = {**{k: v for k, v in u.ask.items() if k != "add_card"}, "owned_put_right": True}
