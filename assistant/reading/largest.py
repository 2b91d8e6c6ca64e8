"""The inverse question: the biggest model the user's card(s) hold, or which models run on them ('whats the
biggest model i can finetune with lora and qlora on a 3090', 'largest model i can run on 2x 4090 at q4',
'24G显存最大能跑多大的模型', 'macbook air m3 16g 能跑啥模型啊'): intent `largest`, answered by assistant/largest.py
with tools.largest, never with a default model sized in its place. A budget said with it is the biggest model
for the money (reading/asked_more.py). The words: words/largest.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

# Intents the question replaces: no fit check of a model, no concept alone (`weigh` stays: the route answers `largest` first).
REPLACED = {"fit_check", "not_sure", "concept", "explain", "whatif", "why", "math", "method_compare",
            "capacity", "best_gpu"}
TRAIN_PHASES = ("fine-tune", "train-and-serve")


def _memory(typed: str) -> int | None:
    for key in ("largest_memory.en", "largest_memory.zh"):
        x = word_pattern(key).search(typed)
        if x:
            return int(next(g for g in x.groups() if g))
    return None


def read_largest(m: Message, u: Understanding) -> bool:
    """Whether the message asks the inverse question; when it does, intent `largest` and u.ask['largest']."""
    if u.intents & {"reset", "help", "empty", "this_machine"} or u.choice is not None \
            or u.updates.get("budget_usd") or u.updates.get("budget_usd_per_month"):
        return False
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (word_pattern("largest_question.en").search(typed) or word_pattern("largest_question.zh").search(typed)) \
            or word_pattern("largest_money").search(typed):
        return False
    memory = None if m.gpus else _memory(typed)
    if not m.gpus and memory is None and (m.names or u.updates.get("model") or m.unknown
                                          or word_pattern("largest_about_models").search(typed)):
        return False  # 'the biggest model size of the qwen3 family', no card: a question about the models
    methods = [k for k in ("lora", "qlora", "full") if word_pattern(f"largest_methods.{k}").search(typed)]
    each = bool(word_pattern("largest_each.en").search(typed) or word_pattern("largest_each.zh").search(typed))
    u.intents = (u.intents - REPLACED) | {"largest"}
    u.ask = {k: v for k, v in u.ask.items() if k not in ("biggest_model", "methods_weighed", "hypothetical")}
    u.ask["largest"] = {"methods": methods, "each": each, "memory_gb": memory,
                        "trains": bool(methods) or u.updates.get("phase") in TRAIN_PHASES}
    u.updates.pop("model", None)  # a model named with it is an example of the size asked, not the job
    if m.gpus and not u.updates.get("owned") and not u.updates.get("only"):
        u.updates["only"] = [f"{n}x {g}" for _s, _e, g, n in m.gpus][:1]  # 'on an a100 80gb': the card asked of
    u.compare_gpus, u.whatif_gpus, u.topic, u.aside = [], None, None, None
    return True
