"""A variant of the current model named relative to it ('what if we use the air version instead', 'the coder one',
'换成air版', 'a smaller one', '用小一点的那个'): u.ask["variant"] holds the word said or the direction ('smaller',
'larger'); the engine finds the catalog model from the current one (knowledge.model_variants). Grammar only: the
frames and the words that name no variant are in words/variant_said.yaml."""

from __future__ import annotations

import re
from functools import cache

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab


@cache
def _families() -> frozenset[str]:
    """The catalog's model families and the first word of each model's name, lower case ('gemma', 'qwen', 'llama')."""
    from gpu_advisor.knowledge import models

    return frozenset({str(x.family).lower() for x in models()} | {x.name.split()[0].lower() for x in models()})


def read_variant_said(m: Message, u: Understanding) -> None:
    """A variant asked for with no model named: the word ('air') or the direction ('smaller'), or the same
    model under another name ('instruct')."""
    if "model" in u.updates or u.unknown_model or m.names or u.ask.get("distill"):
        return
    words = vocab()["variant_said"]
    for direction in ("smaller", "larger"):
        if re.search(words[direction], m.masked):
            u.ask["variant"] = {"size": direction}
            return
    for frame in ("en", "zh"):
        for x in re.finditer(words[frame], m.masked):
            word = x.group("word")
            if word in words["not_words"] or word in _families():
                continue  # 'the gemma one', 'the qwen one': a family said earlier (reading.families), no variant
            u.ask["variant"] = {"same": word} if word in words["same"] else {"word": word}
            return
