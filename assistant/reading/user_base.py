"""A user base said roughly, with working hours: '团队三个算法两个后端 … 上线给用户用 用户大概一千人' then '工作时间' (review BZ
#9) sized all 1,000 users at once (68 × RTX 4090). A count of users of at least POPULATION_FROM said with a rough
word ('about', '大概', '约', '左右'), not said to be at once, is the people who use the service when the same message or
the answer to the utilisation question says they use it only part of the day: the people at once are then estimated
from them (tools.traffic), as for '员工三百人'. The message marks such a count in u.ask['user_base'] so that a later
'working hours' finds it (assistant/user_base.py). Words: words/user_base.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.people import POPULATION_FROM
from gpu_advisor.assistant.reading.text import word_pattern

NEAR = 16  # characters read on each side of the count for its rough word


def read_user_base(m: Message, u: Understanding) -> None:
    """u.ask['user_base'] for a rough count of users; with part-day use said too, that count becomes the population."""
    users = u.updates.get("users")
    said = [q for q in m.role("users") if q.extra != "concurrent" and not q.negated and q.value == users]
    if not isinstance(users, int) or users < POPULATION_FROM or len(said) != 1 or u.updates.get("population"):
        return
    q = said[0]
    if not (word_pattern("user_base.about_before").search(m.masked[max(0, q.start - NEAR):q.start])
            or word_pattern("user_base.about_after").match(m.masked[q.end:q.end + NEAR])):
        return
    u.ask = {**u.ask, "user_base": users}
    if part_of_the_day(u.updates.get("utilisation")):
        u.updates["population"] = u.updates.pop("users")  # '用户大概一千人，工作时间用': who uses it, some at once
        u.updates.setdefault("population_daily", False)


def part_of_the_day(utilisation: object) -> bool:
    """A share of the day said for the service ('working hours' 0.24, '9 to 5', '8 hours a day'), not around the clock."""
    return isinstance(utilisation, (int, float)) and 0 < utilisation < 1
