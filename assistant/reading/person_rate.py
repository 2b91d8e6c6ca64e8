"""Requests each person sends in a minute or an hour beside a count of people: "两百来个程序员 … 每人每分钟触发三四
次", "200 devs, each fires 3-4 completions a minute", "20 requests per user per hour". The request rate is the
people times each one's rate (200 × 3.5 / 60 ≈ 11.7 a second): the load the cards are sized for, said in a note,
never a share of the people at once. A rate a day is reading.daily_asks'. The words are in words/person_rate.yaml."""

from __future__ import annotations

from dataclasses import replace

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.quantities import Quantity
from gpu_advisor.assistant.reading.text import word_pattern

PERIOD_S = {"second": 1, "sec": 1, "s": 1, "minute": 60, "min": 60, "hour": 3600, "hr": 3600, "h": 3600, "day": 86400}
PEOPLE = ("users", "population", "daily_users")


def _seconds(per: str) -> int:
    """Seconds in a period said ('per minute', 'an hour', '/min')."""
    word = per.replace("/", " ").split()[-1]
    return PERIOD_S.get(word, PERIOD_S.get(word.rstrip("s"), 0))


def _period(m: Message, before: str, end: int) -> int:
    """The period of a count: said between the person and the count, else right after what is counted."""
    said = list(word_pattern("person_rate_period").finditer(before))
    if said:
        return _seconds(said[-1].group("per"))
    noun = word_pattern("person_rate_noun").match(m.masked[end:end + 24])
    if noun is None:
        return 0
    after = word_pattern("person_rate_period").match(m.masked[end + noun.end():end + noun.end() + 24].lstrip(" ,"))
    return _seconds(after.group("per")) if after else 0


def _each(m: Message, i: int) -> tuple[float, Quantity | None, int] | None:
    """(each person's count, a range's low end, period seconds) when the count at i is one person's rate: the
    person before it ('每人每分钟 4 次', 'each dev fires 3-4 completions a minute') or after what is counted ('10
    requests per user per minute'); a rate already read ('每人每小时20次': 20 an hour) keeps its period."""
    q = m.qty[i]
    lo = m.qty[i - 1] if i and m.qty[i - 1].role in ("", q.role) and \
        word_pattern("person_rate_range").match(m.masked[m.qty[i - 1].end:q.start]) else None
    start = lo.start if lo else q.start
    before = m.masked[max(0, start - 48):start]
    person = list(word_pattern("person_rate_person").finditer(before))
    noun = word_pattern("person_rate_noun").match(m.masked[q.end:q.end + 24])
    rest = m.masked[q.end + (noun.end() if noun else 0):q.end + 64]
    after = word_pattern("person_rate_person_after").match(rest)
    if q.role == "request_rate":
        seconds = PERIOD_S.get(q.extra or "second", 0)
    elif noun is None or not (person or after):
        return None
    elif after:
        period = word_pattern("person_rate_period").match(rest[after.end():].lstrip(" ,"))
        seconds = _seconds(period.group("per")) if period else 0
    else:
        seconds = _period(m, before[person[-1].start():], q.end)
    if not (person or after) or not seconds or seconds > 3600:
        return None
    return ((lo.value + q.value) / 2 if lo else q.value), lo, seconds


def read_person_rate(m: Message) -> None:
    """Each person's requests a minute (or an hour) times the people said: a request rate, the people a
    population, with a note that says how it was counted."""
    people = next((q for q in m.qty if q.role in PEOPLE and not q.negated and q.value >= 2), None)
    if people is None:
        return
    for i, q in enumerate(m.qty):
        if q.role not in ("", "items", "request_rate") or q.negated or not 0 < q.value <= 600:
            continue
        found = _each(m, i)
        if found is None:
            continue
        if any(r.role == "request_rate" and r is not q for r in m.qty):
            return  # a rate of the whole service said beside it ('峰值QPS 5'): that one is the load
        each, lo, seconds = found
        rps = people.value * each / seconds
        m.qty[i] = replace(q, number=float(f"{rps:.3g}"), scale="", role="request_rate", extra="")
        if lo is not None:
            m.qty[m.qty.index(lo)] = replace(lo, role="range_low")
        m.qty[m.qty.index(people)] = replace(people, role="population")
        period = {1: "second", 60: "minute"}.get(seconds, "hour")
        m.notes.append((f"zh1rate.note_{period}", {
            "people": f"{people.value:,.0f}", "each": f"{each:,.3g}", "rps": f"{rps:.3g}"}))
        return
