"""A service due live before a bought machine would arrive ('need it by end of month'): the plan is rented (tools.
lead_time), and the reply says why, and that buying can follow once it runs."""

from __future__ import annotations

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.lead_time import arrives_late, lead_days
from gpu_advisor.tools.recommend import Recommendation


def rent_first_lines(rec: Recommendation, lang: str) -> list[str]:
    """The line that says the plan is rented because buying would arrive after the go-live date, or nothing."""
    w, best = rec.workload, rec.best
    if best is None or rec.action != "rent" or w.go_live_hours is None or not arrives_late(w, best):
        return []
    return [say(lang, "deadline.rent_first", days=f"{w.go_live_hours / 24:,.0f}", card=best.gpu_name,
                weeks=f"{lead_days(best.gpu) / 7:,.0f}")]
