"""An engine question that names a card family but no card ('昇腾上用啥推理框架啊，vllm能跑吗？mindie咋样', 'on ascend,
which engine?'): the engines are weighed on the family's usual card (the Ascend 910B), so the reply says how each runs
there (vLLM through its vllm-ascend plugin, MindIE) and never suggests an engine that does not run there
(TensorRT-LLM). The words: words/engine_family.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

FAMILY_CARDS = {"ascend": "ascend-910b"}


def read_engine_family(m: Message, u: Understanding) -> None:
    if "engine_choice" not in u.intents or u.cards or m.gpus:
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    for family, card in FAMILY_CARDS.items():
        if word_pattern(f"engine_family.{family}").search(typed):
            u.cards = [card]
            return
