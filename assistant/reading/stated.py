"""Prices said of a card with no period: 'RunPod has h100 at 2.39 and a100 at 1.19', '4090一块1.98元' (read as
'4090 per card 1.98 yuan'), 'buying two used 3090s for $1400 total', '3090一张3500'.

Grammar: an amount right after a card with only linking words between ('at', 'for', 'is', 'per card') or right
before one ('$700 for a 3090', said with buying) prices that card. Said for several cards counted, it is their
total when 'total' is said or it is what they are bought 'for'; else each card's. A few dollars a card can only
be a rent per card-hour; a few hundred or more is a purchase (unless renting is said: a rent with no period is
left unread). Neither is a budget. The words are in words/stated_prices.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.quantities import Quantity
from gpu_advisor.assistant.reading.quotes import period_hours
from gpu_advisor.assistant.reading.text import word_pattern

# A card's price with no period: up to this (USD) it is a rent per card-hour, from PURCHASE_FROM a purchase.
HOURLY_UP_TO = 20.0
PURCHASE_FROM = 150.0
PURCHASE_UP_TO = 120_000.0  # one card; more is a machine's or a cluster's price, read with rent-or-buy (prices.py)
# Characters read around an amount.
NEAR = 32


def said_of_card(m: Message) -> list[tuple[Quantity, dict]]:
    """Each amount said of a card with no period, with its quote: {'gpu', 'usd_per_gpu_hour', 'reserved'} or
    {'gpu', 'buy_usd_per_gpu'}."""
    from gpu_advisor.knowledge import rules

    yuan = m.lang == "zh" or any(q.extra == "CNY" for q in m.role("money"))
    out: list[tuple[Quantity, dict]] = []
    used: set[int] = set()
    machines = [x.span() for x in word_pattern("quote_machine").finditer(m.text)]  # 'h20 8 gpus 1': a count
    for q in m.qty:
        if q.negated or q.role not in ("", "money") or q.extra in ("EUR", "hours") or q.value <= 0 \
                or (q.role == "" and q.value == 1) or any(s <= q.start < e for s, e in machines):
            continue
        if word_pattern("money_hourly").match(m.masked[q.end:q.end + NEAR]) or period_hours(m, q) is not None:
            continue  # a rent said per hour, month, year or day: quotes.py's
        card = _card_of(m, q, used)
        if card is None:
            continue
        start, end, gpu_id, count = card
        clause = _clause(m, q, start, end)
        if word_pattern("quote_limit").search(clause) or word_pattern("price_hosting").search(clause):
            continue  # 'budget $2000 for a 4090', 'colo for the 4090s is 300': no price of the card
        if (word_pattern("price_machine").search(clause) or word_pattern("quote_machine").search(m.text[start:q.start])) \
                and not word_pattern("quote_each").search(clause):
            continue  # a machine's price ('H20八卡一台十七万': the card's span holds the machine): rent-or-buy's (prices.py)
        cny = q.extra == "CNY" or (not q.extra and yuan)
        usd = q.value * (rules().usd_per_cny if cny else 1.0)
        between = m.masked[min(end, q.start):max(end, q.start)] if end <= q.start else m.masked[q.end:start]
        if count > 1 and not word_pattern("quote_each").search(clause) and (
                word_pattern("quote_total").search(clause) or (word_pattern("quote_buy").search(clause)
                and "for" in between)):
            usd /= count  # 'two 3090s for $1400 total': the pair's price
        if usd <= HOURLY_UP_TO:
            quote = {"gpu": gpu_id, "usd_per_gpu_hour": round(usd, 4), "reserved": False}
        elif PURCHASE_FROM <= usd <= PURCHASE_UP_TO and not word_pattern("quote_rent").search(clause):
            quote = {"gpu": gpu_id, "buy_usd_per_gpu": round(usd, 2)}
        else:
            continue
        used.add(start)
        out.append((q, quote))
    return out


def _card_of(m: Message, q: Quantity, used: set[int]) -> tuple[int, int, str, int] | None:
    """The card an amount is said of: the one right before it ('h100 at 2.39'), else, with buying said, the one
    right after it ('$700 for a used 3090')."""
    after = m.masked[q.end:q.end + NEAR]
    if word_pattern("quote_amount_not").match(after):
        return None  # '2 days', '3 nodes': no price
    for g in m.gpus:
        if g[0] in used or negated(m.masked, g[0]):
            continue
        link = m.masked[g[1]:q.start]
        if g[1] <= q.start and word_pattern("quote_total_link").match(link) and g[3] > 1:
            return g  # '两张4090 一共三万二', 'two 3090s, total $1400': the cards' total
        if g[1] <= q.start and word_pattern("quote_card_link").match(link) and ("," not in link or q.role == "money"):
            return g  # after a comma only money said as such ('3090s, $700 apiece')
    for g in m.gpus:
        if g[0] in used or g[0] < q.end or negated(m.masked, g[0]):
            continue
        if word_pattern("quote_for_card").match(m.masked[q.end:g[0]]) \
                and word_pattern("quote_buy").search(m.masked[max(0, q.start - NEAR):q.start]):
            return g
    return None


def _clause(m: Message, q: Quantity, start: int, end: int) -> str:
    """The words of the card and its price, with a little on either side (to the clause's separators)."""
    left, right = min(start, q.start), max(end, q.end)
    before = word_pattern("quote_between").split(m.masked[max(0, left - NEAR):left])[-1]
    after = word_pattern("quote_between").split(m.masked[right:right + NEAR], maxsplit=1)[0]
    return before + m.masked[left:right] + after


def quoted_from(m: Message, u, cloud: str) -> None:
    """A provider named beside the prices it quotes ('RunPod has h100 at 2.39 and a100 at 1.19'): those prices
    for those cards, no plan kept to the provider's cards, unless the user keeps to it ('runpod only',
    '只用阿里云')."""
    from gpu_advisor.knowledge.clouds import clouds

    if word_pattern("provider_only").search(m.masked):
        return
    only = u.updates.get("only") or []
    quoted = {q["gpu"] if isinstance(q, dict) else q.gpu for q in u.quotes}
    if only == list(clouds()[cloud].gpus) or (only and {c.partition("x ")[2] or c for c in only} <= quoted):
        del u.updates["only"]  # (the cards named beside it are the ones priced: quotes, not a limit)
    u.notes = [n for n in u.notes if n[0] not in ("note.provider_cards", "note.provider_partial")]
