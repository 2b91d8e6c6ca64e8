"""'HBM3 vs GDDR7, what's the difference for llm inference', 'HBM和GDDR有什么区别': the two kinds of GPU memory
compared (intent memory_types, the kinds in u.ask["memory_types"]), answered from the catalog's cards of each kind
(assistant/memory_types.py), not the glossary's bandwidth paragraph. Read when both kinds are named with a
comparison cue and nothing else is asked to be sized. Words in words/memory_types.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

# Values such a question may carry beside it ('for llm inference' reads as serving): anything else is a sizing.
EXAMPLE_SLOTS = {"phase", "precision", "engine"}
# Intents the comparison replaces (the glossary's entry, a why, a what-if).
REPLACED = {"concept", "explain", "why", "math", "whatif", "quality"}


def read_memory_types(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty", "weigh", "moe_memory"} or m.gpus or set(u.updates) - EXAMPLE_SLOTS:
        return
    words = vocab()["memory_types"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    kinds = [kind for kind, pattern in words["kinds"].items() if re.search(pattern, typed)]
    if len(kinds) < 2 or not (re.search(words["cue"]["en"], typed) or re.search(words["cue"]["zh"], typed)):
        return
    u.intents = (u.intents - REPLACED) | {"memory_types"}
    u.topic, u.aside = None, None
    u.ask = {**u.ask, "memory_types": kinds}
    u.updates, u.problems = {}, []
