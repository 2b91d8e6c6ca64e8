"""A volume said per day, then the hours it is used in ('每天大概一百万token', then '工作时间…在用', '9-to-6', 'during
office hours', '白天用'): the day's tokens are packed into those hours, so the request rate sized is the rate while in
use, not the day spread over 24 h (review BV #8: the peak was about 3× too low). The reader keeps the hours a volume
was spread over (slot rate_day_hours) and the hours a message says (Understanding.day_hours); this scales the rate
between the two, once, and says so."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.reading import Understanding


def pack_day_volume(u: Understanding, profile: Profile, updates: dict[str, Any], lang: str, notes: list[str]) -> None:
    """The rate sized from a day's volume said before, used within the hours this message says: scaled to them."""
    spread, hours, rate = profile.rate_day_hours, u.day_hours, profile.requests_per_s
    if not spread or not hours or not rate or "requests_per_s" in updates or "rate_day_hours" in updates \
            or abs(spread - hours) < 0.01:
        return
    factor = spread / hours
    updates["requests_per_s"] = round(rate * factor, 6)
    updates["rate_day_hours"] = hours
    notes.append(say(lang, "usage.note_day_packed", hours=f"{hours:g}", rps=f"{updates['requests_per_s']:.3g}",
                     factor=f"{24 / hours:.3g}"))
