"""'why not deepspeed', '为什么不用deepspeed' after a fine-tuning plan: a question about that framework for this
run (intent framework_why, the framework in u.ask), not a switch to it, as 'why not llama.cpp' is a question
about an engine (reading/followups.py). The words are followups.yaml's engine_why; the reply is
assistant/framework_why.py's."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import pattern_rows, vocab

# Intents the question replaces ('why' reads as a request for the math, 'why not X' as a what-if).
REPLACED = {"math", "why", "why_not", "whatif", "explain"}


def read_framework_why(m: Message, u: Understanding) -> None:
    framework = u.updates.get("framework") or next(  # '干嘛不用deepspeed': named, negated by the question itself
        (value for pattern, value in pattern_rows("frameworks") if pattern.search(m.masked)), None)
    if not framework or set(u.updates) - {"framework", "phase"} or u.compare_gpus or u.whatif_gpus:
        return
    words = vocab()["followups"]["engine_why"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (re.search(words["en"], m.text) or re.search(words["zh"], typed)):
        return
    u.intents = (u.intents - REPLACED) | {"framework_why"}
    u.ask = {**u.ask, "framework": framework}
    u.updates = {}
