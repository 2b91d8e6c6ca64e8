"""A length said as a correction is no count of cards: 'sorry, the sequences are actually 4096' read the bare
'actually 4096' as the plan's cards recounted (premise.read_recount); the number is the sequence length read
(job.read_seq_len), so the recount goes."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern

LENGTH_SLOTS = ("seq_len", "context", "batch_input_tokens", "prompt_tokens")


def drop_length_recount(u: Understanding) -> None:
    """No recount of cards when its number, with no card named, is a length the message said."""
    if u.recount and u.recount[1] is None and any(u.updates.get(s) == u.recount[0] for s in LENGTH_SLOTS):
        u.recount = None


def read_bare_length(m: Message, u: Understanding) -> None:
    """u.ask['bare_length'] = (tokens, said of a pair's two sequences together) for a length said alone: '1,500',
    'about 1.5k each', '~1500 tokens total'. The engine takes it as the examples' length where it was assumed."""
    if u.updates or u.intents or m.gpus:
        return
    rest = re.sub(r"\s+", " ", re.sub(r"[,;:!?()~]+(?!\d)|(?<!\d)[.,]", " ", m.text)).strip()
    x = word_pattern("bare_length").match(rest)
    if x is None:
        return
    value = float(x["n"].replace(",", "")) * (1000 if x["k"] else 1)
    if 16 <= value <= 1_048_576:
        u.ask = {**u.ask, "bare_length": (round(value), bool(word_pattern("bare_length_total").search(rest)))}
