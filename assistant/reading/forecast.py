"""A price forecast asked with a reservation offered ("will h100 rental prices keep dropping? should i lock in 1
year reserved at 2.10/hr", "H100租金还会继续降吗？要不要签一年包年，每小时15块"): the forecast question (no tool
can know future prices), with the reserved hourly price and its term kept so that the reply weighs it against
on-demand at the use said. Words in words/forecast.yaml; prices read as in reading/prices.py."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.intents import asked
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.prices import _amounts, _horizon, cards_named
from gpu_advisor.assistant.reading.text import vocab, word_pattern
from gpu_advisor.knowledge import rules


def forecast_asked(m: Message) -> bool:
    words = vocab()["forecast_more"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    return asked(m, "forecast") or bool(re.search(words["en"], m.text) or re.search(words["zh"], typed))


def read_forecast_reserve(m: Message, u: Understanding) -> None:
    if u.intents & {"rent_buy", "reserve", "weigh", "moe_memory"} or u.also not in (None, "", "availability") \
            or u.ask.get("drops") or not forecast_asked(m):  # '不微调了，会不会便宜点': the plan's cost, not prices
        return
    if set(u.updates) - {"region", "preference", "only", "budget_usd", "budget_usd_per_month", "horizon_months"}:
        return  # a workload said too: a sizing request (intents.read_question decides)
    u.intents = (u.intents - {"availability", "compare_cards", "quality", "whatif"}) | {"forecast"}
    u.cards = [gpu_id for gpu_id, _n in cards_named(m)]
    u.counts = {gpu_id: n for gpu_id, n in cards_named(m) if n > 1}
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (re.search(vocab()["reserve_words"], m.text) or re.search(vocab()["reserve_words"], typed)):
        return
    hourly = [q for q in _amounts(m) if word_pattern("money_hourly").match(m.masked[q.end:q.end + 16])
              or word_pattern("money_hourly_before").search(m.masked[max(0, q.start - 24):q.start])]
    if len(hourly) != 1:
        return  # one hourly price beside the reservation words is its price; two or more are prices.py's pair
    q = hourly[0]
    yuan = q.extra == "CNY" or (q.role != "money" and m.lang == "zh")
    u.prices = {"reserved_usd_per_hour": round(q.value * (rules().usd_per_cny if yuan else 1.0), 4)}
    _horizon(m, u)
    for slot in ("budget_usd", "budget_usd_per_month", "horizon_months", "preference"):
        u.updates.pop(slot, None)  # the reservation's term and 'lock in' belong to the forecast's comparison
