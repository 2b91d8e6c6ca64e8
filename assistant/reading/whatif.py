"""Hypothetical follow-ups: a card in a question about a change is never one you own. 'what if we use H20s instead,
our partner has them', '如果换成H20呢，合作方有' plan on that card (as many as the job needs, the only card from now
on, as any switch does), and say whose cards they are; 'would adding a third 3090 help?', '再加一张3090有用吗' try
the cards you own and the one added beside the plan, recording nothing as owned.

The markers are words/whatif.yaml's; what is tried is the engine's (turn.whatif, turn.compare): the plan keeps
its profile, and the reply compares the card tried with the plan's own."""

from __future__ import annotations

import re
import unicodedata

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.server_cards import read_replace_asked, read_server_cards
from gpu_advisor.assistant.reading.text import vocab
from gpu_advisor.knowledge import find_gpu


def _hit(m: Message, key: str) -> bool:
    words = vocab()["whatif"][key]
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], typed))


def hypothetical(m: Message) -> bool:
    """Whether the message asks about a change rather than making it ('what if…', 'would … help', '如果…')."""
    return _hit(m, "marker")


def read_whatif(m: Message, u: Understanding) -> None:
    """A follow-up that asks about other cards: sets u.ask['hypothetical'] (the engine then adds no card to those
    owned, and compares the answer with the plan before) and says whose cards they are when someone else has them."""
    read_server_cards(m, u)  # '需要几台atlas 800T A2（8卡910B）': the cards of each server, the servers asked
    read_replace_asked(m, u)  # '多少张910B才能顶上 8 张 A800': the cards that take over the others' work
    if not hypothetical(m) or u.intents & {"reset", "help", "empty"} or u.choice is not None:
        return
    tried = {g for _s, _e, g, _n in m.gpus}
    if not tried:
        return
    u.ask = {**u.ask, "hypothetical": True}
    if u.added_cards and u.adds_owned:  # '再加一张3090有用吗': a card wished for, not one more of yours
        u.adds_owned = False
        u.updates.pop("owned", None)
    if _hit(m, "partner"):
        card = (u.whatif_gpus[1] if u.whatif_gpus else None) or next(iter(u.compare_gpus), None) \
            or next(iter(u.added_cards), None)
        if card:
            u.notes.append(("note.partner_cards", {"card": find_gpu(card).name}))
