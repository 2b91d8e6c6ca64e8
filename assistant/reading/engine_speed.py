"""Why a serving engine is faster than another way of running the same model ("why is vllm so much faster than
transformers?", "为什么同样的模型用vllm比用transformers快这么多？原理是啥"): a concept question, answered by the
glossary's engine-speed entry (continuous batching, PagedAttention, CUDA graphs and fused kernels, prefix caching),
not by the engines' product lines (the engine_choice reply). Heard when an engine is named with a why-faster cue and
nothing else to size is said. Words in words/engine_speed.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

TOPIC = "engine-speed"
# Values such a question may carry as its example ('the same 8b model'): anything else is a sizing.
EXAMPLE_SLOTS = {"engine", "engine_app", "phase", "model", "precision", "framework"}
# Intents the concept replaces (the engines' product lines, a what-if, a why of a plan).
REPLACED = {"engine_choice", "whatif", "math", "why", "why_not", "not_sure", "quality", "compare_cards"}


def read_engine_speed(m: Message, u: Understanding) -> None:
    if not m.engines or u.intents & {"reset", "help", "empty"} or m.gpus or set(u.updates) - EXAMPLE_SLOTS:
        return
    words = vocab()["engine_speed"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (re.search(words["en"], m.text) or re.search(words["zh"], typed)):
        return
    u.intents = (u.intents - REPLACED) | {"concept", "explain"}
    u.topic, u.aside = TOPIC, None
    u.also = None if u.also == "engine_choice" else u.also
    u.engines = []
    u.updates, u.problems, u.unknown_model = {}, [], None
