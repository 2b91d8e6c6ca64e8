"""A MoE model and a dense one named in a concept question ('does moe need less vram than dense?? like mixtral 8x7b vs
llama 2 70b, which is cheaper to host', 'MoE 比稠密模型省显存吗，比如 Mixtral 8x7B 和 Llama 2 70B'): the two compared with
the tools' figures under the glossary entry (assistant/moe_pair.py), u.ask["moe_pair"] = {"moe": id, "dense": id}."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_model

TOPICS = {"moe", "vram"}


def read_moe_pair(m: Message, u: Understanding) -> None:
    named = list(dict.fromkeys(model_id for _s, _e, model_id in m.names))
    moe = next((x for x in named if find_model(x).num_experts), None)
    dense = next((x for x in named if not find_model(x).num_experts and not find_model(x).encoder), None)
    if not (moe and dense):
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not word_pattern("moe_pair.moe").search(typed):
        return  # 'qwen3-32b or qwen3-30b-a3b for serving, which uses less memory?': two models weighed, no concept
    if set(u.updates) - {"model", "phase", "precision"} or u.intents & {"reset", "help", "empty"}:
        return  # a job to size beside it ('… each handle on one H20, 8k context'): the sizing answers
    if u.topic and TOPICS & set(u.topic.split("+")):
        u.ask["moe_pair"] = {"moe": moe, "dense": dense}
        u.topic = "moe"  # 'MoE 为啥显存占用大…': the MoE entry explains it; no generic VRAM paragraph beside the pair
        return
    if u.topic or not word_pattern("moe_pair.memory").search(typed):
        return
    u.topic, u.aside = "moe", None  # 'is moe lighter on vram? llama 2 70b vs mixtral 8x7b': the concept, both compared
    u.intents = (u.intents - {"math", "fit_check", "whatif", "compare_models"}) | {"explain"}
    u.updates, u.problems, u.unknown_model = {}, [], None
    u.ask["moe_pair"] = {"moe": moe, "dense": dense}
