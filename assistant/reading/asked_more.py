"""Questions asked beside a sizing that the plan alone does not answer, as u.ask codes (assistant/asked_more.py
answers them under the plan with its tools' figures). The words: words/asked_more.yaml.

- u.ask["biggest_model"]: 'if not, what's the biggest model we can serve for that money at the same load',
  '如果不行，这笔钱同样负载下最大能跑多大的模型' (tools.biggest)."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_asked_more(m: Message, u: Understanding) -> None:
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if word_pattern("asked_more.biggest").search(typed) or word_pattern("asked_more.biggest_zh").search(typed):
        u.ask["biggest_model"] = True
