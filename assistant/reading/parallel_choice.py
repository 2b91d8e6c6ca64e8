"""Tensor against pipeline parallelism asked of a model ("TP or PP for 70B across 2 nodes?", "Llama 3.1 405B
两台8卡H100，TP还是PP？"): the model (or size), the servers and cards per server said, and the card, for
assistant/parallel_choice.py to answer with a verdict from the sizing tools instead of the glossary alone."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.model import read_model
from gpu_advisor.assistant.reading.model_switch import read_second_asks
from gpu_advisor.assistant.reading.text import vocab


def _count(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    if not found:
        return 0
    return int(next(v for k, v in found.groupdict().items() if k.startswith("n") and v))


def _moe(model: str) -> bool:
    """Whether the model routes experts ("DeepSeek-R1"): its layout is the plan's (expert parallel), not this verdict."""
    from gpu_advisor.knowledge import find_model

    try:
        return find_model(model).is_moe
    except (LookupError, ValueError):
        return False


def read_parallel_choice(m: Message, u: Understanding) -> None:
    read_second_asks(m, u)  # 'if we later switch to R1, same hardware?', 'serve it on the same box' (h-second3)
    words = vocab()["parallel_choice"]
    text = m.text
    named = re.search(words["tp"], text) and re.search(words["pp"], text) and re.search(words["choice"], text)
    layout = re.search(words["layout"], text)  # "how should I split it across two nodes", "怎么切"
    if not (named or layout):
        return
    if not named and re.search(words["serve_job"], text) and re.search(words["train_job"], text):
        return  # 'serve one model, fine-tune another: how to split?': the cards split between the jobs (owned split)
    if not named and re.search(words["rl_job"], text):
        return  # 'GRPO … how should i split training vs rollout gpus': the RL plan's colocated-or-split answer
    model = read_model(m)
    if not model:
        return  # "张量并行和流水线并行选哪个": the concepts, no model to size
    gpu, count = next(((g, c) for _s, _e, g, c in m.gpus), (None, 0))
    servers = _count(words["servers"], text)
    if not named and not (servers or u.updates.get("server_gpus") or _count(words["per_node"], text)):
        return  # "how should I split 70b": no machines said, the plan sizes it
    if re.search(words["job"], text) and gpu and (servers < 2 or _moe(model)):
        return  # "…to serve llama 3.3 70b on 4x L40S?": a job on cards said, sized as a plan with the concepts beside it
    per_node = int(u.updates.get("server_gpus") or 0) or _count(words["per_node"], text)
    fixed = 0
    if not servers and not per_node:  # "a 70b on 4 gpus", "4 × 3090": one box of that many cards
        fixed = count or _count(words["cards"], text)
        per_node = fixed
    u.ask["par_choice"] = {"model": model, "servers": servers, "per_node": per_node, "gpu": gpu, "fixed": fixed,
                           "explain": bool(re.search(words["concept"], text)), "precision": u.updates.get("precision")}
    u.intents = (u.intents - {"explain", "concept", "whatif", "math", "weigh", "why_not"}) | {"parallelism", "no_sizing"}
    u.topic, u.aside = None, None
    u.updates, u.problems, u.compare_gpus, u.whatif_gpus, u.notes = {}, [], [], None, []
