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


# What a price question may say beside it and stay one: where, rent or buy, the card, the money, the term, how busy
# the cards are, and the kind of job they do now with no model ('we use about 8 gpus steady for inference').
CONTEXT_SLOTS = {"region", "preference", "only", "budget_usd", "budget_usd_per_month", "horizon_months", "utilisation",
                 "uptime", "phase", "owned"}


def _cards_in_use(m: Message) -> int:
    """A count of cards said with no card ('we use about 8 gpus', '稳定用8张卡'), 0 when none or several."""
    counts = {int(q.value) for q in m.qty if not q.role and q.value == int(q.value)
              and word_pattern("cards_after").match(m.masked[q.end:q.end + 16])}
    return counts.pop() if len(counts) == 1 else 0


def _prices_only(m: Message) -> bool:
    """'im asking about the price trend', 'doesnt matter which model', '我问的是价格走势': the prices are the question,
    whatever job is said beside them."""
    words = vocab()["price_question_said"]
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], unicodedata.normalize("NFKC", m.raw).lower()))


def read_forecast_reserve(m: Message, u: Understanding) -> None:
    if u.intents & {"rent_buy", "reserve", "weigh", "moe_memory"} or u.also not in (None, "", "availability") \
            or u.ask.get("drops") or not forecast_asked(m):  # '不微调了，会不会便宜点': the plan's cost, not prices
        return
    if set(u.updates) - CONTEXT_SLOTS and not _prices_only(m):
        return  # a workload said too: a sizing request (intents.read_question decides)
    u.updates = {k: v for k, v in u.updates.items() if k in CONTEXT_SLOTS}  # 'doesnt matter which model, its 70b-ish.
    # im asking about the price trend': the model said is not what is asked
    u.unknown_model = None
    u.updates.pop("phase", None)  # 'we use about 8 gpus steady for inference': what the cards do now, no job to size
    u.intents = (u.intents - {"availability", "compare_cards", "quality", "whatif"}) | {"forecast"}
    u.cards = [gpu_id for gpu_id, _n in cards_named(m)]
    u.counts = {gpu_id: n for gpu_id, n in cards_named(m) if n > 1}
    in_use = _cards_in_use(m)
    if len(u.cards) == 1 and not u.counts and in_use > 1:
        u.counts = {u.cards[0]: in_use}  # 'a reserved h100 … we use about 8 gpus': eight of the card named
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (re.search(vocab()["reserve_words"], m.text) or re.search(vocab()["reserve_words"], typed)):
        return
    u.ask["reserve"] = True  # with no price said, the reservation offered before (assistant.engine._quotes)
    u.updates.pop("owned", None)  # 'we run 8 h100s … reserve for a year?': cards rented now, none owned
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
