"""Rental prices the user was quoted, each for its card: 'lambda quoted me 2.49/hr for an h100 and vast has 4090s
at 0.35/hr', '4090一小时1.98元 A100 80G一小时6块', 'coreweave $2.25/hr per H100 1yr commit', 'H20八卡一台每月6万'.

Grammar: an amount said per hour (or per month) is a rental price; the card it prices is the one it is said
for ('2.49/hr for an h100', '$2.25/hr per H100'), else the nearest card before it in its sentence with no other
price between them ('4090s at 0.35/hr', '4090一小时1.98元'), else the nearest after it. A price for a machine
('一台每月6万') is shared over the machine's cards; a reservation, a commitment or a monthly rental is billed
every hour of its term. The words are the vocabulary's (money.yaml)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.machine_quote import read_machine_quote
from gpu_advisor.assistant.reading.message import Message, Quantity, Understanding
from gpu_advisor.assistant.reading.quote_units import cards_for, per_card_said
from gpu_advisor.assistant.reading.respectively import paired_prices
from gpu_advisor.assistant.reading.text import word_pattern

# A rental price per card-hour outside this range (USD) is no price of a GPU: a typo, or another amount.
LOWEST_USD_PER_GPU_HOUR = 0.02
HIGHEST_USD_PER_GPU_HOUR = 200.0
# Cards in a machine whose count is not said: an 8-GPU server.
MACHINE_CARDS = 8
# Characters around an amount read for its period and its words.
NEAR = 28


def read_quotes(m: Message, u: Understanding) -> None:
    """u.quotes: [{'gpu', 'usd_per_gpu_hour', 'reserved'} or {'gpu', 'buy_usd_per_gpu'}], one per card quoted
    (the last price said wins; a rent and a purchase of one card are one entry). A rent said with no card in
    the message ('租的话每卡每小时大概8块钱') has gpu None: the engine gives it the plan's card."""
    found = card_quotes(m)
    by_card: dict[str | None, dict] = {}
    for _q, quote in found:
        had = by_card.get(quote["gpu"], {})
        rates = [x["usd_per_gpu_hour"] for x in (had, quote) if x.get("usd_per_gpu_hour") is not None]
        if len(rates) == 2 and rates[0] != rates[1]:
            # two rents for one card ('27k a month for a whole 8x H100 node, runpod quoted us 2.49/hr per H100'):
            # the lower per card-hour prices the plan, the other is said back (aside_usd_per_gpu_hour)
            low, high = (had, quote) if rates[0] < rates[1] else (quote, had)
            quote = {**quote, **{k: low[k] for k in ("usd_per_gpu_hour", "reserved") if k in low},
                     "aside_usd_per_gpu_hour": high["usd_per_gpu_hour"]}
        by_card[quote["gpu"]] = {**had, **quote}
    bought = _bought(m, u)
    if bought is not None:  # 'buy them at $30k each' with a rent-or-buy question: the plan's purchase price too
        by_card[bought[0]] = {"gpu": bought[0], **by_card.get(bought[0], {}), "buy_usd_per_gpu": bought[1],
                              **({"machine_gpus": bought[2]} if bought[2] > 1 and bought[0] not in by_card else {})}
        # a whole machine's price, host included (not when a rent per card is quoted beside it)
    u.quotes = list(by_card.values())
    read_machine_quote(m, u)  # '280k usd per 8-GPU server' for 16 cards: two servers; 'colo+power': power in it
    paired_prices(m, u, _hourly)  # "A100和H100分别是¥12和¥25每卡时": each card its own price
    priced_cards = [q["gpu"] for q in u.quotes if q.get("gpu")]
    if u.updates.get("only", u.cards[:1]) == u.cards[:1] and len(u.cards) > 1 and set(u.cards) <= set(priced_cards):
        u.updates["only"] = list(u.cards)  # 'rent an L20 at 4800 a month, or buy two 4090s for 32000': both options
    if u.quotes and _only_a_price_question(m):
        # 'coreweave quoted $2.25/hr per H100 ... what does that cost us?': the price is given, the cost is the plan's
        u.intents.discard("availability")
        if u.also == "availability":
            u.also = None


def _bought(m: Message, u: Understanding) -> tuple[str, float, int] | None:
    """The purchase price of the one card a rent-or-buy question names (prices.py), per card: it prices the
    plan's buy side in every later turn, like a rent quoted."""
    if len(u.cards) != 1:
        return None
    if "buy_usd" in u.prices:
        return u.cards[0], round(u.prices["buy_usd"], 2), 1
    if "buy_usd_machine" in u.prices and u.counts.get(u.cards[0], 1) > 1:  # the machine's cards: its price per card
        return u.cards[0], round(u.prices["buy_usd_machine"] / u.counts[u.cards[0]], 2), u.counts[u.cards[0]]
    if "buy_usd_machine" in u.prices:  # '8卡整机120万一台', '一台服务器报价80万': the cards said of the machine, else
        from gpu_advisor.knowledge import find_gpu  # the card's own server ('H20 … 一台服务器' is eight)

        said = word_pattern("machine_size").search(m.masked)
        size = int(said.group("a") or said.group("b")) if said else _machine_cards(u.cards[0], find_gpu)
        return (u.cards[0], round(u.prices["buy_usd_machine"] / size, 2), size) if 2 <= size <= 16 else None
    return None


def priced(m: Message) -> set[int]:
    """The starts of the amounts that are prices of a card (a rent or a purchase): no budget."""
    return {q.start for q, _quote in card_quotes(m)}


def card_quotes(m: Message) -> list[tuple[Quantity, dict]]:
    """Each amount that prices a card, with its quote: rents said per hour or month, then amounts said of a card
    with no period (stated.py)."""
    from gpu_advisor.assistant.reading.stated import said_of_card

    rents = _rents(m)
    taken = {q.start for q, _quote in rents}
    return rents + [(q, quote) for q, quote in said_of_card(m) if q.start not in taken]


def _rents(m: Message) -> list[tuple[Quantity, dict]]:
    """Rental prices said per hour or per month, each with its card."""
    from gpu_advisor.knowledge import find_gpu, rules

    yuan = m.lang == "zh" or any(q.extra == "CNY" for q in m.role("money"))
    claimed: dict[int, dict] = {}
    amounts: dict[int, Quantity] = {}
    lone = not m.gpus and len(_rental_amounts(m)) == 1 and _rent_alone(m, _rental_amounts(m)[0])
    for q in _rental_amounts(m):
        card = _card_for(m, q, claimed) if m.gpus else (-1, -1, None, 1) if lone else None
        if card is None:
            continue
        start, end, gpu_id, count = card
        before, after = _before(m, q), _after(m, q)
        in_machine = machine_cards(m, start, q.start) if 0 <= end <= q.start else None
        if word_pattern("price_not").search(before) or word_pattern("price_hosting").search(before + " " + after):
            continue  # 'budget 2k a month', 'colo is 2k a month': no rental price of a card
        if q.extra == "EUR":
            continue
        cny = q.extra == "CNY" or (not q.extra and yuan)  # a bare amount in a Chinese message is yuan
        usd = q.value * (rules().usd_per_cny if cny else 1.0)
        term = period_hours(m, q)
        monthly = term is not None
        reserved = monthly or bool(word_pattern("price_reserved").search(_term_after(m, q))
                                   or word_pattern("price_reserved").search(_clause_before(m, q)))
        between = _between(m, q, start, end)
        one_card = per_card_said(before + after + between) or per_card_said(m.masked[q.end:q.end + NEAR].split(",")[0])
        # a price said per card ('reserved 2.30/gpu-hr' after 'an 8x H200 server') is one card's, machine or not
        machine = not one_card and (in_machine is not None
                                    or any(word_pattern("price_machine").search(x) for x in (before, after, between)))
        if machine:
            cards = in_machine or (count if count > 1 else (m.per_server.get(start) or _machine_cards(gpu_id, find_gpu)))
            usd /= cards
        shared = 1 if machine or one_card else cards_for(m, q, usd / term if term else usd)[0]
        usd /= shared  # '8.40/hr for 4x h100': four cards' price
        per_hour = usd / term if term else usd
        if not LOWEST_USD_PER_GPU_HOUR <= per_hour <= HIGHEST_USD_PER_GPU_HOUR:
            continue
        claimed[start] = {"gpu": gpu_id, "usd_per_gpu_hour": round(per_hour, 4), "reserved": reserved,
                          **({"machine_gpus": cards} if machine and cards > 1 else {}),  # a whole machine's price
                          **({"shared_cards": shared} if shared > 1 else {})}
        amounts[start] = q
    return [(amounts[start], quote) for start, quote in claimed.items()]


def _between(m: Message, q: Quantity, start: int, end: int) -> str:
    """The words joining a price to its card, the card's own words after it included: '8卡H20整机 , 一个月租金
    4.2万' (the machine said after the card, before a comma), '27k a month for a whole 8x H100 node'."""
    if start < 0:
        return ""
    if end <= q.start:
        return m.masked[end:q.start]
    tail = word_pattern("quote_between").split(m.masked[end:end + NEAR], maxsplit=1)[0]
    return m.masked[q.end:start] + " " + tail


def _rent_alone(m: Message, q: Quantity) -> bool:
    """A rent said per hour with no card in the message ('租的话每卡每小时大概8块钱'): money, renting said, no
    limit ('under $3/hr' is a ceiling, not a quote). Its card is the plan's."""
    return q.role == "money" and _hourly(m, q) and bool(word_pattern("quote_rent").search(m.masked)
                                                        or word_pattern("quote_each").search(m.masked)) \
        and not word_pattern("quote_limit").search(m.masked[max(0, q.start - NEAR):q.start])


def _only_a_price_question(m: Message) -> bool:
    """A 'what does it cost' said with the price itself, not a question about stock."""
    from gpu_advisor.assistant.reading.intents import asked

    return not asked(m, "availability")


def machine_cards(m: Message, start: int, end: int) -> int | None:
    """The cards of a machine said between a card and its price ('H20八卡一台每月6万': 8), or None."""
    x = word_pattern("quote_machine").search(m.text[start:end])  # the text: the card's span may hold '8 gpus'
    return int(x.group("n") or x.group("n2")) if x else None


def _machine_cards(gpu_id: str | None, find_gpu) -> int:
    if gpu_id is None:
        return MACHINE_CARDS
    try:
        sold = find_gpu(gpu_id).sold_in
    except (LookupError, ValueError):
        return MACHINE_CARDS
    return sold if sold > 1 else MACHINE_CARDS


def _rental_amounts(m: Message) -> list[Quantity]:
    """Amounts said per hour or per month: money, or a bare number with its period ('0.35/hr', '一小时6块')."""
    out = []
    said = [x.span() for x in word_pattern("quote_machine").finditer(m.text)]  # '8 gpus 1' inside a card's span too
    for q in m.qty:
        if q.negated or (q.role and q.role != "money") or q.extra == "hours":
            continue
        if any(s <= q.start < e for s, e in said):
            continue  # the machine's own count ('8 gpus 1'), no price
        if _hourly(m, q) or _monthly(m, q) or _per(m, q, "yearly") or _per(m, q, "daily"):
            out.append(q)
    return out


def _hourly(m: Message, q: Quantity) -> bool:
    return bool(word_pattern("money_hourly").match(m.masked[q.end:q.end + NEAR])
                or word_pattern("money_hourly_word").match(m.masked[q.end:q.end + NEAR])  # '2.49 bucks an hour'
                or word_pattern("money_card_hourly").match(m.masked[q.end:q.end + NEAR])  # '2.49 per card per hour'
                or word_pattern("price_hourly_total_before").search(m.masked[max(0, q.start - NEAR):q.start])
                or word_pattern("money_hourly_before").search(m.masked[max(0, q.start - NEAR):q.start].rstrip(" $¥￥")))


def _monthly(m: Message, q: Quantity) -> bool:
    return bool(word_pattern("money_monthly_after").match(m.masked[q.end:q.end + NEAR])
                or word_pattern("price_monthly_before").search(m.masked[max(0, q.start - NEAR):q.start])
                or word_pattern("price_monthly_before_zh").search(m.masked[max(0, q.start - NEAR):q.start])
                or word_pattern("price_monthly_total_before").search(m.masked[max(0, q.start - NEAR):q.start]))


def _per(m: Message, q: Quantity, period: str) -> bool:
    """A rent said per year or per day ('$15k per card per year', '一年40万', '每天40块'), the period after it or
    before it (words/stated_prices.yaml)."""
    return bool(word_pattern(f"price_{period}_after").match(m.masked[q.end:q.end + NEAR])
                or word_pattern(f"price_{period}_before").search(m.masked[max(0, q.start - NEAR):q.start]))


def period_hours(m: Message, q: Quantity) -> float | None:
    """The hours a rent said per period covers, billed whatever the use (a month, a year, a day), or None for a
    rent per hour."""
    from gpu_advisor.tools.cost import HOURS_PER_MONTH

    if _per(m, q, "yearly"):
        return HOURS_PER_MONTH * 12
    if _monthly(m, q):
        return HOURS_PER_MONTH
    if _per(m, q, "daily"):
        return 24.0
    return None


def _before(m: Message, q: Quantity) -> str:
    """The words of this price's own stretch before it: back to the last separator ('vs', 'and', a comma)."""
    return word_pattern("quote_between").split(m.masked[max(0, q.start - NEAR):q.start])[-1]


def _clause_before(m: Message, q: Quantity) -> str:
    return word_pattern("price_between").split(m.masked[max(0, q.start - NEAR):q.start])[-1]


def _term_after(m: Message, q: Quantity) -> str:
    """What is said of this price after it, to the next price or the sentence's end: its term ('on a 1-year
    commitment', 'for a year')."""
    end = min([q.end + 2 * NEAR] + [x.start for x in _rental_amounts(m) if x.start > q.start]
              + [q.end + s.start() for s in word_pattern("sentence_start").finditer(m.masked[q.end:])])
    return m.masked[q.end:end]


def _after(m: Message, q: Quantity) -> str:
    """The words right after an amount, up to the next amount or separator."""
    end = min([q.end + NEAR] + [x.start for x in m.qty if x.start >= q.end])
    return word_pattern("quote_between").split(m.masked[q.end:end], maxsplit=1)[0]


def _card_for(m: Message, q: Quantity, claimed: dict[int, dict]) -> tuple[int, int, str, int] | None:
    """The card a rental price is said of: the one it is said for ('/hr for an h100', 'per H100'), else the
    nearest before it in the same sentence with no price between, else the nearest after it."""
    prices = [x.start for x in _rental_amounts(m)]
    sentence_from = max([0] + [s.end() for s in word_pattern("sentence_start").finditer(m.masked[:q.start])])
    ahead = [g for g in m.gpus if g[0] >= q.end and g[0] not in claimed]
    if ahead:
        first = min(ahead, key=lambda g: g[0])
        if word_pattern("quote_for_card").match(m.masked[q.end:first[0]]):
            return first
    behind = [g for g in m.gpus if g[1] <= q.start and g[0] >= sentence_from and g[0] not in claimed
              and not any(g[1] <= p < q.start for p in prices)]
    if behind:
        return max(behind, key=lambda g: g[1])
    sentence_to = min([len(m.masked)] + [q.end + s.start() for s in word_pattern("sentence_start").finditer(m.masked[q.end:])])
    after = [g for g in ahead if g[0] < sentence_to and not any(q.end <= p < g[0] for p in prices)]
    if after:
        return min(after, key=lambda g: g[0])
    kinds = {g[2] for g in m.gpus}
    if len(kinds) == 1 and len(prices) == 1 and not claimed:
        return m.gpus[0]  # 'should we buy 8 h100s or keep renting? … paying 2.50/hr per gpu': the one card named
    return None
