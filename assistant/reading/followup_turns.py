"""Follow-up words read after the other readers: any card will do (reading/any_card.py) and a rate now with a
higher one later (reading/later_rate.py)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.any_card import read_any_card
from gpu_advisor.assistant.reading.later_rate import read_later_rate
from gpu_advisor.assistant.reading.message import Message, Understanding


def read_turn_words(m: Message, u: Understanding) -> None:
    read_any_card(m, u)
    read_later_rate(m, u)


def read_elsewhere_and_turn_words(m: Message, u: Understanding) -> None:
    """The card asked about when another is hard to get (reading.elsewhere), then the turn's own words above: one
    call from reading/__init__.py, which stays within its line budget."""
    from gpu_advisor.assistant.reading.elsewhere import read_elsewhere

    read_elsewhere(m, u)
    read_turn_words(m, u)
