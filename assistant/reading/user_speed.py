"""Why each user's tokens/s drops as more users share the server ('eli5 why does my tokens/s per user drop when
more users hit vllm?', '为什么并发一多每个用户的速度就掉', '人多了单用户 token/s 下降'): a concept question, answered by
the glossary's per-user-speed entry (one token per request per step; the step grows with every user's KV cache and
multiply-adds; the total still rises until the card is compute-bound). Alone, or with only an engine, a model or the
phase as its example, it is the reply; beside a sizing ('... and is speculative decoding with X worth it for 70b on 2x
a6000?') it is an aside and the sizing is answered too. Words in words/user_speed.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

TOPIC = "per-user-speed"
# Values such a question may carry as its example ('when more users hit vllm'): anything else is a sizing.
EXAMPLE_SLOTS = {"engine", "engine_app", "phase", "model", "precision"}
# Intents the concept replaces (the engines' product lines, a what-if, a why of a plan).
REPLACED = {"engine_choice", "whatif", "math", "why", "why_not", "not_sure", "compare_cards", "weigh", "slow"}
SENTENCE = re.compile(r"[^.?!。？！\n]+")


def _said(sentence: str, words: dict[str, str], why: bool) -> bool:
    return all(re.search(words[k], sentence) for k in ("own", "fall", "more")) and (
        not why or bool(re.search(words["why"], sentence)))


def asked(m: Message) -> bool:
    words = vocab()["user_speed"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    return any(_said(s, words["en"], True) for s in SENTENCE.findall(m.text)) \
        or any(_said(s, words["zh"], False) for s in SENTENCE.findall(typed))


def read_user_speed(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"} or u.topic == TOPIC or not asked(m):
        return
    own = {"users"} if u.updates.get("users") == 1 else set()  # '每个用户的速度': the one user the question speaks of
    if set(u.updates) <= EXAMPLE_SLOTS | own and not m.gpus and not u.second:
        u.intents = (u.intents - REPLACED) | {"concept", "explain"}
        u.topic, u.aside = TOPIC, None
        u.also = None
        u.engines, u.compare_gpus, u.whatif_gpus = [], [], None
        u.updates, u.problems, u.unknown_model = {}, [], None
        return
    u.aside = "+".join(dict.fromkeys([TOPIC, *(u.aside.split("+") if u.aside else [])]))
    u.also = None if u.also == "engine_choice" else u.also  # 'when more users hit vllm': the engine is the example
    u.intents -= {"engine_choice", "why"}
