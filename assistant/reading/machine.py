"""A question about the machine the user is typing on ("what can I run on this machine?", "我这台电脑能跑什么"):
the intent `this_machine`. A local front-end reads the machine's cards (tools.detect) and the reply offers
them as the user's hardware; a server says it cannot see the user's machine. The words: words/machine.yaml."""

from __future__ import annotations

import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def read_this_machine(m: Message, u: Understanding) -> None:
    if m.gpus or u.intents & {"reset", "help", "explain", "interconnect", "parallelism", "formats"}:
        return  # "can my 4090 run it?": the card is named, the sizing answers; 'tp or pp on this box?': the plan's
    if u.updates.get("used_ok") or u.updates.get("budget_usd"):
        return  # 'which card for my pc? second-hand is fine', '$800 budget': a card to buy for it, not the one in it
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if word_pattern("this_machine.en").search(typed) or word_pattern("this_machine.zh").search(typed):
        u.intents.add("this_machine")
