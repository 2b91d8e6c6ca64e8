"""Head-counts: a count of people who use a service, said without 'at once' ('50 people in our lab', '全公司300人',
'40 nurses', 'our lab of 30'), is a population: only a share of them generate at the same moment (tools.traffic
sizes the count at once from it, said in the assumptions and correctable). A count said at once ('50 concurrent
users', '50人同时在线') stays as said, and so does a bare count of users. Grammar only: the words are in
words/headcount.yaml and the staff nouns of words/people.yaml."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.listed_people import job_before
from gpu_advisor.assistant.reading.people import at_once_after, staff_noun_after
from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

# Below this many people a group is sized as all at once: the count at once would round to nearly all of them.
HEADCOUNT_FROM = 5
# A team said by its size alone ('a team of 40') is an organisation's size from this many people; a smaller team
# works together and is sized as all at once ('our team of 5 devs', '我们团队十个人用').
TEAM_FROM = 20


def is_headcount(after: str, before: str, org_wide: bool = False, value: float = 0) -> bool:
    """Whether a count of people is an organisation's size: a staff noun after it, the organisation it belongs to
    after it, an organisation word before it, or (org_wide) the whole organisation said in the message."""
    if said_at_once(after) or word_pattern("together_before").search(before):
        return False  # '50 nurses at once', 'a class of 40 students': people at once, as said
    job = job_before(before)  # '客服二十个' read as '客服 20': the staff noun said first
    return bool(org_wide or staff_noun_after(after) or word_pattern("headcount_frame_after").match(after)
                or word_pattern("headcount_before").search(before)
                or (value >= TEAM_FROM and word_pattern("team_before").search(before))
                or (job and staff_noun_after(job.group("job"))))


def said_at_once(after: str) -> bool:
    """'50 nurses at once', '50 staff at the same time', '30 ppl hitting it at once': the noun, then words that say
    at once."""
    return at_once_after(after)


def headcounts(m: Message) -> None:
    """Counts of people read as users, not said at once and no end of a range, become the population when the
    words around them say an organisation's size."""
    org_wide = bool(word_pattern("headcount_org_wide").search(m.masked)
                    or word_pattern("headcount_not_at_once").search(m.masked))  # 'not all at once': everyone
    for i, q in enumerate(m.qty):
        if q.role == "population" and (said_at_once(m.masked[q.end:q.end + 80])
                                       or word_pattern("concurrency_before").search(m.masked[max(0, q.start - 40):q.start])):
            m.qty[i] = replace(q, role="users", extra="concurrent")  # '300 staff at the same time', '同时在线员工60个'
            continue
        if q.role != "users" or q.extra or q.negated or q.value < HEADCOUNT_FROM or in_range(m, i):
            continue
        after = m.masked[q.end:q.end + 80]
        before = m.masked[max(0, q.start - 40):q.start]
        if is_headcount(after, before, org_wide, q.value):
            m.qty[i] = replace(q, role="population")


def staffed_seats(m: Message) -> None:
    """Seats of a call centre or a support desk ('60 agent seats', '60 seats in our call center', '六十来个坐席'):
    each is a person working during the shift, so the count is of people at once, never a population of which a
    share is at once (review CH #11). Seats of a product's licence ('300 seats') stay a population. Seats listed with
    other groups of staff ('12345热线坐席一百二十人和各委办局工作人员四百人', '40名坐席加5个产品经理', added up before) are
    everyone who uses it, a share of them at once (review CV #6: a sum of groups is an organisation's people)."""
    for i, q in enumerate(m.qty):
        if q.role not in ("users", "population") or q.extra or q.negated or q.start in m.groups:
            continue
        seat = word_pattern("staffed_seat_after").match(m.masked[q.end:q.end + 60]) \
            or word_pattern("staffed_seat_before").search(m.masked[max(0, q.start - 16):q.start])
        near = m.masked[max(0, q.start - 40):q.end + 60]
        if not seat or not (seat.group("staffed") or word_pattern("staffed_seat_words").search(near)):
            continue
        m.qty[i] = replace(q, role="users", extra="concurrent")


# A team that builds the service is a handful of people: '3000 engineers and 200 staff' are the people who use it.
BUILDERS_AT_MOST = 50


def builder_teams(m: Message) -> None:
    """Counts of the people who build the service said as who the team is ('3 ml engineers and 2 researchers',
    'we have 3 engineers'), and the counts listed with them: the team, no users (role ''). Served ('for 200
    engineers') or using it ('12 engineers will use it') they stay users."""
    coders_use_it = word_pattern("coding_tool").search(m.masked) and not word_pattern("served_others").search(m.masked)
    team: set[int] = set()
    for i, q in enumerate(m.qty):
        before, after = m.masked[max(0, q.start - 30):q.start], m.masked[q.end:q.end + 60]
        if q.role not in ("users", "population", "") or q.extra or not word_pattern("builder_nouns").match(after) \
                or _served(m, i) or q.value > BUILDERS_AT_MOST:
            continue
        if coders_use_it and word_pattern("coder_nouns").match(after) and not word_pattern("training_said").search(m.masked):
            continue  # '公司有30个程序员，想部署代码助手': the developers use the coding tool they ask about
        listed = [j for j in _listed(m, i) if not _served(m, j)]
        if not listed and not word_pattern("builder_self_before").search(before):
            continue  # '…, 12 engineers, 8k context': one count, said of no team
        if _organisation(m, [i, *listed]):
            continue  # 'we have 40 engineers and 20 support staff': an organisation's people, who use it
        team |= {i, *listed}
    for i in team:
        m.qty[i] = replace(m.qty[i], role="")
        noun = word_pattern("builder_nouns").match(m.masked[m.qty[i].end:m.qty[i].end + 60])
        if noun:  # '3 devs, 1 designer … for our customers': the team's job, not what the service is for
            m.team.append((m.qty[i].end + noun.start("noun"), m.qty[i].end + noun.end("noun")))


def _organisation(m: Message, group: list[int]) -> bool:
    """A group of counts more than a team that builds it could be ('40 engineers and 20 support staff'), or with
    staff who build nothing ('3 engineers and 8 nurses'): the people of an organisation, who use it."""
    if sum(m.qty[j].value for j in group) > BUILDERS_AT_MOST:
        return True
    return any(word_pattern("org_staff_after").match(m.masked[m.qty[j].end:m.qty[j].end + 40]) for j in group)


def _served(m: Message, i: int) -> bool:
    """'for 200 engineers', 'for our team of 5 devs', '12 engineers will use it', 'internal use: 40 engineers',
    'our users are 40 engineers': people the service is for."""
    q = m.qty[i]
    before, after = m.masked[max(0, q.start - 30):q.start], m.masked[q.end:q.end + 60]
    return bool(word_pattern("people_for_before").search(before) or word_pattern("users_before").search(before)
                or word_pattern("builder_served_before").search(before) or word_pattern("users_frame_before").search(before)
                or word_pattern("builder_use_after").match(after))


def team_self(m: Message) -> None:
    """A team describing itself ("we're 4 ppl (2 backend devs, 1 ml guy and me the ceo)", '我们团队五个人', "we're a
    team of 4"): the people who build the product, not its users, so no count of users (they are then asked; review
    CH #6: sized as '4 users, all at once'). Served, using it themselves or an internal tool, they stay users."""
    if word_pattern("team_self_uses").search(m.masked) or word_pattern("headcount_org_wide").search(m.masked):
        return
    for i, q in enumerate(m.qty):
        if q.role not in ("users", "population") or q.extra or q.negated or q.value > BUILDERS_AT_MOST:
            continue
        said = word_pattern("team_self_before").search(m.masked[max(0, q.start - 30):q.start])
        after = m.masked[q.end:q.end + 60]
        if said and (said.group("of") or (word_pattern("team_self_noun").match(after) and not _served(m, i))) \
                and not word_pattern("builder_use_after").match(after):  # ('a team of 4' is served, 'we're a team of 4' not)
            m.qty[i] = replace(q, role="")
            members = word_pattern("team_members_after").match(after)
            if members:
                _members(m, q.end, q.end + members.end())


def _members(m: Message, start: int, end: int) -> None:
    """The counts in the brackets after a team describing itself ("(2 devs and a designer)"): the team's members, no
    users, and their jobs no use ('devs' is no coding assistant)."""
    for j, other in enumerate(m.qty):
        if start < other.start < end and other.role in ("users", "population"):
            m.qty[j] = replace(other, role="")
            noun = word_pattern("builder_nouns").match(m.masked[other.end:end])
            if noun:
                m.team.append((other.end + noun.start("noun"), other.end + noun.end("noun")))


def _listed(m: Message, i: int) -> list[int]:
    """The counts of people listed with count i ('3 ml engineers and 2 researchers', '2 devs, 1 data scientist')."""
    out = []
    for step in (-1, 1):
        j = i + step
        while 0 <= j < len(m.qty) and m.qty[j].role in ("users", "population", "") and not m.qty[j].extra:
            a, b = sorted((m.qty[j - step], m.qty[j]), key=lambda x: x.start)
            if not word_pattern("team_listed_between").fullmatch(m.masked[a.end:b.start]):
                break
            out.append(j)
            j += step
    return out


def in_range(m: Message, i: int) -> bool:
    """An end of a range of people ('20-100 people', '20到100人'): read as a range, not a head-count."""
    join = word_pattern("users_range_join")
    near = [j for j in (i - 1, i + 1) if 0 <= j < len(m.qty)]
    for j in near:
        if m.qty[j].role not in ("users", "population", ""):
            continue  # 'context of 8k ~25 lawyers': the 8k is a context, no end of a range of people
        a, b = sorted((m.qty[i], m.qty[j]), key=lambda x: x.start)
        if join.fullmatch(m.masked[a.end:b.start]):
            return True
    return bool(word_pattern("users_range_open").match(m.masked[m.qty[i].end:m.qty[i].end + 30]))
