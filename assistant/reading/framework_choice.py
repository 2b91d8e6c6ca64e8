"""A choice between fine-tuning frameworks, alone or inside a sizing request ("4张910B 微调qwen2.5-72b，用mindspeed还是
llama-factory？"): the `framework_choice` question with the frameworks weighed (`u.ask["frameworks"]`), answered
on its own, or after the sizing when the message describes a job (`u.also`). None of them is taken as the
framework sized. Words in words/framework_choice.yaml and words/job.yaml."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

# Values that describe a job to size: with one of them the sizing leads and the choice is answered after it.
JOB_SLOTS = {"model", "owned", "train_tokens", "train_examples", "budget_usd", "deadline_hours", "users"}


def frameworks_named(text: str) -> list[str]:
    rows = [*vocab()["frameworks"], *vocab()["framework_choice"]["extra"]]
    spans = [(x.start(), x.end(), str(fw)) for pattern, fw in rows for x in re.finditer(pattern, text)]
    # a name inside a longer one's words is that one ('GRPO with trl': TRL's GRPOTrainer, not TRL beside it)
    hits = sorted((s, fw) for s, e, fw in spans
                  if not any(o != fw and os <= s and e <= oe and oe - os > e - s for os, oe, o in spans))
    return list(dict.fromkeys(fw for _s, fw in hits))


def read_framework_choice(m: Message, u: Understanding) -> None:
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    named = frameworks_named(typed)
    cue = vocab()["framework_choice"]["cue"]
    if len(named) < 2 or not (re.search(cue["en"], m.text) or re.search(cue["zh"], typed)):
        return
    u.ask = {**u.ask, "frameworks": named}
    u.updates.pop("framework", None)  # weighed, not chosen
    u.intents -= {"whatif", "engine_choice"}
    if set(u.updates) & JOB_SLOTS:
        u.also = "framework_choice"
    else:
        u.intents.add("framework_choice")
        u.also = None
