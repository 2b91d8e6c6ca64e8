"""A concept asked of one card named as its example: "why is decode slower than prefill on H100?",
"为什么H100上解码比预填充慢？" (words/concept_how.yaml concept_why). Read as a card to try, the question was dropped and
the job asked; it is the glossary topic's question, the card only where it is asked (u.ask['example_card'])."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_concept_on_card(m: Message, u: Understanding, topic: str | None) -> None:
    if u.topic or not topic or topic == "best-gpu" or u.updates:
        return
    cards = set(u.compare_gpus) | ({u.whatif_gpus[1]} if u.whatif_gpus else set())
    if len(cards) != 1 or not word_pattern("concept_why").search(m.text):
        return
    u.topic = topic
    u.ask = {**u.ask, "example_card": next(iter(cards))}
    u.intents = (u.intents - {"math", "whatif"}) | {"explain", "concept"}
    u.compare_gpus, u.whatif_gpus, u.problems = [], None, []
