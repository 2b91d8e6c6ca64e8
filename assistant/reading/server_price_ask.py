"""The price of a named server asked with no job ('问下行情，现在国内租一台8卡H800大概一个月多少钱？跟直接买一台比，用满两年
哪个划算', 'what does renting an 8x H100 box cost per month vs buying one, running flat out for 2 years?', later '没有固定
模型，就是问个价格', '你先把租金和买价告诉我就行'): the 'server_price' code (assistant.server_rent_buy answers it at once),
no job and no preference kept from the words that weigh buying against renting ('跟直接买一台比' is no wish to buy),
full load said ('用满', 'flat out') as the use. Grammar only: the words are in words/server_price_ask.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

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
    if not (_named_server(m, u, raw) or word_pattern("server_price_ask.only").search(raw)):
        return
    u.intents.add("server_price")
    u.intents.discard("whatif")
    u.also = None
    for slot in JOB_SLOTS:
        u.updates.pop(slot, None)
    if "utilisation" not in u.updates and word_pattern("server_price_ask.full_load").search(raw):
        u.updates["utilisation"] = 1.0
