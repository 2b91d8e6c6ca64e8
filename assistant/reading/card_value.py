"""Which of the cards named is better value ('H20和A100哪个跑推理划算？不是要配置，就想知道区别', 'which is better bang for
buck for inference, h100 or a100? just curious'): the cards' comparison (intent compare_cards) with ask["value"], so
the reply divides each card's prices into its bandwidth and compute (assistant/card_value.py). Only with
nothing to size (a model, a load) and no prices, used cards or rent-against-buy of the user's own: those are
weighed by the sized comparison. A configuration
declined ('不是要配置', 'not asking for a config', 'just curious'): intent no_sizing, the job word kept only in the ask (no 'noted: serving' and no question for a model after the answer).
Words: words/card_value.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab
from gpu_advisor.tools.phases import trains

# Slots the question's own words may fill: the job ('跑推理'), the engine and format, the market.
OWN_SLOTS = {"phase", "engine", "engine_app", "precision", "region", "preference"}
# Comparisons weighed by their own replies: used cards at their prices, one card rented against another bought.
WEIGHED_ELSEWHERE = {"used", "rent_buy_sides", "count_each", "methods_weighed"}


def _hit(key: str, m: Message, typed: str) -> bool:
    words = vocab()["card_value"][key]
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], typed))


def read_card_value(m: Message, u: Understanding) -> None:
    cards = u.cards or u.compare_gpus
    if len(set(cards)) < 2 or ("compare_cards" not in u.intents and u.also != "compare_cards"):
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not _hit("value", m, typed):
        return
    if set(u.updates) - OWN_SLOTS or u.scale or u.prices or u.quotes or set(u.ask) & WEIGHED_ELSEWHERE:
        return  # a job to size, prices of their own, used cards, renting one against buying another: weighed there
    if trains(u.updates.get("phase")):
        return  # 'is the 80GB worth it for training': what each card holds for training answers it (compare_verdict)
    u.ask = {**u.ask, "value": True}
    if _hit("no_config", m, typed):
        u.intents = (u.intents - {"whatif"}) | {"compare_cards", "no_sizing"}
        u.updates = {k: v for k, v in u.updates.items() if k in ("region", "preference")}
