"""A question about why a mixture-of-experts model needs memory for all its parameters while only a few
are active per token ("为啥deepseek v3只激活37b 但要把671b全放进显存", "why does R1 run like a 37B model but
need 671B of memory?"): the `moe_memory` question, with the model it is about (a catalog id, or the total
and active sizes said as a spec '671B-A37B'). Words in words/moe.yaml."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab
from gpu_advisor.knowledge import find_model

# Values such a question names as its example; any other (users, context, cards) makes it a sizing request.
EXAMPLE_SLOTS = {"model", "phase", "precision", "engine", "engine_app"}
# Glossary topics this question answers better, with the model's own figures.
OWN_TOPICS = {"moe", "vram"}
# The card the example is sized on ('那 qwen3-30b-a3b 用一张 4090 跑大概多快'): kept, and the speed given on it.
CARD_SLOTS = {"owned", "only"}
# Read from the question's own words and meant for no job: 'memory for all params' is no full fine-tuning.
MISREAD = {"method"}


def _model(m: Message, u: Understanding) -> str | None:
    """The MoE model asked about: the first named one with experts, else the size spec read ('671B-A37B')."""
    for _s, _e, model_id in m.names:
        if find_model(model_id).num_experts:
            return model_id
    spec = str(u.updates.get("model") or "")
    return spec if re.fullmatch(r"\d+(?:\.\d+)?B-A\d+(?:\.\d+)?B", spec) else None


def _card(m: Message, u: Understanding) -> list[Any] | None:
    """The card said, as [gpu id, count (0: none said), owned], from the owned or only slot ('1x rtx-4090'), else
    as the message names it ('8张H200')."""
    from gpu_advisor.assistant.reading.prices import cards_named

    for slot in ("owned", "only"):
        for said in u.updates.get(slot) or []:
            count, _x, gpu_id = str(said).rpartition("x ")
            return [gpu_id or str(said), int(count) if count.isdigit() else 0, slot == "owned"]
    return next(([gpu_id, n if n > 1 else 0, False] for gpu_id, n in cards_named(m)), None)


def _weighed(m: Message, u: Understanding) -> None:
    """Two models weighed beside the concept ('为啥moe…显存还是要那么多？A和B哪个更省显存'), which the concept reader took
    first: the models and the dimensions asked kept for the comparison (assistant/moe_compare.py)."""
    from gpu_advisor.assistant.reading.choice_dims import dims_asked

    named = list(dict.fromkeys(model_id for _s, _e, model_id in m.names))
    dims = dims_asked(m)
    if len(named) >= 2 and dims and not u.ask.get("models"):
        u.ask = {**u.ask, "models": named[:2], "dims": dims}


def read_moe_question(m: Message, u: Understanding) -> None:
    if u.intents & {"weigh", "reset", "help"} or set(u.updates) - EXAMPLE_SLOTS - CARD_SLOTS - MISREAD:
        return
    card = _card(m, u)
    if m.gpus and card is None:
        return  # a card said but read as no card of the user's: the sizing's
    if u.topic and not set(u.topic.split("+")) <= OWN_TOPICS:
        return  # "...为啥显存按671B算？EP和TP有啥区别": the parallelism entries answer it, the model their example
    words = vocab()["moe_question"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (re.search(words["active"], typed) and re.search(words["ask"], typed)
            and (re.search(words["memory"], typed) or re.search(words["speed"], typed))):
        return
    model = _model(m, u)
    if model is None:
        return
    _weighed(m, u)
    u.intents = (u.intents - {"math", "why", "whatif", "explain", "concept", "quality", "engine_choice"}) | {"moe_memory"}
    u.topic, u.also, u.aside = None, None, None
    u.ask = {**u.ask, "moe": model, **({"moe_card": card} if card else {})}
    kept = {k: u.updates[k] for k in CARD_SLOTS if k in u.updates}  # the card said stays the user's
    weighed = len(set(u.ask.get("models") or [])) >= 2 and u.ask.get("dims")  # '哪个更省显存？还有为啥…': no pick yet
    u.updates = {**kept, **({"model": model} if not model[0].isdigit() and not weighed else {})}  # the example kept
    u.problems = []
