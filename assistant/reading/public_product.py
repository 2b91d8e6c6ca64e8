"""A product for the public named by what it is ('an ai writing assistant', 'AI陪聊app', "our app's users", 'toC产品'),
beside the words that name its users (words/time.yaml public_facing): up around the clock and held at the product
speed floor, never asked how busy its cards are (reviews CC #6, #8). Words in words/public_product.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import vocab, word_pattern


def for_public(m: Message) -> bool:
    """Whether the message names a product for the public by its kind, with no internal word or one person's own use."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if m.live("internal_use") or word_pattern("internal_use").search(typed) or m.live("personal"):
        return False
    return any(m.live(f"public_product.{kind}") or word_pattern(f"public_product.{kind}").search(typed)
               for kind in vocab()["public_product"])
