"""How long the cards are kept, the months a rent-or-buy comparison covers: 'we'd use it for two years', 'over 2
years', '用两年', '租还是买，2年', '3年折旧'. A slot of its own, so a plan's rent-or-buy is over the time said
and not tools.cost's default. Grammar only: the words are in words/horizon.yaml and words/money.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import word_pattern

MAX_MONTHS = 120  # the rent-or-buy tool's longest horizon


def read_horizon(m: Message) -> int | None:
    """Months the cards are kept, or None: a horizon phrase anywhere ('for 2 years'), or years said bare
    beside renting or buying ('rent or buy, 2 years', '租还是买，2年') or at the how-busy question; time already past is history."""
    found = [x for x in word_pattern("horizon").finditer(m.masked) if not _past(m, x.start())]
    if not found and (word_pattern("horizon_context").search(m.masked) or m.pending == "utilisation"):
        # at the how-busy question (rent or buy weighs on it) years said bare are the time the cards are kept
        bare = word_pattern("horizon_bare") if m.lang == "zh" else word_pattern("horizon_years")
        found = [x for x in bare.finditer(m.masked) if not _past(m, x.start()) and not _taken(m, x.start("n"))]
    for x in found:
        groups = x.groupdict()
        n, unit = groups.get("n") or groups.get("n2"), groups.get("unit") or groups.get("unit2")
        if not n or not unit:
            continue
        months = horizon_months(n, unit)
        if 0 < months <= MAX_MONTHS:
            return months
    return None


def horizon_months(n: str, unit: str) -> int:
    """Months of a horizon said as a number and its unit: '18 months', '2 years', '1.5 years' (18, not 12)."""
    return round(float(n) * (1 if unit.startswith(("month", "个月")) else 12))


def _past(m: Message, start: int) -> bool:
    """'we've been running it for 2 years', '已经用了两年': said of the time gone by."""
    return bool(word_pattern("horizon_past").search(m.masked[max(0, start - 32):start]))


def _taken(m: Message, start: int) -> bool:
    """The number already has a role of its own (a deadline, a count)."""
    return any(q.start <= start < q.end and q.role for q in m.qty)
