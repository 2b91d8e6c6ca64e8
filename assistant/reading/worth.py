"""A trade-off asked about one technique with nothing to size ("is fp8 kv cache actually worth it for serving or does it
tank quality? just curious how it works", "does awq hurt accuracy", "fp8 kv cache值得开吗？会掉点吗", "开投机解码划算吗"):
the question is a concept's, answered with a verdict (assistant/worth.py: what it saves, what it costs in quality, when
it is worth it, how to turn it on) and the glossary entry that says how it works. No slot is filled from it and no
sizing question follows it (intent no_sizing).

Heard when words/worth.yaml worth_asked matches, a technique of knowledge/data/trade_offs.yaml is named, and the message
names no model, card or load: its values are only those the technique's own words fill (worth_slots). Two techniques
weighed against each other, two glossary concepts ('LoRA or QLoRA: what's the trade-off?': both entries) or two
methods ('qlora vs lora, how much memory': assistant/method_compare.py sizes both on an example model with its verdict)
are other readers' questions."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern

# Readers whose answer already weighs the technique against its alternative with figures: left to them.
WEIGHED = {"method_compare", "precision_compare", "moe_memory", "best_gpu", "reset", "injection"}


def _typed(m: Message) -> str:
    return unicodedata.normalize("NFKC", m.raw).lower()


def asked(m: Message) -> bool:
    """Whether the message asks whether something is worth it or what it costs in quality."""
    return bool(word_pattern("worth_asked.en").search(m.text) or word_pattern("worth_asked.zh").search(_typed(m)))


def technique(m: Message) -> str | None:
    """The one technique the message names (trade_offs.yaml id), or None when it names none or several."""
    from gpu_advisor.knowledge.trade_offs import trade_off_spans

    # the cleaned text has the typos put right ('cahce'), the typed one the Chinese as written ('KV缓存用FP8', which
    # the cleaning rewrites to 'kv 缓存 use fp8'): the one whose longest mention is longer names the technique whole
    read = max((trade_off_spans(m.text), trade_off_spans(_typed(m))),
               key=lambda spans: max((e - s for s, e, _t in spans), default=0))
    found = list(dict.fromkeys(tid for _s, _e, tid in read))
    return found[0] if len(found) == 1 else None


def _names_the_technique(m: Message, name: str) -> bool:
    """Whether a name the model reader did not know is the technique's own words ('KV-cache' in 'FP8 KV-cache')."""
    from gpu_advisor.knowledge.trade_offs import trade_off_spans

    at = m.text.find(name.lower())
    return at >= 0 and any(s <= at and at + len(name) <= e for s, e, _t in trade_off_spans(m.text))


def _other_concept(m: Message) -> bool:
    """Whether a glossary concept is named beside the technique's own words ('LoRA or QLoRA: what's the trade-off?':
    LoRA; 'kv cache quantization' names none beyond itself): then two concepts are weighed, both entries answer."""
    from gpu_advisor import knowledge
    from gpu_advisor.knowledge.trade_offs import trade_off_spans

    typed = _typed(m)
    rest = typed
    for s, e, _t in sorted(trade_off_spans(typed), reverse=True):
        rest = rest[:s] + " " + rest[e:]
    try:
        return bool(set(knowledge.find_topics(rest)) - {"best-gpu"})
    except Exception:  # noqa: BLE001 - a glossary that cannot be read names no concept
        return False


def read_worth(m: Message, u: Understanding) -> None:
    if u.intents & WEIGHED or u.choice is not None or len(u.ask.get("precisions") or []) > 1:
        return
    if m.names or m.gpus or u.unknown_card or u.compare_gpus or u.whatif_gpus or u.second:
        return
    if u.unknown_model and not _names_the_technique(m, u.unknown_model):
        return  # an unknown model said beside it ('is awq worth it for my-finetune-13b?'): a plan to size
    if set(u.updates) - set(vocab()["worth_slots"]) or not asked(m):
        return
    tid = technique(m)
    if tid is None or _other_concept(m):
        return
    from gpu_advisor.knowledge.trade_offs import trade_offs

    u.topic = trade_offs()[tid].topic
    u.ask = {"worth": tid}
    u.intents = {"explain", "concept", "no_sizing"}
    u.updates, u.problems, u.notes, u.scale = {}, [], [], {}
    u.aside = u.also = u.subject = None
