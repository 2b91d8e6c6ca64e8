"""Fewer of the user's own machines, asked as the second part of a training question ("how long will it take on
what we have? and if we only get 2 of the nodes bc other team needs the rest, how long then", "要是只给我们两台呢"):
it was dropped. Now a supposing clause with 'only N nodes/servers/cards' puts {'servers': N} or {'gpus': N} in
u.ask['fewer']; assistant/fewer_time.py says the run's time on that many after the plan (words/fewer.yaml)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import clean, word_pattern


def read_fewer(raw: str, u: Understanding) -> None:
    """u.ask['fewer'] from a supposing 'only N of the nodes' clause (see the module's text)."""
    text = clean(raw)
    for clause in re.split(word_pattern("fewer.cut"), text):
        if not clause or not word_pattern("fewer.cue").search(clause):
            continue
        said = word_pattern("fewer.count").search(clause)
        if said and int(said.group(1)) > 0:
            unit = "servers" if word_pattern("fewer.servers").match(said.group(2)) else "gpus"
            u.ask = {**u.ask, "fewer": {unit: int(said.group(1))}}
            return
