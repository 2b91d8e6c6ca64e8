"""How many cards one quoted amount is for: 'lambda quoted us 8.40/hr for 4x h100' is four cards' price ($2.10 a
card-hour), '2.30/gpu-hr' is one card's even beside an 8x server, '两张4090一共三万二' two cards' total; and
whether a number in thousands is money ('210k for an 8x h100 server'), never a context length.

Grammar: an amount said for a counted card ('for 4x h100') is the price of that many, unless it says one card
('per gpu-hour', 'each', '每卡') or, shared, would put a card-hour below any rent on record (then the count is how
many are rented, the price each). A counted card said before the amount ('4x h100 at 8.40/hr') is read both ways
and the way nearer the card's typical rent wins. The words are in words/quote_units.yaml."""

from __future__ import annotations

import math

from gpu_advisor.assistant.reading.message import Message, Quantity, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

# Characters read after an amount for the card it is said for, and before it for a counted card.
NEAR = 28


def per_card_said(words: str) -> bool:
    """The words say one card's price: 'per gpu-hour', '/gpu-hr', 'each', '每卡' (not 'each month')."""
    words = word_pattern("period_each").sub(" ", words)
    return bool(word_pattern("quote_card_hour").search(words) or word_pattern("money_card_hourly").search(words) or word_pattern("price_per_card").search(words)
                or word_pattern("quote_each").search(words))


def cards_for(m: Message, q: Quantity, usd_per_hour: float | None) -> tuple[int, str | None]:
    """(how many cards the amount prices, the card) for a rent said of a counted card: (N, card) for 'X/hr for Nx
    CARD', (1, card) when it is each card's; (1, None) when no counted card is said with it. `usd_per_hour`: the
    amount as USD per hour (None for a purchase: only 'for Nx CARD' with a total said shares it)."""
    from gpu_advisor.assistant.reading.clauses import negated

    after = m.masked[q.end:q.end + NEAR]
    ahead = [g for g in m.gpus if q.end <= g[0] <= q.end + NEAR and not negated(m.masked, g[0])
             and (word_pattern("quote_for_card").match(m.masked[q.end:g[0]])
                  or word_pattern("quote_period_for").match(m.masked[q.end:g[0]]))]
    if ahead:
        g = min(ahead, key=lambda x: x[0])
        words = m.masked[max(0, q.start - NEAR):q.start] + m.masked[q.end:g[0]] + m.masked[g[1]:g[1] + 12]
        if g[3] <= 1 or per_card_said(words):
            return 1, g[2]
        if usd_per_hour is None or _plausible(g[2], usd_per_hour / g[3]):
            return g[3], g[2]
        return 1, g[2]
    behind = [g for g in m.gpus if g[1] <= q.start and q.start - g[1] <= NEAR and g[3] > 1
              and not negated(m.masked, g[0]) and not word_pattern("quote_card_apart").search(m.masked[g[1]:q.start])]
    if not behind or usd_per_hour is None:
        return 1, None
    g = max(behind, key=lambda x: x[1])
    if per_card_said(m.masked[g[1]:q.start] + after[:16]):
        return 1, g[2]
    if word_pattern("quote_total").search(m.masked[g[1]:q.start] + after[:16]):
        return g[3], g[2]  # '4x a100 for $6000 a month total': all of theirs
    return (g[3], g[2]) if _nearer(g[2], usd_per_hour / g[3], usd_per_hour) else (1, g[2])


def _typical(gpu_id: str) -> tuple[float, float] | None:
    """The card's lowest and typical rent on record, USD per card-hour (any region), or None."""
    from gpu_advisor.tools.cost import try_price

    quote = try_price(gpu_id)
    return (quote.usd_per_gpu_hour_low, quote.usd_per_gpu_hour_typical) if quote else None


def _plausible(gpu_id: str, per_card: float) -> bool:
    """A card-hour price no lower than half the lowest rent on record for the card (a card unknown: yes)."""
    known = _typical(gpu_id)
    return known is None or per_card >= known[0] / 2


def _nearer(gpu_id: str, shared: float, each: float) -> bool:
    """Whether the amount shared over the cards is nearer the card's typical rent than the amount each."""
    known = _typical(gpu_id)
    if known is None:
        return False
    typical = known[1]
    return abs(math.log(shared / typical)) < abs(math.log(each / typical))


def money_k(m: Message, q: Quantity) -> bool:
    """A number in thousands said as money ('210k for an 8x h100 server', 'quoted us 310k', 'a 280k box'): a
    price, never a context length or a count."""
    if q.role == "money":
        return True
    if q.scale != "k":
        return False
    before = word_pattern("quote_between").split(m.masked[max(0, q.start - NEAR):q.start])[-1]
    return bool(word_pattern("money_k_after").match(m.masked[q.end:q.end + NEAR])
                or word_pattern("money_k_before").search(before))


# Token amounts a price is quoted per ('cost per million tokens', '每百万token成本', 'per 1M tokens'): the unit of
# the price, never tokens to train on, a prompt or an output (review class 8: '每百万token成本' read as 1M
# training tokens).
PER_TOKEN_UNITS = (1e3, 1e6)
TOKEN_SLOTS = ("train_tokens", "prompt_tokens", "output_tokens", "batch_tokens", "batch_input_tokens", "context")


def per_token_unit(u: Understanding) -> None:
    """Drop the token amount a per-token price is quoted per; a what-if left with nothing to change is none."""
    dropped = [k for k in TOKEN_SLOTS if isinstance(u.updates.get(k), (int, float)) and u.updates[k] in PER_TOKEN_UNITS]
    for k in dropped:
        u.updates.pop(k)
    if dropped and not u.updates:
        u.intents.discard("whatif")
