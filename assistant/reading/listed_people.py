"""Counts of people listed by their job add up: '40个客服加5个产品经理在用' is 45 people, '3 data scientists and 2
backend devs' 5, '二十个销售和十来个运营' 30. The first count is read as people by its noun; a count listed right after
it ('and 5 PMs', '加5个产品经理') names people too even when its job word is not a people noun the reader knows, and
the group is one count of everyone, the first count's role (a population if any of them is one). Grammar only: the
words are in words/listed_people.yaml and words/people.yaml."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.people import at_once_of, staff_word
from gpu_advisor.assistant.reading.people_groups import group_of
from gpu_advisor.assistant.reading.text import alternation, vocab, word_pattern
from gpu_advisor.assistant.reading.zh_groups import zh_joined
from gpu_advisor.knowledge.pattern_cache import compiled

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

PEOPLE = ("users", "population")
# The role of a count added into the first of its group: read by no slot (its people are in the first count).
ADDED = "people_listed"


@cache
def _job_after() -> re.Pattern[str]:
    """A job noun after a listed count: up to two words of its own, then a people noun or a word that ends like
    one ('2 backend devs', '5 product managers', '4 sres'), or a Chinese word that names no thing counted."""
    v = vocab()
    nouns = alternation([*v["people_nouns"], *v["population_nouns"], *v["listed_people_jobs"]])
    ending = alternation(v["people_suffixes"])
    zh_not = alternation(v["listed_people_zh_not"])
    return compiled(rf"^\s*(?:users\s+)?(?:(?:[a-z][a-z-]*\s+){{0,2}}(?:(?:{nouns})|[a-z]{{2,}}(?:{ending}))(?![a-z])"
                   rf"|(?!(?:{zh_not}))[\u3400-\u9fff]{{2,}})")


def _listed(m: Message, a: int, b: int) -> bool:
    """Whether count b is listed right after count a, as people: the joining words between them, a job after b."""
    first, second = m.qty[a], m.qty[b]
    if second.negated or second.extra or second.role not in ("", *PEOPLE):
        return False
    between = m.masked[first.end:second.start]
    if word_pattern("listed_people_part").search(between):
        return False  # ('全院1000人，其中200个医生': the 200 are some of the 1000)
    if zh_joined(m, a, b):
        return True  # '坐席120人和各委办局工作人员400人', '120名医生及400名护士': groups named by job (reading.zh_groups)
    if not word_pattern("listed_people_between").fullmatch(between):
        return False
    return second.role in PEOPLE or bool(_job_after().match(m.masked[second.end:second.end + 40]))


@cache
def _job_before() -> re.Pattern[str]:
    """A Chinese job word right before a count, said job first ('客服 20' from '客服二十个', '研发部 40', '坐席 60')."""
    v = vocab()
    jobs = [w for w in {*v["people_nouns"], *v["population_nouns"]}
            if re.fullmatch(r"[\u3400-\u9fff]{2,}", w) and w not in v["job_first_not"]]
    return compiled(rf"(?P<job>(?=[\u3400-\u9fff])(?:{staff_word()})|{alternation(jobs)})(?:{alternation(v['job_first_groups'])})?\s*(?:about\s*)?$")


def job_before(before: str) -> re.Match[str] | None:
    """The job word said right before a count ('客服 20'), if any."""
    return _job_before().search(before)


def job_first(m: Message) -> None:
    """Counts said after their job ('研发四十个人，客服二十个' read as '研发 40 people , 客服 20', '坐席60个'): the bare
    classifier 个 drops out of the text, so the job word before is the count's noun, and the count is people as if the
    job came after it ('二十个客服')."""
    for i, q in enumerate(m.qty):
        if q.role or q.negated or q.extra or not job_before(m.masked[max(0, q.start - 16):q.start]):
            continue
        after = m.masked[q.end:q.end + 24]
        if word_pattern("job_first_after").match(after):  # '同时在线客服60个': at once, as said
            m.qty[i] = replace(q, role="users", extra=at_once_of(after, m.masked[max(0, q.start - 40):q.start]))


@cache
def _staff_beside() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Staff words right after a count ('20 support staff') and right before it ('客服 20', '客服部 20')."""
    staff = rf"(?P<staff>{word_pattern('staff_not_use').pattern})"
    return (compiled(rf"\s*(?:users\s+)?(?:about\s+)?{staff}"),
            compiled(rf"{staff}(?:{alternation(vocab()['job_first_groups'])})?\s*(?:about\s*)?$"))


def staff_not_use(m: Message) -> None:
    """Staff words right beside a count of people ('客服二十个', '20 support staff', '客服坐席60个同时在线'): they say who
    uses it, not what it is for (review CI #10: '研发四十个人，客服二十个' was sized as a support bot). Kept with the
    team's job nouns (Message.team), which set no use."""
    after, before = _staff_beside()
    for q in m.qty:
        if q.role not in (*PEOPLE, ADDED) or q.negated:
            continue
        said = after.match(m.masked, q.end) or before.search(m.masked, max(0, q.start - 16), q.start)
        if said:
            m.team.append(said.span("staff"))


def listed_roles(m: Message) -> None:
    """A count listed right after a count of people, with a job after it ('加5个产品经理', 'and 2 backend devs'):
    people too, the first count's role (before the head-counts are read, which weigh each count's noun)."""
    for i in range(len(m.qty) - 1):
        q = m.qty[i]
        if q.role in PEOPLE and not q.extra and not q.negated and not m.qty[i + 1].role and _listed(m, i, i + 1):
            m.qty[i + 1] = replace(m.qty[i + 1], role=q.role)


def add_listed(m: Message) -> None:
    """Each group of counts of people listed by job, not said at once: one count of everyone in the first's place
    (a population if any of them is one, users otherwise), and a note that says the sum."""
    i = 0
    while i < len(m.qty):
        q = m.qty[i]
        group = [i]
        if q.role in PEOPLE and not q.extra and not q.negated:
            while group[-1] + 1 < len(m.qty) and m.qty[group[-1] + 1].role in PEOPLE \
                    and _listed(m, group[-1], group[-1] + 1):
                group.append(group[-1] + 1)
        if len(group) > 1:
            parts = [m.qty[j].value for j in group]
            m.groups[q.start] = tuple((group_of(m, j), int(m.qty[j].value)) for j in group)  # kept by job, typed
            role = "population" if any(m.qty[j].role == "population" for j in group) else "users"
            m.qty[i] = replace(q, number=sum(parts), scale="", role=role)
            for j in group[1:]:
                m.qty[j] = replace(m.qty[j], role=ADDED)
            m.notes.append(("note.people_listed", {"parts": " + ".join(f"{p:,.0f}" for p in parts),
                                                   "n": f"{sum(parts):,.0f}"}))
        i = group[-1] + 1
