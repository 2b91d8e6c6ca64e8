"""A count of the card named before, said as had: 'wait we actually have 2 of them in the box', '等等，其实我们机器里
有两张', 'we got 2 of those': that many of the card the plan holds, the user's own (the engine's apply_recount with
u.ask['recount_had']), never a plan to buy that many. The words are in words/had_count.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

MAX_HAD = 64


def read_had_count(m: Message, u: Understanding) -> None:
    """u.recount (n, None, '') and u.ask['recount_had'] when the message says how many of the card named before are
    had, with no card named in it (a card named is read by the owned readers)."""
    if m.gpus or u.updates.get("owned") or u.compare_gpus or u.whatif_gpus:
        return
    x = word_pattern("had_count").search(m.masked)
    if not x or not 0 < int(x.group("n")) <= MAX_HAD:
        return
    if u.recount is None:
        u.recount = (int(x.group("n")), None, "")
    if u.recount[1] is None:
        u.ask = {**u.ask, "recount_had": True}
        u.card_count = None
