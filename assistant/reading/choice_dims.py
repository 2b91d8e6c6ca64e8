"""What a choice between models asks about ('gemma 3 27b和qwen3-30b-a3b，哪个在我的4090上跑得快',
'Qwen3-30B-A3B和Qwen3-32B哪个推理更省显存？速度哪个快', 'which is cheaper to serve'): u.ask["dims"], the dimensions
asked in the order written (speed, memory, cost). The writers (assistant/model_choice.py, assistant/weigh.py) give
a verdict on each, with its figures, instead of one on cost only. The words: words/choice.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import pattern_rows


def dims_asked(m: Message) -> list[str]:
    """The dimensions the message asks a choice on, each once, in the order written."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    hits = sorted((x.start(), dim) for pattern, dim in pattern_rows("choice_dims") for x in pattern.finditer(typed))
    return list(dict.fromkeys(str(dim) for _s, dim in hits))


def read_choice_dims(m: Message, u: Understanding) -> None:
    if not (u.ask.get("models") or len((u.ask.get("weigh") or {}).get("models") or []) >= 2):
        return
    dims = dims_asked(m)
    if dims:
        u.ask["dims"] = dims
