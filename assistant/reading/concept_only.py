"""A message that only says the user wants the concept, not a sizing ("just want to understand the concept", "only
learning how it works", "只是想了解一下原理"; words/concept_how.yaml learn_only): the reply sizes nothing and asks no
job question (intents learn_only and no_sizing; engine reply_node answers it from the catalog); a glossary concept named
with it is explained. Heard only when the message carries nothing else: no value, no card."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab


def read_learn_only(m: Message, u: Understanding) -> None:
    if u.updates or u.topic or u.aside or u.compare_gpus or u.whatif_gpus or m.gpus:
        return
    words = vocab()["learn_only"]
    if not (re.search(words["en"], m.text) or re.search(words["zh"], m.raw.lower())):
        return
    u.intents -= {"not_sure", "math", "why", "whatif"}
    topic = _topic(m)
    if topic:  # "I just want to learn the concept of kv cache": that concept explained
        u.topic = topic
        u.intents |= {"explain", "no_sizing"}
    else:
        u.intents |= {"learn_only", "no_sizing"}


def _topic(m: Message) -> str | None:
    from gpu_advisor import knowledge

    try:
        return knowledge.find_topic(m.raw)
    except Exception:  # noqa: BLE001 - a glossary that cannot be read answers no concept question
        return None
