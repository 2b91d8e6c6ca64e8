"""A card said as a group with no count ('a 4090 cluster', 'can h100s do it', '用4090集群可以吗'): the card class to
plan with, so the plan says how many the job takes (review AQ 18: '你的 1 张 4090' for a cluster of no count said).
Words: words/vague_counts.yaml card_group."""
from __future__ import annotations

from gpu_advisor.assistant.reading.text import clean, word_pattern


def said_as_group(text: str) -> bool:
    """Whether the message names a card as a group of no stated size."""
    return bool(word_pattern("card_group").search(clean(text)))
