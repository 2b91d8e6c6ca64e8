"""Whether inference needs NVLink, asked with no job to size ('whats the difference between nvlink and pcie for
inference, do i actually need it', 'nvlink和pcie推理有啥区别，我真的需要nvlink吗'): not the glossary alone, which explains
the link and never answers the need. Heard when the glossary reader took the message for the NVLink entry (topic
nvlink, asked like a plan's link question: ask["plan_code"]) and the need is asked; the message is then the link
question (intents interconnect and no_sizing: the answer alone, no invitation after it) with u.ask["link_need"], the card ("gpu") and model ("model") named.
assistant/asks.interconnect answers it for the plan on screen, else with assistant/link_need.py. A link question
read as such already ('do i need nvlink for this or is pcie fine') is left as it is: with no plan it gets the same
answer. Words: words/link_need.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

OWN_SLOTS = {"model", "phase", "engine", "engine_app", "precision", "only"}
REPLACED = {"concept", "explain", "whatif", "why", "math", "not_sure"}


def _hit(key: str, m: Message, typed: str) -> bool:
    words = vocab()["link_need"][key]
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], typed))


def read_link_need(m: Message, u: Understanding) -> None:
    if u.topic != "nvlink" or u.ask.get("plan_code") != "interconnect" or set(u.updates) - OWN_SLOTS:
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (_hit("subject", m, typed) and _hit("need", m, typed)):
        return
    gpus = {gpu for _s, _e, gpu, _n in m.gpus}
    model = u.updates.get("model")
    u.intents = (u.intents - REPLACED) | {"interconnect", "no_sizing"}
    u.ask = {**{k: v for k, v in u.ask.items() if k != "plan_code"}, "link_need": True,
             **({"gpu": gpus.pop()} if len(gpus) == 1 else {}), **({"model": model} if isinstance(model, str) else {})}
    u.topic, u.aside = None, None
    u.updates = {}
