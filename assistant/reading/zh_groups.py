"""Groups of people named by their job in a Chinese message (review CV #6: '给12345热线坐席一百二十人和各委办局工作人员
四百人用' was read as 400 people and 120 at once): a count said job first and counted in people ('客服120人', '客服有
120个人'), or job after ('120名客服', '120个客服', '120位医生'), is people who use it. Two or more such groups joined by
'和/及/以及/、/，/加上/还有' are an organisation's people, a population: reading.listed_people adds them up, the same
grammar as '180 call-centre agents and 25 supervisors' (zh_joined tells it where the Chinese groups are joined). A
number that names a phone line ('12345热线') is no count. Grammar only: the words are in words/zh_groups.yaml."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.people import at_once_after
from gpu_advisor.assistant.reading.text import vocab, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

PEOPLE = ("users", "population")
# A group of people is at most this many ('1.2万名坐席' is 12,000 people; a larger number is no group).
GROUP_AT_MOST = 1_000_000


@cache
def _job_ends() -> tuple[str, ...]:
    """What a job's name ends with: the Chinese job words (people_groups), staff nouns, job endings and seats."""
    v = vocab()
    words = [w for ws in v["people_groups"]["jobs"].values() for w in ws]
    words += [*v["population_nouns"], *v["zh_title_tails"], *v["zh_groups"]["job_ends"]]
    cjk = [w for w in words if re.fullmatch(r"[\u3400-\u9fff]{2,}", w)]
    return tuple(sorted({*cjk, *v["zh_job_suffixes"]}, key=lambda w: (-len(w), w)))


@cache
def _job_before() -> re.Pattern[str]:
    """A job's name right before a count, a verb between them ('客服 have 120' from '客服有120'): CJK with no joining
    character, then people_groups.job_then."""
    joiners = re.escape(vocab()["zh_groups"]["joiner_chars"])
    return re.compile(rf"(?P<job>(?:(?![{joiners}])[\u3400-\u9fff]){{1,12}}){vocab()['people_groups']['job_then']}")


def _is_job(word: str) -> bool:
    return word.endswith(_job_ends())


def group_span(m: Message, i: int) -> tuple[int, int] | None:
    """The span of count i with its job, when it is a group of people named by job: '客服 120 people' (job first,
    counted in people) or '120 users 客服' (job after); None otherwise."""
    q = m.qty[i]
    if q.negated or not 1 <= q.value <= GROUP_AT_MOST or q.value != int(q.value) or q.role not in ("", *PEOPLE):
        return None
    after = m.masked[q.end:q.end + 40]
    if at_once_after(after):
        return None  # '坐席120人同时在线': people at once, as said
    people = word_pattern("zh_groups.people_after").match(after)
    if people:
        before = _job_before().search(m.masked, max(0, q.start - 24), q.start)
        if before and _is_job(before.group("job")):
            return before.start(), q.end + people.end()
    said = word_pattern("zh_groups.job_after").match(after)
    if said:
        joiners = vocab()["zh_groups"]["joiner_chars"]
        words = re.split(rf"[{re.escape(joiners)}]", said.group("job"))[0]
        job = next((words[:k] for k in range(len(words), 0, -1) if _is_job(words[:k])), "")  # '实习生都要': '实习生'
        if job:
            return q.start, q.end + said.start("job") + len(job)
    return None


def zh_joined(m: Message, a: int, b: int) -> bool:
    """Whether counts a and b are groups of people named by job, joined ('客服120人和销售400人', '120名医生及400名护士')."""
    if m.lang != "zh":
        return False
    first, second = group_span(m, a), group_span(m, b)
    return bool(first and second and first[1] <= second[0]
                and word_pattern("zh_groups.joined").fullmatch(m.masked[first[1]:second[0]]))


def zh_groups(m: Message) -> None:
    """Counts of people named by job listed together: each a population (an organisation's people, a share of them at
    once), not said at once; a phone line's number ('12345热线') no count. reading.listed_people then adds them up."""
    if m.lang != "zh":
        return
    for i, q in enumerate(m.qty):
        if word_pattern("zh_groups.line_after").match(m.masked[q.end:q.end + 12]):
            m.qty[i] = replace(q, role="", extra="")
    listed: set[int] = set()
    for i in range(len(m.qty) - 1):
        if zh_joined(m, i, i + 1):
            listed |= {i, i + 1}
    for i in listed:
        m.qty[i] = replace(m.qty[i], role="population", extra="")
