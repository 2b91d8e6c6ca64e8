"""Prices the user states: what a card or a machine costs to buy or rent ('H20一张8万', 'a quote of $2.10/hr per
H100', '整机一台80万'), whether a rent is reserved, and a horizon said alone ('五年呢'). Grammar only: the words
are in words/money.yaml."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.box_rent import rent_month_apart
from gpu_advisor.assistant.reading.clauses import clause_bounds, rejected
from gpu_advisor.assistant.reading.horizon import horizon_months
from gpu_advisor.assistant.reading.message import Message, Quantity, Understanding
from gpu_advisor.assistant.reading.quote_units import cards_for, per_card_said
from gpu_advisor.assistant.reading.stated_lengths import bought_for
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.tools.cost import HOURS_PER_MONTH


def cards_named(m: Message) -> list[tuple[str, int]]:
    """Cards named and not ruled out, each once, with the count said (1 when none)."""
    seen: dict[str, int] = {}
    for s, e, gpu_id, count in m.gpus:
        if not rejected(m, s, e):  # the largest count said with the card ("per H100 ... an 8x H100 box": 8)
            said = count if re.match(r"\s*\d", m.text[s:e]) or re.search(r"x\s*\d+\s*$", m.text[s:e]) else 1
            seen[gpu_id] = max(seen.get(gpu_id, 1), said)
    return list(seen.items())


def said_one(m: Message) -> list[str]:
    """Cards said with the count one ('2x used 3090 or one 5090', '一张 5090'): that one card is the option, never the
    count the job needs (u.counts holds the counts above one)."""
    return [gpu_id for s, e, gpu_id, count in m.gpus
            if count == 1 and not rejected(m, s, e) and re.match(r"\s*1(?!\d)", m.text[s:e])]


def counts_said(m: Message) -> dict[str, int]:
    """The count said with each card named: more than one ('2x 3090'), or one said as a count ('1x 4090', 'one 4090',
    '一张4090'): '2x 3090 vs 1x 4090' weighs one 4090, never two (review BJ #14). A card named with no count has none."""
    counted = {gpu_id for s, _e, gpu_id, _n in m.gpus if s in m.counted}
    return {gpu_id: n for gpu_id, n in cards_named(m) if n > 1 or gpu_id in counted}


def read_prices(m: Message, u: Understanding) -> None:
    """The prices said (_read_prices), then a named server's price asked with no job (reading.server_price_ask), then
    a budget's period and the runs a month (reading.money_period)."""
    from gpu_advisor.assistant.reading.money_period import read_money_period
    from gpu_advisor.assistant.reading.server_price_ask import buy_asked_first, read_server_price

    _read_prices(m, u)
    read_server_price(m, u)
    read_money_period(m, u)
    if "server_price" in u.intents and buy_asked_first(m):
        u.ask["buy_first"] = True  # '买一台8卡A800整机大概多少钱，和租比多久回本': the server's price said first


def _read_prices(m: Message, u: Understanding) -> None:
    """Prices given with a rent-or-buy question ('an H100 is $30k to buy or $2.50 an hour to rent',
    '租的话一个月2800一张4090，买整机6万，用两年'): rent per card-hour or per card-month, the price of a
    card or of a whole machine, and the months the cards are kept; none of them is a budget. Amounts
    without a currency in such a clause are the conversation's (yuan in Chinese)."""
    _buying_asked_about(u)
    if "rent_buy" not in u.intents and _both_priced(m):
        u.intents.add("rent_buy")  # "$2.49/hr per H100, or buy the 8x box for 280k": a rent-or-buy question
    if "rent_buy" not in u.intents and _machine_quoted(m):
        u.intents.add("rent_buy")  # "an 8x H100 server quoted at $250k", "整机8卡H20十七万": buying it, against renting
    if "rent_buy" not in u.intents and _reserved_pair(m):
        u.intents.add("reserve")  # "2.49/hr on demand or 1.85/hr reserved for a year": which rental
    if "rent_buy" not in u.intents and "reserve" not in u.intents:
        _horizon_alone(m, u)
        return
    from gpu_advisor.knowledge import rules

    u.cards = [gpu_id for gpu_id, _n in cards_named(m)]
    u.counts = {gpu_id: n for gpu_id, n in cards_named(m) if n > 1}
    if u.cards and not set(u.updates) - {"only", "preference", "budget_usd", "budget_usd_per_month"}:
        u.updates.pop("only", None)  # "rent or buy 8 H100s?": the cards asked about, no plan limited to them
    yuan = m.lang == "zh" or any(q.extra == "CNY" for q in m.role("money"))
    for q in _amounts(m):
        priced = _price(m, u, q, yuan)
        if priced is not None:
            u.prices[priced[0]] = round(priced[1], 4)
    bare = word_pattern("zh_bare_price").search(m.masked) if m.lang == "zh" and not _buy_said(u) else None
    if bare:
        u.prices["buy_usd"] = round(float(bare.group(1)) * rules().usd_per_cny, 4)
    if u.prices:
        _horizon(m, u)
    if u.prices:
        _no_budget(m, u)
        if "reserve" in u.intents:
            u.updates["preference"] = "rent"  # on demand or reserved: renting either way
        if "model" in u.updates or u.unknown_model:  # a workload too: sized (on the card priced), then compared
            u.also = "reserve" if "reserve" in u.intents else "rent_buy"
            if u.cards and not u.updates.get("owned"):  # the card priced, as many as the job needs
                u.updates["only"] = list(u.cards[:1])


def _buying_asked_about(u: Understanding) -> None:
    """'does the buy number include power?', 'if we bought the cards, when does that pay off?': questions about
    buying, no wish to buy; the payback one is a rent-or-buy question."""
    if "running_costs" in u.intents or "payback" in u.intents:
        u.updates.pop("preference", None)
    if "payback" in u.intents:
        u.intents.add("rent_buy")


def _price(m: Message, u: Understanding, q: Quantity, yuan: bool) -> tuple[str, float] | None:
    """One amount said with a rent-or-buy (or reservation) question, as (price key, USD), or None when it is
    no price: rent per card-hour or card-month, a purchase, hosting; '_machine' when it is a whole machine's."""
    from gpu_advisor.knowledge import rules

    cny = q.extra == "CNY" or (q.role != "money" and yuan)
    usd = q.value * (rules().usd_per_cny if cny else 1.0)
    if q.extra == "EUR" or usd <= 0:
        return None
    left, _right = clause_bounds(m.masked, q.start, q.end)
    before = _before(m, q)
    after = _after(m, q)
    if word_pattern("price_not").search(before):
        return None  # "budget $30k": what may be spent, not what a card costs
    hourly = word_pattern("money_hourly").match(after) or word_pattern("money_hourly_before").search(before.rstrip(" $¥￥")) \
        or word_pattern("money_hourly_word").match(after) or word_pattern("money_card_hourly").match(after) \
        or word_pattern("price_hourly_total_before").search(before)  # '每小时一共36块'
    monthly = word_pattern("money_monthly_after").match(m.masked[q.end:q.end + 24]) \
        or word_pattern("price_monthly_before").search(before) or word_pattern("price_monthly_total_before").search(before) \
        or (not hourly and rent_month_apart(m, q))  # '每月租一台8卡H100要12万': the machine's month
    sentence = word_pattern("sentence_start").split(m.masked[max(0, q.start - 80):q.start])[-1]
    per_card = word_pattern("price_per_card").search(before + after) or per_card_said(m.masked[q.end:q.end + 24])
    counted = any(n > 1 and e <= q.start and q.start - e <= 24 for _s, e, _g, n in m.gpus)  # "8卡H20每月十二万"
    machine = word_pattern("price_machine").search(before) or word_pattern("price_machine").search(after) \
        or (not hourly and not monthly and word_pattern("price_machine").search(sentence) and not per_card) \
        or (counted and not per_card) \
        or word_pattern("quote_machine").search(before) \
        or word_pattern("quote_machine_after").match(m.text[q.end:q.end + 40])  # "an 8x box, quote is 280k", "285k for an 8x box"
    said = hourly or monthly or word_pattern("price_before").search(before.rstrip(" $¥~")) \
        or word_pattern("price_after").match(after) or (q.role != "money" and _priced(m.text[max(left, q.start - 40):q.start].split(",")[-1] + after))  # the card's words too
    said = said or bought_for(m, q)  # '想买一台8卡H20服务器，大概一百万': what the machine to buy costs
    # '210k for an 8x h100 server' (read '… for 1 server each with 8 h100 server'): the machine's price
    said = said or bool(word_pattern("quote_machine_after").match(m.text[q.end:q.end + 40]))
    if not said:
        return None
    if (hourly or monthly) and not per_card and (not machine or _fewer_than_the_machine(m, u, q, counted)):
        # '8.40/hr for 4x h100', '租4张H20每小时36块，或者买一台8卡H20': those cards' price, per card
        usd /= cards_for(m, q, usd / (HOURS_PER_MONTH if monthly else 1.0))[0]
        machine = None
    hosting = word_pattern("price_hosting").search(after) or word_pattern("price_hosting").search(before)
    kind = "hosting_usd_per_month" if hosting and monthly else \
        "rent_usd_per_hour" if hourly else "rent_usd_per_month" if monthly else "buy_usd"
    if kind == "rent_usd_per_hour" and "reserve" in u.intents:  # both kept per hour
        kind = "reserved_usd_per_hour" if _reserved(_before_reserved(m, q), after) else kind
    elif kind == "rent_usd_per_hour" and _reserved(before, after):
        kind, usd = "rent_usd_per_month", usd * HOURS_PER_MONTH  # reserved: billed every hour, busy or not
        u.notes.append(("note.reserved", {"usd": f"${q.value:,.2f}" if not cny else f"¥{q.value:,.2f}"}))
    return kind + ("_machine" if machine or kind == "hosting_usd_per_month" else ""), usd


def _fewer_than_the_machine(m: Message, u: Understanding, q: Quantity, counted: bool) -> bool:
    """A rent said for a count of cards right before it ('租4张H20每小时36块') that is not the count of the machine
    priced with it ('一台8卡H20'): those cards' rent, not the machine's; no machine word said with it."""
    if not counted or word_pattern("price_machine").search(_after(m, q)) \
            or word_pattern("price_machine").search(m.masked[max(0, q.start - 24):q.start]):
        return False
    n = next((c for s, e, g, c in m.gpus if e <= q.start and q.start - e <= 24 and c > 1), 1)
    return n > 1 and n != max(u.counts.values(), default=n)


def _horizon_alone(m: Message, u: Understanding) -> None:
    """'and if we go with a 3 year horizon?', '三年折旧呢': rent or buy again, over that time (the prices said
    before are the engine's to bring back)."""
    if (word_pattern("horizon_said").search(m.masked) and word_pattern("horizon").search(m.masked)) \
            or word_pattern("horizon_alone").match(m.masked) or _only_a_horizon(m, u):
        _horizon(m, u)
        if u.prices:
            u.intents.add("rent_buy")


def _only_a_horizon(m: Message, u: Understanding) -> bool:
    """'what if we only keep it two years', '如果只用两年呢': how long the cards are kept, and nothing else said."""
    return bool(word_pattern("horizon").search(m.masked)) and not set(u.updates) - {"horizon_months"} and not (u.intents - {"whatif", "rent_buy"})


def _horizon(m: Message, u: Understanding) -> None:
    """The months the cards are kept: '用两年', 'over 3 years'."""
    horizon = word_pattern("horizon").search(m.masked) or word_pattern("horizon_bare").search(m.masked)
    if horizon:
        months = horizon_months(horizon.group("n") or horizon.group("n2"), horizon.group("unit") or horizon.group("unit2"))
        if 0 < months <= 120:
            u.prices["horizon_months"] = months


def _reserved(before: str, after: str) -> bool:
    """'$2.10/gpu-hr reserved', 'on a 3-year commitment', '包年': billed every hour of the term."""
    return bool(word_pattern("price_reserved").search(after) or word_pattern("price_reserved").search(before))


def _after(m: Message, q: Quantity, width: int = 24) -> str:
    """The words right after an amount, up to the clause's comma or the next number ('$2.49 an hour vs
    reserved at $1.85': 'reserved' is the second price's)."""
    end = min([q.end + width] + [x.start for x in _amounts(m) if x.start >= q.end])
    return word_pattern("price_between").split(m.masked[q.end:end], maxsplit=1)[0]


def _before_reserved(m: Message, q: Quantity) -> str:
    """The words before an amount back to the last 'vs', 'or', comma: what is said of this price alone."""
    return word_pattern("price_between").split(m.masked[max(0, q.start - 40):q.start])[-1]


def _reserved_pair(m: Message) -> bool:
    """Two hourly rental prices, one of them reserved (or committed) and one not: on demand against a
    reservation."""
    hourly = [q for q in _amounts(m) if word_pattern("money_hourly").match(m.masked[q.end:q.end + 16])
              or word_pattern("money_hourly_before").search(m.masked[max(0, q.start - 24):q.start])]
    reserved = [_reserved(_before_reserved(m, q), _after(m, q)) for q in hourly]
    return len(hourly) >= 2 and any(reserved) and not all(reserved)


def _both_priced(m: Message) -> bool:
    """Rent and buy both named, each beside an amount: a rental price per hour or month and a purchase."""
    amounts = _amounts(m)
    per_time = [q for q in amounts if word_pattern("money_hourly").match(m.masked[q.end:q.end + 16])
                or word_pattern("money_hourly_word").match(m.masked[q.end:q.end + 24])
                or word_pattern("money_hourly_before").search(m.masked[max(0, q.start - 24):q.start])
                or word_pattern("money_monthly_after").match(m.masked[q.end:q.end + 24])
                or word_pattern("price_monthly_before").search(m.masked[max(0, q.start - 24):q.start])]
    bought = [q for q in amounts if q not in per_time and q.value >= 1000 and _priced(m.masked[max(0, q.start - 40):q.end + 16])]
    return bool(per_time) and bool(bought)


def _machine_quoted(m: Message) -> bool:
    """A machine of named cards priced to buy ('an 8x H100 server quoted at $250k', '整机8卡H20十七万'): a
    purchase quote, neither a budget nor a card owned."""
    if not m.gpus:
        return False
    for q in _amounts(m):
        before = m.masked[max(0, q.start - 40):q.start]
        split = word_pattern("sentence_start").split
        # the card's words too, in the amount's own sentence ('an 8xH100 box costs about $300k; serve …')
        sentence = split(m.text[max(0, q.start - 80):q.end])[-1] + split(m.text[q.end:q.end + 24])[0]
        if q.value < 1000 or word_pattern("price_not").search(before) or _per_time(m, q) \
                or word_pattern("money_paid_before").search(before[-20:]):
            continue
        said = word_pattern("price_before").search(before[-24:].rstrip(" $¥~")) or word_pattern("price_machine").search(m.text[max(0, q.start - 40):q.start])
        if said and word_pattern("price_machine").search(sentence):
            return True
    return False


def _per_time(m: Message, q: Quantity) -> bool:
    """An amount said per hour or per month (a rent, a monthly budget)."""
    return bool(word_pattern("money_hourly").match(m.masked[q.end:q.end + 16])
                or word_pattern("money_hourly_word").match(m.masked[q.end:q.end + 24])
                or word_pattern("money_hourly_before").search(m.masked[max(0, q.start - 24):q.start])
                or word_pattern("money_monthly_after").match(m.masked[q.end:q.end + 24])
                or word_pattern("price_monthly_before").search(m.masked[max(0, q.start - 24):q.start])
                or word_pattern("money_monthly").search(m.masked[q.end:q.end + 16]))


def _before(m: Message, q: Quantity) -> str:
    """The words of q's clause just before it (to the comma before)."""
    left, _right = clause_bounds(m.masked, q.start, q.end)
    return m.masked[max(left, q.start - 40):q.start].split(",")[-1]


def _no_budget(m: Message, u: Understanding) -> None:
    """Prices said: the amounts are prices, no budget, and no way preferred -- unless a budget is said beside them
    ('报了一台8卡4090服务器二十八万，预算三十万以内', 'quoted $40k, budget under $45k'): that one is kept (review CJ #6)."""
    u.updates.pop("preference", None)
    if _budget_said(m):
        return
    for slot in ("budget_usd", "budget_usd_per_month"):
        u.updates.pop(slot, None)
    u.notes = [n for n in u.notes if n[0] != "note.budget_once"]


def _budget_said(m: Message) -> bool:
    """Money said as what may be spent beside the prices ('budget under $45k', '预算三十万以内'): a budget the plan
    keeps to, never one of the prices."""
    return any(q.role == "money" and word_pattern("price_not").search(_before(m, q)) for q in _amounts(m))


def _amounts(m: Message) -> list[Quantity]:
    """Money said, and bare amounts (no unit, 50 or more) that may be prices in a rent-or-buy question."""
    return [q for q in m.qty if not q.negated and (q.role == "money" or (not q.role and not _range_low(m, q) and (
        q.value >= 50 or word_pattern("money_hourly").match(m.masked[q.end:q.end + 16]))))]  # '1.88一小时' too


def _range_low(m: Message, q: Quantity) -> bool:
    """The low end of a range whose top end has its unit ('50-60 people', '五六十个人'): never a price."""
    return any(o.role and o.role != "money" and o.start >= q.end
               and word_pattern("users_range_join").match(m.masked[q.end:o.start]) for o in m.qty)


def _priced(words: str) -> bool:
    """A bare amount beside rent or buy words is a price ('买整机 60000', 'renting 2800 a month', '整机报价')."""
    return bool(word_pattern("preference.rent").search(words) or word_pattern("preference.buy").search(words)
                or word_pattern("price_machine").search(words) or word_pattern("price_before").search(words))


def _buy_said(u: Understanding) -> bool:
    return "buy_usd" in u.prices or "buy_usd_machine" in u.prices
