"""The price of a named server asked with no job ('问下行情，现在国内租一台8卡H800大概一个月多少钱？跟直接买一台比，用满两年
哪个划算', 'what does renting an 8x H100 box cost per month vs buying one, running flat out for 2 years?', later '没有固定
模型，就是问个价格', '你先把租金和买价告诉我就行'): the 'server_price' code (assistant.server_rent_buy answers it at once),
no job and no preference kept from the words that weigh buying against renting ('跟直接买一台比' is no wish to buy),
full load said ('用满', 'flat out') as the use.

The grammar: a server is asked about when a card is named in this message (with a count or as a server) and its price
asked; a price-only ask ('就是问个价格', 'just want the price') with no card named is one only where the conversation
holds a server and no plan to price otherwise (kept_server_price, at the engine, which knows the profile): on a plan,
'just want the hourly price per provider' asks the plan's card's offers. Words: words/server_price_ask.yaml."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

CLAUSE_ENDS = ";:!?\n。；：！？，,"  # a comma ends the clause of a price asked too ('买一台…多少钱，和租比…')
JOB_SLOTS = ("phase", "method", "preference", "model", "users", "users_range")


def _named_server(m: Message, u: Understanding, raw: str) -> bool:
    """One card named, as a server or with a count, rent and buy both said and their price asked."""
    named = {g: max(n for _s, _e, h, n in m.gpus if h == g) for _s, _e, g, _n in m.gpus}
    if len(named) != 1 or not (max(named.values()) > 1 or word_pattern("server_price_ask.server").search(raw)):
        return False
    u.cards, u.counts = list(named), {g: n for g, n in named.items() if n > 1}
    return bool(word_pattern("server_price_ask.asked").search(raw) and word_pattern("server_price_ask.rent").search(raw)
                and word_pattern("server_price_ask.buy").search(raw))


def read_server_price(m: Message, u: Understanding) -> None:
    raw = m.raw.lower()
    if "model" in u.updates or u.unknown_model or u.updates.get("owned"):
        return
    if any(k.startswith(("buy_usd", "rent_usd")) for k in u.prices):
        return  # a price given ('报价一台80万'): the user's figure is weighed, not a price asked
    only = word_pattern("server_price_ask.only").search(raw)
    if _named_server(m, u, raw) or (only and m.gpus):
        server_price(u, raw)
    elif only:
        u.ask["price_only"] = True  # no card named: a server's price only if the conversation holds one, no plan


def server_price(u: Understanding, raw: str) -> None:
    """The turn read as a server's price asked: no job, no preference, the use said as full load."""
    u.intents.add("server_price")
    u.intents.discard("whatif")
    u.also = None
    for slot in JOB_SLOTS:
        u.updates.pop(slot, None)
    if "utilisation" not in u.updates and word_pattern("server_price_ask.full_load").search(raw):
        u.updates["utilisation"] = 1.0


def kept_server_price(u: Understanding, raw: str, profile: dict[str, Any]) -> None:
    """'就是问个价格', '你先把租金和买价告诉我就行' after a server's price: that server's price again, when the
    conversation holds a counted server (a box asked about) and no model to plan for; on a plan the ask is the
    plan's own (its card's offers, its cost)."""
    if not u.ask.pop("price_only", None):
        return
    box = any(str(x)[:1].isdigit() for x in profile.get("only") or [])
    if box and not profile.get("model") and "model" not in u.updates and not u.unknown_model:
        server_price(u, raw.lower())


def buy_asked_first(m: Message) -> bool:
    """Whether the first price asked is the purchase's ('考虑买一台8卡A800整机大概多少钱，和租比多久回本'): the clause
    holding the first price-asked word says buying and not renting ('租一台8卡H800一个月多少钱？跟直接买一台比': rent;
    'what does renting an 8x H100 box cost per month vs buying one': both, rent first as before)."""
    raw = m.raw.lower()
    asked = word_pattern("server_price_ask.asked").search(raw)
    if asked is None:
        return False
    lo = max(raw.rfind(c, 0, asked.start()) for c in CLAUSE_ENDS) + 1
    hi = min([i for i in (raw.find(c, asked.end()) for c in CLAUSE_ENDS) if i >= 0] or [len(raw)])
    clause = raw[lo:hi]
    return bool(word_pattern("server_price_ask.buy").search(clause)) and not word_pattern(
        "server_price_ask.rent").search(clause)
