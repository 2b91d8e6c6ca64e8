"""A rough user base answered with working hours: '用户大概一千人' (sized as all 1,000 at once until told more) and then
'工作时间' to the utilisation question (review BZ #9: 68 × RTX 4090 for 1,000 users at once). Said in one message the
reader already makes the count the population (reading/user_base.py); said across turns, the count the profile holds
at once is the one an earlier message marked as a rough user base, and the part-day answer now makes it the people
who use the service: the number at once is estimated from them (tools.traffic) and said."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import HumanMessage

from gpu_advisor.assistant.reading.user_base import part_of_the_day


def user_base_at_hours(messages: Sequence[Any], users: int | None, population: int | None, updates: dict[str, Any],
                       read: Callable[[str], Any], text: Callable[[Any], str]) -> bool:
    """Turn the users at once into the population when this turn says part-day use and the count was a rough user
    base (see the module's text); True when it did. `messages` are the conversation's, this turn's last."""
    if not users or population or "users" in updates or "population" in updates \
            or not part_of_the_day(updates.get("utilisation")):
        return False
    for message in reversed(list(messages)[:-1]):
        if not isinstance(message, HumanMessage):
            continue
        said = read(text(message))
        if said.ask.get("user_base") == users:
            updates["population"] = users
            updates["users"] = None  # estimated again from the population, at its peak share
            updates.setdefault("population_daily", False)
            return True
        if "users" in said.updates:
            return False  # the count at once was said as such later
    return False
