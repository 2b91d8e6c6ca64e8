"""One user's generation speed on the user's own card, said to be slow or asked whether it is normal ("why does my
H100 generate tokens slower than expected when batch size is 1? its like 40 tok/s on a 8b model in fp16", "my 4090
only gets 20 tok/s on llama 3.1 8b, is that normal?", "为什么我的4090跑得慢，只有20 token/s"): a diagnosis (intent
slow_decode, what was said in u.ask["slow_decode"]), answered by assistant/slow_decode.py with the card's decode
ceiling (tools.decode_ceiling), the measured speed against it and the likely causes; never a sizing intake.

Heard when one kind of card is named, the speed is the user's own (a card said as theirs, or a measured figure) and
said to be low, and nothing else to size is said (no users, rate, budget); a speed wanted ('we need at least 40 tok/s
per user') is a requirement to size for, not a complaint. Words in words/slow_decode.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

# Values such a question carries about itself: the card, the model, its format and engine, the speed seen.
OWN_SLOTS = {"owned", "only", "model", "precision", "min_tokens_per_s", "phase", "engine", "engine_app", "context",
             "personal", "framework", "batch_items", "preference"}
# Intents the diagnosis replaces (a what-if on the card named, a request for the math, a why of a plan).
REPLACED = {"whatif", "math", "why", "why_not", "explain", "concept", "not_sure", "fit_check", "best_gpu"}


def _hit(words: dict[str, str], m: Message, typed: str) -> bool:
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], typed))


def read_slow_decode(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"} or u.ask.get("slow") or u.choice is not None:
        return  # ('users are complaining its slow' on their box: reading/owned_slow.py weighs the options)
    cards = list(dict.fromkeys(g for _s, _e, g, _n in m.gpus))
    said_off = set(u.updates.get("exclude") or []) <= set(cards)  # 'my 3090 feels slow' is no card ruled out
    if len(cards) != 1 or set(u.updates) - OWN_SLOTS - ({"exclude"} if said_off else set()) or u.unknown_model:
        return
    words = vocab()["slow_decode"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    measured = u.updates.get("min_tokens_per_s")
    if not _hit(words["complaint"], m, typed) or _hit(words["target"], m, typed) or _hit(words["plan"], m, typed):
        return  # ('we need at least 40 tok/s', 'what should I buy?': a sizing)
    if not (u.updates.get("owned") or (measured and _hit(words["measured"], m, typed))):
        return
    if not measured and not m.names and u.updates.get("model"):  # 'my 4090 is slow on 14b models': a size, no speed
        return
    count = next((n for _s, _e, g, n in m.gpus if g == cards[0] and n), 1)
    u.ask = {**u.ask, "slow_decode": {
        "gpu": cards[0], "gpus": count, **({"model": u.updates["model"]} if u.updates.get("model") else {}),
        **({"precision": u.updates["precision"]} if u.updates.get("precision") else {}),
        **({"measured": float(measured)} if measured else {}),
        **({"engine": u.updates["engine"]} if u.updates.get("engine") else {})}}
    u.intents = (u.intents - REPLACED) | {"slow_decode"}
    u.topic, u.aside, u.compare_gpus, u.whatif_gpus = None, None, [], None
    u.updates, u.problems = {}, []
