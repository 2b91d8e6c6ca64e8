"""The count of cards asked for each of two weight formats named ('fp8 vs int4 (awq) for llama 3.1 70b on L40S, how
much quality do I lose with int4 and how many L40S do I need for each?', 'fp8和awq int4各要几张卡'): the plan was
sized in one format and the other's count never said. Now u.ask['count_each_format'] = the card asked about (or
None: the plan's), answered with the quality (assistant/format_counts.py). Words in words/kv_part.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab


def read_format_each(m: Message, u: Understanding) -> None:
    """u.ask['count_each_format'] when two formats are named and a count is asked of each."""
    if len(u.ask.get("precisions") or []) < 2:
        return
    words = vocab()["format_count_each"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (re.search(words["en"], m.text) or re.search(words["zh"], typed)):
        return
    cards = list(dict.fromkeys(g for _s, _e, g, _n in m.gpus))
    u.ask = {**u.ask, "count_each_format": cards[0] if len(cards) == 1 else None}
