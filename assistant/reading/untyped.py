"""Cards owned with no type said: 'we have an 8-gpu box', '手上有一台8卡的', 'we have 8 GPUs'.

The count is kept (never dropped, never sized as some card): the conversation asks which card it is, and the
card named next is the owned one. The words live in words/owned.yaml (owned_untyped).
"""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.owned import subset_count
from gpu_advisor.assistant.reading.text import word_pattern

# More than this many cards in one owned box is not a box ('we have 500 gpus' is a cluster, said elsewhere).
MAX_UNTYPED = 64


def read_owned_untyped(m: Message, u: Understanding) -> None:
    """A count of owned cards with no card named anywhere in the message: kept in `u.owned_untyped`. A Mac of
    the user's with no chip said ('on my mac'): the note that asks which."""
    if m.gpus or m.unknown_card or u.updates.get("owned") or u.compare_gpus or u.whatif_gpus:
        return
    mac = word_pattern("mac_unnamed").search(m.masked)
    if mac and not negated(m.masked, mac.start()):
        u.notes.append(("note.mac_unnamed", {}))
        return
    x = word_pattern("owned_untyped").search(m.masked)
    if x is None or negated(m.masked, x.start()):
        return
    n = int(next(g for g in x.groups() if g))
    if not 0 < n <= MAX_UNTYPED:
        return
    part = word_pattern("owned_subset").search(m.masked, x.end())  # '我们有64张卡，拿8张出来跑': 8 of them
    n = min(n, subset_count(part)) if part else n
    u.owned_untyped = n
    u.notes = [(key, values) for key, values in u.notes if key != "note.servers_without_cards"]  # the cards, not servers
