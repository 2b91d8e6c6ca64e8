"""The people said at once beside a request rate, said back as the plan sized them ('并发峰值两百，每天五万次调用'): when
the rate puts fewer requests in flight than there are people (its 99th percentile, tools.queueing.Traffic), the plan
holds that many, so the echo of what the user said reads 'at most 200 users at once, about 22 requests in flight',
never '200 users, sized as all at once' (review S27 #1: it said 200 beside a plan sized for 22)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def fewer_in_flight(users: int | None, rec: Any) -> bool:
    """Whether the rate sized fewer requests in flight than the people said at once: their count is said back even
    where the job's own `matters` leaves users out (a rate, not users, sizes the plan; assistant.said_phase)."""
    traffic = getattr(rec, "traffic", None)
    return bool(users and users > 1 and traffic is not None and traffic.users_cap is None
                and traffic.users_sized < users)


def users_said(said: list[str], plain: str, users: int | None, rec: Any, lang: str) -> list[str]:
    """`said` with the users' words (`plain`, as describe wrote them) replaced where the rate sized fewer in flight."""
    traffic = getattr(rec, "traffic", None)
    if traffic is None or not fewer_in_flight(users, rec) or plain not in said:
        return said
    words = say(lang, "ack.users_at_rate", value=f"{users:,}", sized=f"{traffic.users_sized:,}")
    return [words if s == plain else s for s in said]
