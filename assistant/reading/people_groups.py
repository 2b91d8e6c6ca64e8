"""Groups of people counted by job, kept typed so that one group can be put right later (review: '团队有3个算法工程师和
10个产品经理要用…' then '不对，是30个产品经理，不是10个' still sized 13 users, and the 30 was read as a 30% utilisation at
the utilisation question).

- named_people: a count named by a job ('30个产品经理', '30 PMs', '5 ml engineers', said job first: '产品经理是30个',
  'PM有30个') is a count of people, so never a bare number that fills the question just asked (a utilisation, a
  context, a budget);
- group_of: the job code of a count listed by job (reading.listed_people keeps the groups of a sum);
- read_user_groups: the groups of the count of people read, (job, count) each, in u.ask['user_groups'];
- read_group_fixed: a message that says one group's number again ('actually 30 PMs, not 10', 'sorry, 20 data
  scientists', 'make that 5 engineers'): u.ask['group_fixed'] = (job, the count ruled out or None, the count
  said); assistant/user_groups.py replaces that group in the groups kept and adds them up again.
Grammar only: the words are in words/people_groups.yaml."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.text import alternation, vocab, word_pattern
from gpu_advisor.knowledge.pattern_cache import compiled

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message, Understanding

PEOPLE = ("users", "population")
# A job counted is one group at most this size: a larger number named by a job is no correction of a group.
GROUP_AT_MOST = 1_000_000


@cache
def jobs() -> dict[str, str]:
    """Each job word -> its job code."""
    return {word: code for code, words in vocab()["people_groups"]["jobs"].items() for word in words}


@cache
def _after(lone: bool) -> re.Pattern[str]:
    """A job word after a count, with up to two words of its own before it ('ml engineers', '算法工程师'); lone: of
    a count not listed with others ('3 pm' after a count alone is a time of day)."""
    words = [w for w in jobs() if not (lone and w in vocab()["people_groups"]["only_before"])]
    groups = vocab()["people_groups"]
    return compiled(rf"^\s*{groups['modifiers']}(?P<job>{alternation(words)})(?![a-z])(?!{groups['job_not_after']})")


@cache
def _before() -> re.Pattern[str]:
    """A job word right before a count, a verb between them ('产品经理是 30', 'pm have 30')."""
    return compiled(rf"(?<![a-z])(?P<job>{alternation(jobs())}){vocab()['people_groups']['job_then']}")


def group_of(m: Message, i: int, lone: bool = False) -> str | None:
    """The job code of count i: its job said after it, or said before it ('产品经理是 30'). (In a Chinese message
    '30个PM' is thirty PMs: no time of day is said so.)"""
    q = m.qty[i]
    end = m.qty[i + 1].start if i + 1 < len(m.qty) else len(m.masked)
    said = _after(lone and m.lang != "zh").match(m.masked[q.end:min(end, q.end + 40)])
    if said is None and word_pattern("people_groups.count_end").match(m.masked[q.end:q.end + 12]):
        said = _before().search(m.masked, max(0, q.start - 32), q.start)
    return jobs()[said.group("job")] if said else None


def named_people(m: Message) -> None:
    """A count named by a job ('30 产品经理', '30 pms', 'pm have 30') is people (m.named): no bare number that
    answers the question asked; with no role yet, people who use it."""
    for i, q in enumerate(m.qty):
        if q.role in ("", *PEOPLE) and not q.negated and not q.scale and 1 <= q.value <= GROUP_AT_MOST \
                and group_of(m, i, lone=True):
            m.named.add(q.start)
            if not q.role:
                m.qty[i] = replace(q, role="users")


def read_user_groups(m: Message, u: Understanding) -> None:
    """u.ask['user_groups']: the groups of the count of people read ('3 ml engineers and 10 PMs': [('engineer', 3),
    ('product_manager', 10)]), when every group names its job (assistant/user_groups.py keeps them with the count)."""
    heads = [q for q in m.qty if q.start in m.groups and q.role in PEOPLE and not q.negated]
    groups = m.groups[heads[-1].start] if heads else ()
    if groups and all(job for job, _n in groups):
        u.ask = {**u.ask, "user_groups": [(str(job), n) for job, n in groups]}


def read_group_fixed(m: Message, u: Understanding) -> None:
    """u.ask['group_fixed'] = (job, the count ruled out, the count said): one count of people named by its job
    said, at most one other count ruled out, no sum of groups, nothing that adds a group ('also 20 designers')."""
    if m.groups or word_pattern("people_groups.added").search(m.masked):
        return
    said = [(i, q) for i, q in enumerate(m.qty) if q.start in m.named and not q.negated and not q.extra]
    out = [q for q in m.qty if q.negated and not q.scale and q.role in ("", *PEOPLE)]
    if len(said) != 1 or len(out) > 1:
        return
    i, q = said[0]
    job = group_of(m, i, lone=True)
    if job is None or q.value != int(q.value):
        return
    u.ask = {**u.ask, "group_fixed": (job, int(out[0].value) if out else None, int(q.value))}
