"""Fewer of the user's own machines or cards: asked as the second part of a training question ("how long will it take on
what we have? and if we only get 2 of the nodes bc other team needs the rest, how long then", "要是只给我们两台呢"), or
as a follow-up of its own ("what if we only get one of the servers", "只能用其中一台呢", "half of them", "一半的卡").
A supposing clause with 'only N nodes/servers/cards' puts {'servers': N} or {'gpus': N} in u.ask['fewer'], a share of
them ('half of them', '50% of the gpus') {'share': 0.5} (or {'share': 0.5, 'servers': True} for machines); the engine
re-sizes the plan on that many of the user's cards (assistant/owned_fewer.py), or, said beside the cards themselves,
assistant/fewer_time.py says the run's time on that many after the plan (words/fewer.yaml)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import clean, word_pattern


def read_fewer(raw: str, u: Understanding) -> None:
    """u.ask['fewer'] from a supposing 'only N of the nodes' clause or a share of them (see the module's text)."""
    text = clean(raw)
    for clause in re.split(word_pattern("fewer.cut"), text):
        if not clause:
            continue
        share = word_pattern("fewer.share").search(clause)
        if share:
            part = float(share.group("pct")) / 100 if share.group("pct") else 0.5
            if 0 < part < 1:
                servers = bool(share.group("unit") and word_pattern("fewer.servers").match(share.group("unit")))
                u.ask = {**u.ask, "fewer": {"share": part, **({"servers": True} if servers else {})}}
                if u.updates.get("utilisation") == part:
                    u.updates.pop("utilisation")  # 'half of them': of the cards, not how busy they are
                return
        if not word_pattern("fewer.cue").search(clause):
            continue
        said = word_pattern("fewer.count").search(clause)
        if said and int(said.group(1)) > 0:
            unit = "servers" if word_pattern("fewer.servers").match(said.group(2)) else "gpus"
            u.ask = {**u.ask, "fewer": {unit: int(said.group(1))}}
            return
