"""Follow-up words read after the other readers: any card will do (reading/any_card.py) and a rate now with a
higher one later (reading/later_rate.py)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.any_card import read_any_card
from gpu_advisor.assistant.reading.later_rate import read_later_rate
from gpu_advisor.assistant.reading.message import Message, Understanding


def read_turn_words(m: Message, u: Understanding) -> None:
    read_any_card(m, u)
    read_later_rate(m, u)
