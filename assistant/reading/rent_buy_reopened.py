"""The rent-or-buy question asked again after a way was taken ('what do i buy' then 'rent on runpod or buy a box?',
'买什么' then '租还是买？'): the question reopens it, so the plan is weighed both ways and its headline and its rent-or-buy
line give one verdict (review: the headline said Buy while the line leaned to renting). A way said in the same message
('rent or buy? we'd rather buy'), cards owned, a personal machine or a cloud's cards only ('aws only') keep theirs."""

from __future__ import annotations

from typing import Any

REOPENED = ("buy", "rent")


def rent_buy_reopened(intents: set[str], before: dict[str, Any], updates: dict[str, Any]) -> None:
    """Set the preference back to 'either' in `updates` when the turn asks rent or buy of a plan bought or rented."""
    if "rent_buy" not in intents or "preference" in updates or before.get("preference") not in REOPENED:
        return
    if before.get("owned") or updates.get("owned") or before.get("personal"):
        return
    if before.get("preference") == "rent" and before.get("only"):
        return  # 'aws only, serve …' then 'rent or buy?': the cloud's cards are rented, said as such (test_clouds_and_home)
    updates["preference"] = "either"
