"""A question about why a mixture-of-experts model needs memory for all its parameters while only a few
are active per token ("为啥deepseek v3只激活37b 但要把671b全放进显存", "why does R1 run like a 37B model but
need 671B of memory?"): the `moe_memory` question, with the model it is about (a catalog id, or the total
and active sizes said as a spec '671B-A37B'). Words in words/moe.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab
from gpu_advisor.knowledge import find_model

# Values such a question names as its example; any other (users, context, cards) makes it a sizing request.
EXAMPLE_SLOTS = {"model", "phase", "precision", "engine", "engine_app"}
# Glossary topics this question answers better, with the model's own figures.
OWN_TOPICS = {"moe", "vram"}


def _model(m: Message, u: Understanding) -> str | None:
    """The MoE model asked about: the first named one with experts, else the size spec read ('671B-A37B')."""
    for _s, _e, model_id in m.names:
        if find_model(model_id).num_experts:
            return model_id
    spec = str(u.updates.get("model") or "")
    return spec if re.fullmatch(r"\d+(?:\.\d+)?B-A\d+(?:\.\d+)?B", spec) else None


def read_moe_question(m: Message, u: Understanding) -> None:
    if u.intents & {"weigh", "reset", "help"} or m.gpus or set(u.updates) - EXAMPLE_SLOTS:
        return
    if u.topic and u.topic not in OWN_TOPICS:
        return  # "...为啥显存按671B算？EP和TP有啥区别": the parallelism entries answer it, the model their example
    words = vocab()["moe_question"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (re.search(words["active"], typed) and re.search(words["ask"], typed)
            and (re.search(words["memory"], typed) or re.search(words["speed"], typed))):
        return
    model = _model(m, u)
    if model is None:
        return
    u.intents = (u.intents - {"math", "why", "whatif", "explain", "concept", "quality", "engine_choice"}) | {"moe_memory"}
    u.topic, u.also, u.aside = None, None, None
    u.ask = {**u.ask, "moe": model}
    u.updates = {"model": model} if not model[0].isdigit() else {}  # the example kept for a sizing after it
    u.problems = []
