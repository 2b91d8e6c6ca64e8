"""'那上w8a8量化能省多少', 'how much would int8 save?': a precision asked as a saving (words/savings.yaml). The plan
is sized at that precision and the reply says the saving against the plan before, or, when the plan already ran
that many bits, that it did and what it saves against 16-bit weights (assistant/precision_saving.py)."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab


def read_saving(m: Message, u: Understanding) -> None:
    if "precision" not in u.updates or u.intents & {"reset", "help", "empty"}:
        return
    words = vocab()["saving_asked"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if re.search(words["en"], typed) or re.search(words["zh"], typed):
        u.ask = {**u.ask, "saving": True}
