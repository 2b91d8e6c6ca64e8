"""A bare count said per period after a plan sized by its request rate ('no wait, 50k a day', 'actually 50k/day',
'不对，是每天五万' after '…每天大概五十万次调用'): the rate corrected, as if the requests were named again (review S27
#1). The reader keeps the rate such a count would be (reading.period_count, u.ask['period_rate']); only a profile
that already holds a request rate takes it: alone, '50k a day' names nothing to size."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading import Understanding

LONG = ("day", "month")  # a volume over these is spread over the whole day, busy around the clock (reading.serving)


def apply_period_rate(u: Understanding, profile: Any) -> None:
    """Move the rate of a bare count per period into u.updates (with its notes) when the plan counted requests."""
    said = u.ask.pop("period_rate", None)
    if not said or not profile.requests_per_s or profile.phase == "batch" or "requests_per_s" in u.updates:
        return
    u.updates["requests_per_s"] = said["requests_per_s"]
    if said["period"] in LONG:
        u.updates.setdefault("utilisation", 1.0)
    u.notes += said["notes"]
