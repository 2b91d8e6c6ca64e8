"""A corrected head count keeps the role of the number it corrects: after '500 users' sized as the people who use it
(66 at once estimated), 'sorry 50 users not 500' is 50 people who use it, the number at once estimated again from
them; after '500 users at once', '50 not 500' stays a number at once (review AM #11). A correction that says at once
itself ('not 200, 2000 at once', '是同时2000人，不是200') makes the count a number at once, whatever it corrects. The
number ruled out comes from the reader (u.ask['count_fixed'], assistant/reading/count_fixed.py)."""

from __future__ import annotations

from typing import Any


def keep_count_role(updates: dict[str, Any], profile: Any, defaulted: dict[str, Any], ask: dict[str, Any]) -> None:
    """Move the corrected count to the slot that held the number it corrects."""
    fixed = ask.get("count_fixed")
    if fixed is None:
        return
    old, new = fixed
    if ask.get("count_fixed_at_once") and profile.population == old:  # '2000 at once, not 200' after '200 users of
        updates.update(users=new, population=None, population_daily=None, population_monthly=None)  # our saas': at once
        return
    if "users" not in updates and "population" not in updates:  # 'sorry, 50 not 500': the count it corrects
        slot = "population" if profile.population == old else "users" if profile.users == old else None
        if slot:
            updates[slot] = new
        return
    if profile.population == old and "users" in updates and "population" not in updates and "users" in defaulted:
        updates["population"] = updates.pop("users")  # the people who use it, the number at once estimated again
    elif profile.users == old and "population" in updates and "users" not in updates and "users" not in defaulted:
        updates["users"] = updates.pop("population")  # a number at once, put right
