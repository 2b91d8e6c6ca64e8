"""A head count put right: 'sorry typo, 50 users not 500', '打错了，是50人不是500', 'not 500 users, 50', 'i meant 50 users
instead of 500'. The number ruled out is kept in u.ask['count_fixed'], so that the new count takes the role of the
one it corrects (assistant/count_role.py): people who use it for people who use it, at once for at once (review AM
#11), unless the correction says at once itself ('not 200, 2000 at once'): then it is a number at once."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding

_COUNT_ROLES = ("users", "population", "")  # ('2000 users not 200' in a message that says whose: a population)


def read_count_fixed(m: Message, u: Understanding) -> None:
    """u.ask['count_fixed']: (the count ruled out, the count said), when one count is said and another ruled out
    ('50 not 500' with no unit too: the engine applies it only where the number ruled out is the plan's count)."""
    counts = [q for q in m.qty if q.role in _COUNT_ROLES and q.value >= 1
              and (not q.scale or q.role in ("users", "population"))]  # ('2k users, not 200'; a bare '8k' is no count)
    if len(counts) != 2:
        return
    out = [q for q in counts if q.negated or negated(m.masked, q.start)]
    said = [q for q in counts if q not in out]
    if len(out) != 1 or len(said) != 1 or out[0].value == said[0].value:
        return
    u.ask = {**u.ask, "count_fixed": (int(out[0].value), int(said[0].value))}
    if said[0].extra == "concurrent":  # '2000 at once, not 200', '是同时2000人，不是200': now a number at once
        u.ask["count_fixed_at_once"] = True
