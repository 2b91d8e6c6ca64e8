"""The command that starts the plan on screen asked for: "how do I start it?", "give me the vllm command",
"what's the launch command", "怎么启动", "启动命令是什么", "给我sglang的启动命令"; a Kubernetes manifest of it ("k8s
yaml", "kubernetes部署文件") in `u.ask["launch_k8s"]`. An intent code ("launch") with the
engine named in `u.ask["launch_engine"]`; the words are assistant/reading/words/launch.yaml's, the reply
assistant/launch_reply.py's. A message that gives something else to size ("how do I run llama 70b on two 4090s")
stays a sizing request: only an engine may be named beside the question, and it picks the command, it changes
nothing of the plan."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

# Slots an engine named beside the question fills: the command's engine, not a change to the plan
ENGINE_SLOTS = {"engine", "engine_app"}


def _typed(m: Message) -> str:
    return unicodedata.normalize("NFKC", m.raw).lower()


def asked(m: Message) -> bool:
    words = vocab()["launch"]
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], _typed(m))) or manifest_asked(m)


def manifest_asked(m: Message) -> bool:
    """A Kubernetes manifest of the plan asked for ('k8s yaml', 'kubernetes部署文件')."""
    words = vocab()["launch"]["k8s"]
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], _typed(m)))


def engine_asked(m: Message) -> str | None:
    """The engine named in the question ('give me the sglang command'), a tools.launch engine id."""
    typed = _typed(m)
    return next((engine for pattern, engine in vocab()["launch"]["engines"] if re.search(pattern, typed)), None)


def _said_with_it(u: Understanding) -> set[str]:
    """Slots the question's own words fill that change nothing of a serving plan: the engine named (and the file
    format it implies: 'llama.cpp' reads as a GGUF file), 'deploy' read as serving ('部署命令')."""
    said = set(ENGINE_SLOTS)
    if "engine" in u.updates:
        said.add("precision")
    if u.updates.get("phase") == "serve":
        said.add("phase")
    return said


def read_launch(m: Message, u: Understanding) -> bool:
    """The launch intent, with the engine asked for in u.ask; what the engine's name filled is dropped. Called
    first by reading.followups.read_followup; True when the message asks for the command."""
    from gpu_advisor.assistant.reading.followups import DROPPED  # (followups calls this reader)

    if u.intents & {"reset", "help", "empty"} or u.choice is not None or not asked(m):
        return False
    if set(u.updates) - m.weak - _said_with_it(u) or u.compare_gpus or u.whatif_gpus:
        return False  # something to size beside it: a sizing request
    engine = engine_asked(m)
    u.topic, u.aside, u.also = None, None, None
    u.intents = (u.intents - DROPPED - {"total_cost", "engine_choice"}) | {"launch"}
    u.ask = {k: v for k, v in u.ask.items() if k != "home_buy"} | {"launch": True}
    if engine:
        u.ask["launch_engine"] = engine
    if manifest_asked(m):
        u.ask["launch_k8s"] = True
    u.updates, u.scale, u.notes, u.problems, u.engines = {}, {}, [], [], []
    return True
