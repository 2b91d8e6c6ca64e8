"""'actually nvm i'll probably get a used 3090 instead, is that better for it', '算了 打算买张二手3090 会更好吗': one card
named as a planned purchase (words/savings.yaml planned_card). With a machine of their own in the conversation
(the engine knows), the card replaces it in the plan (bought, only that card) and the reply says whether it is better
for the job (assistant/planned.py); without one the message reads as before."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.restricted_owned import owned_as_restriction, personal_card_owned
from gpu_advisor.assistant.reading.text import vocab


def read_planned_card(m: Message, u: Understanding) -> None:
    owned_as_restriction(m, u)  # 'we already own L40S so stick to those - how many?': the card limited to, not one owned
    personal_card_owned(m, u)  # '个人玩家，一张A6000 48G，想QLoRA…': one person's own card
    named = [(1, g) for g in u.compare_gpus] + ([tuple(u.whatif_gpus)] if u.whatif_gpus else [])
    only = u.updates.get("only")
    if len(named) != 1 or u.updates.get("owned") or (only and [o.split("x ", 1)[-1] for o in only] != [named[0][1]]):
        return  # ('买一张二手3090' reads as only that card, to buy: still the one card planned)
    words = vocab()["planned_card"]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    if not (re.search(words["en"], typed) or re.search(words["zh"], typed)):
        return
    said, gpu = named[0]
    count = next((c for _s, _e, g, c in m.gpus if g == gpu), said) or 1
    u.ask = {**u.ask, "planned_card": [count, gpu]}  # applied by the engine only when they own a machine


def apply_planned_card(u: Understanding) -> None:
    """The planned card in place of the machine they own: only that card, bought, their machine dropped, answered
    as a what-if against the plan before."""
    count, gpu = u.ask["planned_card"]
    u.updates["only"] = [f"{count}x {gpu}"]
    u.updates["preference"] = "buy"
    u.updates["owned"] = None
    u.compare_gpus, u.whatif_gpus = [], None
    u.intents = (u.intents - {"why_not"}) | {"whatif"}
