"""The slot a relative change of the load scales ('traffic will triple', '下个月量会翻三倍'): the items of a batch job,
the requests a second of a service sized by its rate, else the people using it at once."""

from __future__ import annotations

from typing import Any


def load_slot(profile: Any) -> str:
    """Where the plan holds its load: batch items, requests a second, or users."""
    if profile.phase == "batch" or (profile.batch_items and not profile.users):
        return "batch_items"
    if profile.requests_per_s and not profile.users:
        return "requests_per_s"
    return "users"
