"""The users of a product or an organisation are a population (reviews CN EN2, CO E1, CQ E2, Z2): 'startup here …
serve llama 3.3 70b for ~200 users', 'our saas has two thousand users', '单位要求信创 … 给两百个人用', '公司大概5千人用'.
A bare count of users in a message that says whose they are (a product, an organisation: words/user_population.yaml)
is everyone who uses it, not the people at once: the number at once is estimated from it by the one rule of
tools.traffic (a staff's share at the busiest moment) and said with the answer, for the user to correct. A count of a
day's or a month's users is read beside its day or month (reading.quantities, role daily_users).

Stays as said: a count said at once ('200 concurrent users', '同时200人在线', 'peak 200'), the answer to the question of
how many at once, an end of a range, a class that uses it together, a bare count with no marker ('for 10 users',
'给100个人用'), and a count under POPULATION_FROM (100) with one ('我们公司部署…，12用户', 'a startup, 25 users'): many
hand-checked records mean those as people at once, and sizing a few dozen all at once costs little. Grammar only."""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.headcount import in_range, said_at_once
from gpu_advisor.assistant.reading.people import POPULATION_FROM
from gpu_advisor.assistant.reading.text import vocab, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message


def marked(m: Message) -> bool:
    """Whether the message says whose users they are: a product or an organisation, not negated. English words on the
    cleaned text or on the text as typed; Chinese ones as typed only (the cleaned text rewrites '为单位' and '员工')."""
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    for kind in vocab()["user_population"]:
        key = f"user_population.{kind}"
        if (not kind.endswith("_zh") and m.live(key)) \
                or any(not negated(typed, x.start()) for x in word_pattern(key).finditer(typed)):
            return True
    return False


def product_users(m: Message) -> None:
    """Bare counts of users, in a message with a product or organisation marker, become the population."""
    if m.pending == "users":
        return  # the answer to 'how many at the same time?' is people at once, whatever else it says
    counts = [i for i, q in enumerate(m.qty) if q.role == "users" and not q.extra and not q.negated
              and q.value >= POPULATION_FROM and q.start not in m.ranged and not in_range(m, i)]
    if not counts or not marked(m):
        return
    for i in counts:
        q = m.qty[i]
        if said_at_once(m.masked[q.end:q.end + 80]) \
                or word_pattern("together_before").search(m.masked[max(0, q.start - 40):q.start]):
            continue  # '200 users at once', 'a class of 40': people at once, as said
        m.qty[i] = replace(q, role="population")
