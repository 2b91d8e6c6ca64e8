"""'为啥不能，7B 不是才 14G 吗', "why not? isn't a 7B only 14GB", "why can't it fit": doubt that the plan on screen
needs the memory it says (words/memory_doubt.yaml). One WHY question about the plan: the reply is the memory
breakdown (writers.write_why: weights, gradients, optimizer states, activations), never a new model ('7B' is the
model already planned) nor the formulas, and the message is not split into two questions (assistant/parts.py)."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

# What a doubt may carry besides: the model it names again ('7B'), read as the plan's own.
RESTATED = {"model"}


def memory_doubt(text: str) -> bool:
    typed = unicodedata.normalize("NFKC", text).lower()
    words = vocab()["memory_doubt"]
    return bool(re.search(words["en"], typed) or re.search(words["zh"], typed))


def read_memory_doubt(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"} or not memory_doubt(m.raw):
        return
    if set(u.updates) - RESTATED or m.gpus:
        return  # 'isn't 7B only 14GB on a 4090?' names a card: a change to size, not a doubt about the plan
    u.updates = {}
    u.intents = (u.intents - {"whatif", "why_not"}) | {"why", "math"}  # routed as "why so much memory?"
    u.ask = {**u.ask, "memory_doubt": True}
