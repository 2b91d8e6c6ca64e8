"""A follow-up that changes one group of the people counted before by job: 'what if we double the physicians to 160
and keep the nurses', '如果只给研发用呢', 'add 40 customer success reps who'll use it all day', 'drop the testers',
'护士减半' (review CUB #1, #5: 'Sorry, I didn't understand that'; CUA #2: the 9 people counted first were dropped).

read_people_bare: a count of people said with no word for at once ('改成200人', 'make it 300 people'), not the answer
to the question how many at once: after a population it is the population again (assistant/user_groups.py).

read_group_change puts u.ask['group_change'] = [(job, change, number)], one per group named: change is 'set' (to
the number), 'times' (the number a factor), 'add' (the number more), 'remove', 'only' or 'keep'; assistant/user_groups.py
applies them to the groups kept and adds them up again. Grammar only: the words are in words/group_change.yaml."""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.people_groups import GROUP_AT_MOST, PEOPLE, jobs
from gpu_advisor.assistant.reading.text import alternation, vocab, word_pattern
from gpu_advisor.knowledge.pattern_cache import compiled

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message, Understanding

Change = tuple[str, str, float | None]


@cache
def _job_words() -> re.Pattern[str]:
    """A job word ('physicians', '研发'), not inside a longer English word nor a thing ('销售额')."""
    return compiled(rf"(?<![a-z])(?P<job>{alternation(jobs())})(?![a-z])(?!{vocab()['people_groups']['job_not_after']})")


@cache
def _factors() -> list[tuple[float, re.Pattern[str]]]:
    """The factor words of a relative change ('double', '翻倍', 'halve': words/changes.yaml)."""
    return [(float(f), compiled(rf"(?<![a-z0-9])(?:{alternation(ws)})(?![a-z])"))
            for f, ws in vocab()["relative_factors"].items()]


def _clause(text: str, at: int) -> tuple[int, int]:
    """The span of the change around position at: from the clause end before it to the next one."""
    ends = [(x.start(), x.end()) for x in word_pattern("group_change.clause_end").finditer(text)]
    start = max((e for s, e in ends if e <= at), default=0)
    end = min((s for s, e in ends if s >= at), default=len(text))
    return start, end


def _count(m: Message, job: re.Match[str], start: int, end: int) -> tuple[float, bool] | None:  # (in m.masked)
    """The count said for the group and whether it may be added: said right before its job ('40 customer success
    reps', '200 users 研发' from '200个研发'), or after it with no word that sets it ('销售150人也要用'); or after it,
    set to ('the physicians to 160', '研发加到三百人')."""
    for q in m.qty:
        if q.negated or q.scale not in ("", "k") or not start <= q.start < end or q.role not in ("", *PEOPLE):
            continue
        before = m.masked[q.end:job.start()]
        if q.end <= job.start() and re.fullmatch(r"\s*(?:users\s+|people\s+)?(?:[a-z][a-z-]*\s+){0,2}|\s*(?:users\s+)?", before):
            return q.value, True
        if q.start >= job.end() and word_pattern("group_change.set_to").match(m.masked[job.end():q.start]):
            return q.value, bool(word_pattern("group_change.plain_between").match(m.masked[job.end():q.start]))
    return None


def _change(m: Message, text: str, job: re.Match[str]) -> Change | None:
    """The change said of one group named, within its clause; its count read from the cleaned message only (text is
    it or the message as typed, where the rewrites have not split the Chinese words: '测试不用了')."""
    start, end = _clause(text, job.start())
    clause = text[start:end]
    counted = _count(m, job, start, end) if text is m.masked else None
    n = counted[0] if counted else None
    if n is not None and not 1 <= n <= GROUP_AT_MOST:
        return None
    code = jobs()[job.group("job")]
    if word_pattern("group_change.remove").search(clause) and n is None:
        return code, "remove", None
    if n is not None:
        added = counted and counted[1] and word_pattern("group_change.add").search(clause)  # ('加到' sets it)
        return code, "add" if added else "set", n
    factor = next((f for f, pattern in _factors() if pattern.search(clause)), None)
    if factor is not None:
        return code, "times", factor
    if word_pattern("group_change.only").search(clause):
        return code, "only", None
    if word_pattern("group_change.keep").search(clause):
        return code, "keep", None
    return None


def read_group_change(m: Message, u: Understanding) -> None:
    """u.ask['group_change']: the change said of each group named by its job, when one is said that is no sum of
    groups listed anew ('250 nurses and 160 physicians' is the groups said again: reading.people_groups)."""
    if m.groups:
        return
    said: dict[str, Change] = {}
    for text in (m.masked, unicodedata.normalize("NFKC", m.raw).lower()):
        for x in _job_words().finditer(text):
            if (c := _change(m, text, x)) and c[0] not in said:
                said[c[0]] = c
    if any(change != "keep" for _j, change, _n in said.values()):
        u.ask = {**u.ask, "group_change": list(said.values())}


def read_people_bare(m: Message, u: Understanding) -> None:
    """u.ask['people_bare']: the people counted are said with no word for at once and answer no question of how
    many at once ('改成200人', 'make it 300 people'), so after a population they are the population."""
    people = [q for q in m.qty if q.role == "users" and not q.negated]
    if people and m.pending != "users" and all(not q.extra for q in people) and q_not_ranged(m, people):
        u.ask = {**u.ask, "people_bare": True}


def q_not_ranged(m: Message, people: list) -> bool:
    """No count of people read as a range of people at once ('20-30 at a time')."""
    return not any(q.start in m.ranged for q in people)
