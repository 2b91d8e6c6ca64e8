"""'How many users can it handle?', '那最多能撑多少人？': the most people generating at once the plan's cards hold
(intent `capacity`, answered by assistant/capacity.py with tools.capacity). A weight or KV-cache format said
with it ('用fp16') is the format the count is for; anything else to size makes it a sizing request.
The words: words/capacity.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.largest import read_largest
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

# Slots the question may carry: the format the count is asked for (and a phase its words suggest: "handle"
# reads as production, dropped).
OWN_SLOTS = {"precision", "kv_cache"}
# What the question may name to be asked of: the model and the cards ("Qwen3-30B-A3B 4张4090 能支持多少并发"), kept.
SUBJECT_SLOTS = {"model", "owned", "only", "context", "engine", "prompt_tokens", "region", "min_tokens_per_s",
                 "server_gpus"}


def read_capacity(m: Message, u: Understanding) -> None:
    if read_largest(m, u):
        return  # 'the biggest model my 3090 fine-tunes', '24G显存最大能跑多大的模型': the inverse question (reading/largest.py)
    if u.intents & {"reset", "help", "empty"} or u.choice is not None \
            or set(u.updates) - OWN_SLOTS - SUBJECT_SLOTS - {"phase"} - m.weak or u.ask.get("budget_rate"):
        return  # (what a budget sustains, '这个预算最多能撑多少并发': reading/scale_out.py)
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (word_pattern("capacity_question.en").search(m.masked) or word_pattern("capacity_question.zh").search(typed)):
        return
    u.intents = (u.intents - {"whatif", "math", "why", "explain", "concept", "not_sure", "fit_check"}) | {"capacity"}
    u.ask = {**u.ask, **{k: v for k, v in u.updates.items() if k in OWN_SLOTS}}
    kept = {k: v for k, v in u.updates.items() if k in SUBJECT_SLOTS}
    named = sorted({g for _s, _e, g, _n in m.gpus})
    if m.gpus and not kept.get("owned") and (not kept.get("only") or sorted(kept["only"]) == named):
        # the cards it is asked of, with their count ('on 4090s, 4 cards, how many users?': 'how many' asks users)
        kept["only"] = [f"{n}x {g}" for _s, _e, g, n in m.gpus]
    u.updates = {**kept, **({"phase": "serve"} if kept.get("model") else {})}
    u.compare_gpus, u.whatif_gpus = [], None
    u.topic, u.aside = None, None
