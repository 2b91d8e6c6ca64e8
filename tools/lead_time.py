"""How long a purchase takes to arrive against the date a service must be live ('need it by end of month'): a
machine that comes later than that is not the headline; renting starts the same day and buying can follow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.knowledge.loader import rules
from gpu_advisor.knowledge.resolve import find_gpu

if TYPE_CHECKING:
    from gpu_advisor.tools.recommend import Option, Workload


def lead_days(gpu_id: str) -> int:
    """Usual days from order to a machine with this card running (knowledge: rules.host_systems lead_days)."""
    return rules().host_systems[find_gpu(gpu_id).host_kind].lead_days


def arrives_late(w: Workload, best: Option) -> bool:
    """A service due live sooner than the bought machine would arrive; rented cards do not wait."""
    return (w.go_live_hours is not None and w.preference != "buy" and not best.owned
            and best.usd_per_hour is not None and lead_days(best.gpu) * 24 > w.go_live_hours)
