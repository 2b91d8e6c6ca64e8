"""Questions answered before any sizing (session 14 'answers'; words/answers.yaml): the per-token price questions
(reading/api_price.py), and a concept asked about one's own setup with no model named ('whats speculative decoding
exactly and is it worth turning on … on a single 4090?'): the concept, never a card to buy."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.api_paid import read_api_paid
from gpu_advisor.assistant.reading.api_price import read_per_token
from gpu_advisor.assistant.reading.api_worth import read_api_worth
from gpu_advisor.assistant.reading.card_good import read_card_good
from gpu_advisor.assistant.reading.concept_only import read_learn_only
from gpu_advisor.assistant.reading.intents import concept_asked, read_topic
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab
from gpu_advisor.assistant.reading.usage import read_usage


def read_answers(m: Message, u: Understanding) -> None:
    read_per_token(m, u)
    read_api_worth(m, u)  # 'is it even worth it vs just using the API', '还是直接调API划算': the break-even answer
    read_usage(m, u)  # '15M tokens a month … would self hosting be cheaper than the API?': usage, not a dataset
    read_api_paid(m, u)  # 'on gpt-4o-mini api, spending like 18k/month': the API named and its bill, never a budget
    _own_setup_concept(m, u)
    read_learn_only(m, u)  # 'just want to understand the concept': no sizing, no job question
    read_card_good(m, u)  # 'is H20 any good for …': the card's verdict in words beside the sizing


def _own_setup_concept(m: Message, u: Understanding) -> None:
    words = vocab()["answers"]
    topic = u.topic or u.aside or read_topic(m) or _found_topic(m)
    if topic not in words["own_setup_concepts"] or "model" in u.updates or u.unknown_model:
        return
    if set(u.updates) - set(words["own_setup_slots"]) or len({g for _s, _e, g, _c in m.gpus}) > 1:
        return
    own = words["own_setup_asked"]
    if not (concept_asked(m, topic) or re.search(own["en"], m.text) or re.search(own["zh"], m.raw.lower())):
        return
    u.topic, u.aside = topic, None
    u.intents = (u.intents - {"whatif", "weigh", "math", "compare_cards"}) | {"explain"}
    u.updates, u.problems, u.compare_gpus, u.whatif_gpus, u.cards, u.counts = {}, [], [], None, [], {}
    u.ask = {k: v for k, v in u.ask.items() if k not in ("weigh", "home_buy")}


def _found_topic(m: Message) -> str | None:
    from gpu_advisor import knowledge

    try:
        return knowledge.find_topic(m.raw)
    except Exception:  # noqa: BLE001 - a glossary that cannot be read answers no concept question
        return None
