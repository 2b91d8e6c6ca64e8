"""Prices said 'respectively': 'A100和H100分别是¥12和¥25每卡时', 'A100 and H100 at $1.20 and $2.50/hr respectively'.
The cards and the prices are paired in the order written, and the period said once (per card-hour) is every
price's; none of them is a budget. Grammar only: the words are in words/mentions.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def paired_prices(m: Message, u: Understanding, hourly) -> None:  # hourly: quotes._hourly
    """Add a rent per card-hour for each card named before 'respectively' / '分别', in order, when as many
    amounts as cards are said and the last is per hour."""
    from gpu_advisor.knowledge import rules

    said = word_pattern("respectively").search(m.raw.lower())  # the typed words: "别" is rewritten as a negation
    if said is None:
        return
    cards = list(dict.fromkeys(gpu_id for s, _e, gpu_id, _n in m.gpus))
    amounts = [q for q in m.qty if (q.role in ("money", "") and q.value > 0  # "分别" is read "分 not": no negation
                                    and any(e <= q.start for _s, e, _g, _n in m.gpus))]
    amounts = [q for q in amounts if q.start > max(e for _s, e, _g, _n in m.gpus)]
    if len([q for q in amounts if q.role == "money"]) == len(set(g for _s, _e, g, _n in m.gpus)):
        amounts = [q for q in amounts if q.role == "money"]  # "25块一卡时": the 1 is the card-hour's, no price
    last = amounts[-1] if amounts else None
    per_hour = last is not None and (hourly(m, last) or word_pattern("respectively_hourly").match(m.masked[last.end:last.end + 24]))
    if len(cards) < 2 or len(amounts) != len(cards) or not per_hour:
        return
    yuan = m.lang == "zh" or any(q.extra == "CNY" for q in amounts)
    by_card = {q["gpu"]: q for q in u.quotes}
    for gpu_id, q in zip(cards, amounts, strict=True):
        usd = q.value * (rules().usd_per_cny if (q.extra == "CNY" or (not q.extra and yuan)) else 1.0)
        by_card[gpu_id] = {"gpu": gpu_id, "usd_per_gpu_hour": round(usd, 4), "reserved": False}
    u.quotes = list(by_card.values())
    for slot in ("budget_usd", "budget_usd_per_month"):
        u.updates.pop(slot, None)  # "分别是¥12和¥25每卡时": prices, not what may be spent
