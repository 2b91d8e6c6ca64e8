"""A tensor-parallel size asked whether it works, or why the sizes are powers of two ('can vllm do tp=3 on three
3090s?', 'vllm多卡推理的时候tensor parallel为什么一般要2的幂？我手上有三张3090能用tp=3吗'): not a sizing request and not the
glossary alone. Heard when tensor parallelism is named with a size asked or a divisibility cue, and nothing else to
size (the cards owned or named, the model, its job and engine may come with it). Sets intent parallelism with
u.ask["tp_rule"], the size asked ("tp"), the card count and card ("cards", "gpu") and the model named ("model");
assistant/tp_divide.py answers. Words: words/tp_divide.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern

# Slots the question may carry: the cards owned or the count of them, the model, its job, engine and format.
OWN_SLOTS = {"owned", "gpus", "gpu", "model", "phase", "engine", "engine_app", "precision", "only", "users", "context"}
REPLACED = {"whatif", "why", "engine_choice", "concept", "explain", "math", "not_sure", "fit_check", "formats",
            "interconnect"}


def _hit(key: str, m: Message, typed: str) -> bool:
    words = vocab()["tp_divide"][key]
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], typed))


def read_tp_divide(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"} or u.choice is not None:
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not _hit("subject", m, typed):
        return
    degree = word_pattern("asks.parallelism.degree").search(typed)
    tp = int(degree.group(1)) if degree else None
    if set(u.updates) - OWN_SLOTS or u.compare_gpus or u.whatif_gpus:
        return
    cards, gpu = _cards(m, u)
    # a size asked that a power of two is not ('tp=3', 'tp 6'): whether it divides; 'can i just use tp 4?' and 'TP16 or
    # TP8+PP2 on 2 nodes of 8?' stay the plan's questions (reading/asks.py, assistant/asks._tp_check)
    odd = bool(tp and tp & (tp - 1))
    if not (_hit("why", m, typed) or (odd and _hit("asked", m, typed))):
        return
    for slot in ("users", "context"):  # 'tp=3': the degree, not 3 users
        if u.updates.get(slot) not in (None, tp):
            return
    model = u.updates.get("model")
    u.intents = (u.intents - REPLACED) | {"parallelism", "no_sizing"}
    u.ask = {"tp_rule": True, **({"tp": tp} if tp else {}), **({"cards": cards} if cards else {}),
             **({"gpu": gpu} if gpu else {}), **({"model": model} if isinstance(model, str) else {})}
    u.topic, u.aside, u.also = None, None, None
    u.updates = {k: v for k, v in u.updates.items() if k in ("owned", "model")}
    u.notes, u.problems = [], []


def _cards(m: Message, u: Understanding) -> tuple[int | None, str | None]:
    """The cards said: owned ('三张3090' -> 3x rtx-3090), else one card named with its count ('on three 3090s')."""
    owned = u.updates.get("owned")
    if isinstance(owned, list) and len(owned) == 1:
        said, _x, card = str(owned[0]).partition("x ")
        if said.isdigit():
            return int(said), card.strip()
    named = {(gpu, count) for _s, _e, gpu, count in m.gpus}
    if len(named) == 1:
        gpu, count = named.pop()
        return (count if count > 1 else None), gpu
    return None, None
