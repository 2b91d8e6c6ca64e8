"""A card said to be hard to get and the plan asked for on another: 'b200s are hard to get for us, whats the best
option on h100s', 'B200 买不到，用 H100 的话呢'. Read first as a stock question (availability), it asks for a plan
held to the card named after 'on' / '用' (that card only), not the stock disclaimer. The words are
assistant/reading/words/elsewhere.yaml's."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import rejected
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

# The intents a stock remark beside the plan's card reads as; none of them is asked.
STOCK_READINGS = {"availability", "whatif", "why_not", "compare_cards"}


def read_elsewhere(m: Message, u: Understanding) -> None:
    """The plan on the card asked about (only: that card) when another card named is said to be hard to get."""
    if "availability" not in u.intents or not word_pattern("elsewhere.asks").search(m.masked):
        return
    named = [(s, e, gpu_id) for s, e, gpu_id, _n in m.gpus]  # the card hard to get may read as turned down
    if len({gpu_id for _s, _e, gpu_id in named}) < 2:
        return
    target = next((gpu_id for s, e, gpu_id in reversed(named) if not rejected(m, s, e)
                   and word_pattern("elsewhere.before_card").search(m.masked[max(0, s - 24):s])), None)
    if target is None or target == named[0][2]:
        return
    u.intents -= STOCK_READINGS
    u.updates["only"] = [target]
    u.cards, u.counts, u.compare_gpus, u.whatif_gpus = [], {}, [], None
    u.ask = {k: v for k, v in u.ask.items() if k not in ("per_provider", "provider", "vendor")}
