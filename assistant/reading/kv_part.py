"""A question in parts where one part asks the KV cache at its own context and another asks something else ('two
things: 1) how big is the kv cache for llama 3.1 8b at the full 128k context, per request? 2) how many concurrent
users at 32k context can I fit on a single A100 80gb'): read whole, the last context said won and the KV part was
dropped. Now u.ask['kv_part'] = {model, context} of that part, answered first (assistant/kv_part.py). The words are
in words/kv_part.yaml and words/followups.yaml (what asks the KV cache)."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern

KV_ASKED = ("model", "context", "users", "precision", "hold_on", "kv_bits")  # what the KV follow-up took in ask


def _asks_kv(part: str) -> bool:
    kv = vocab()["followups"]["kv_cache"]
    return any(re.search(kv["subject"][lang], part) and re.search(kv["cue"][lang], part) for lang in ("en", "zh"))


def read_kv_part(m: Message, u: Understanding) -> None:
    """u.ask['kv_part'] when one part of several asks the KV cache at a context of its own."""
    from gpu_advisor.assistant.reading import understand

    if u.topic or not m.raw.strip():
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    parts = [p for p in word_pattern("kv_part.cut").split(typed) if p and p.strip(" ,.，。:：")]
    kv = [p for p in parts if _asks_kv(p)]
    if len(kv) != 1 or len(parts) < 2 or not any(p for p in parts if p not in kv and re.search(r"[a-z\u4e00-\u9fff]{3}", p)):
        return
    part = understand(kv[0], None, whole=False)
    said = {**part.updates, **part.ask}  # asked alone, the KV follow-up holds its model and context in ask
    model = said.get("model") or u.updates.get("model")
    context = said.get("context")
    if not model or not context:
        return
    if "kv_cache" in u.intents:  # read whole as the KV question: the other part asks how many users fit, or cards
        other = understand(" ".join(p for p in parts if p not in kv), None, whole=False)
        if "kv_cache" in other.intents or not ("capacity" in other.intents or other.updates.get("users")) \
                or other.updates.get("context") in (None, context):
            return  # '… at 128k? like if 10 people each had one, doable on 8 h100s': the KV answer holds it all
        u.intents = set(other.intents)
        u.updates = {"model": model, "phase": "serve", **other.updates}
        u.ask = {k: v for k, v in u.ask.items() if k not in KV_ASKED} | other.ask
    u.ask = {**u.ask, "kv_part": {"model": model, "context": int(context)}}
