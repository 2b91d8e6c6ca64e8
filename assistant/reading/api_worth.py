"""Self-hosting weighed against paying an API, asked in words with no price and no 'break even' ('is it even worth it
vs just using the API', '还是直接调API划算'): read as the break-even question (u.ask["break_even"]), so the answer
gives the self-hosted cost per million tokens at the load sized, the maker's API price on record (dated) and the
volume where they meet (assistant/api_compare.py). The words: words/api_worth.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_api_worth(m: Message, u: Understanding) -> None:
    if u.ask.get("break_even") or u.intents & {"reset", "help", "empty"}:
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if word_pattern("api_worth.en").search(typed) or word_pattern("api_worth.zh").search(typed):
        u.ask["break_even"] = True
