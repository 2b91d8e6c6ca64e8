"""A monthly or hourly cost asked ('how many H100s and what would it cost per month?', '每月多少钱') with no purchase
said and no home use: the plan is a rental (preference 'rent', u.ask['cost_rent']: inferred, said as an assumption),
and buying is the secondary rent-or-buy line with its break-even. The words: words/cost_asked.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_cost_asked(m: Message, u: Understanding) -> None:
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if "preference" in u.updates or u.updates.get("personal") or u.updates.get("owned") or "rent_buy" in u.intents \
            or u.ask.get("buy_or_rent") or u.ask.get("home_buy") or "availability" in u.intents:
        return  # ('H100租一小时多少钱': a price asked, no plan to rent)
    if m.pending == "preference":
        return  # rent or buy is the open question: a cost asked is its own question, not that answer
    if not (word_pattern("cost_asked.asked").search(typed) or word_pattern("cost_asked.asked").search(m.text)
            or word_pattern("cost_asked.asked_zh").search(typed)):
        return
    if word_pattern("cost_asked.buy_said").search(typed) or word_pattern("cost_asked.buy_said").search(m.text):
        return
    u.updates["preference"] = "rent"
    u.ask["cost_rent"] = True  # inferred from the cost asked: an assumption, and an earlier purchase said stands
