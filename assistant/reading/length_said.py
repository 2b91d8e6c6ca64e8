"""A length said as a correction is no count of cards: 'sorry, the sequences are actually 4096' read the bare
'actually 4096' as the plan's cards recounted (premise.read_recount); the number is the sequence length read
(job.read_seq_len), so the recount goes."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Understanding

LENGTH_SLOTS = ("seq_len", "context", "batch_input_tokens", "prompt_tokens")


def drop_length_recount(u: Understanding) -> None:
    """No recount of cards when its number, with no card named, is a length the message said."""
    if u.recount and u.recount[1] is None and any(u.updates.get(s) == u.recount[0] for s in LENGTH_SLOTS):
        u.recount = None
