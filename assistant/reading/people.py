"""The people in a message: which counts are of people (users), of everyone who uses a service
(population), and of people at once. Grammar only: the nouns and phrases are in words/people.yaml."""

from __future__ import annotations

import re
from functools import cache

from gpu_advisor.assistant.reading.growth import users_by_a_date
from gpu_advisor.assistant.reading.text import alternation, vocab, word_pattern
from gpu_advisor.knowledge.pattern_cache import compiled


@cache
def _people_after() -> re.Pattern[str]:
    """A count of people from the words after it: [or so] [modifiers] noun ('40 nurses', '30 运营',
    '20 concurrent support agents'), or 'at once'. Built from words/people.yaml."""
    v = vocab()
    modifier = alternation(v["people_modifiers"])
    noun = alternation(v["people_nouns"])
    phrase = alternation(v["people_after_phrases"])
    return compiled(rf"^\s*\+?\s*(?:or so\s+|or more\s+|-ish\s+)?(?:(?:{modifier})[\s-]*){{0,3}}(?:{noun})(?![a-z])"
                   rf"|^\s*(?:{phrase})\b")


# A count of members of an organisation this large is everyone who uses the service, not the people at once.
POPULATION_FROM = 100


@cache
def _population_after() -> re.Pattern[str]:
    """Members of an organisation after a count ('300 doctors', '300 users 医生' from '300名医生'), their job said in
    one or two words ('450 claims adjusters', '40 customer support agents', '30 users 理赔专员' from '30名理赔专员')."""
    v = vocab()
    modifier = alternation(v["people_modifiers"])
    qualifier = rf"(?:(?!(?:{alternation(v['job_qualifier_not'])})\b)[a-z][a-z-]*[\s-]+(?=[a-z]))?"  # the job's field: 'claims'
    return compiled(rf"^\s*(?:or so\s+|-ish\s+)?(?:(?:users?|people)\s+)?(?:(?:{modifier})[\s-]*){{0,3}}"
                   rf"(?:{qualifier}{staff_word()})")


def staff_word() -> str:
    """A staff noun (words/people.yaml population_nouns), a Chinese one with its title's end ('销售代表'), or a Chinese job
    by its ending ('理赔专员', '核保员', '现场工程师')."""
    v = vocab()
    return (rf"(?:{alternation(v['population_nouns'])})(?:{alternation(v['zh_title_tails'])})?(?![a-z])"
            rf"|[\u3400-\u9fff]{{0,4}}[{''.join(v['zh_job_suffixes'])}]")


def staff_noun_after(after: str) -> re.Match[str] | None:
    """The staff noun right after a count ('40 ICU nurses', '300 users 医生' from '300名医生'), if any."""
    return _population_after().match(after)


def is_staff(after: str) -> bool:
    """Members of an organisation counted, not said to be at once ('300 doctors', not '300 doctors at once')."""
    noun = _population_after().match(after)
    return bool(noun) and not at_once_after(after[noun.end():])  # type: ignore[union-attr]


@cache
def _people_after_for() -> re.Pattern[str]:
    """'for 40 <noun>' / 'to 40 <noun>' / 'for 30 <word> use': a noun after a count the message is for."""
    return re.compile(r"^\s*(?:[a-z][a-z-]+\s+)?([a-z][a-z-]{2,}s|[\u3400-\u9fff]{1,6})(?=\s|$|[,.;!?)])")


@cache
def _not_people() -> re.Pattern[str]:
    v = vocab()
    return compiled(rf"(?:{alternation(v['not_people_nouns'])}|{v['item_nouns']}|{v['example_nouns']})$")


def is_people(after: str, before: str) -> bool:
    """Whether a count is a number of people: a people noun or a job after it ('40 nurses', '450 claims adjusters'), a noun that names
    people by its ending ('3 radiologists', '3 标注员'), a label before it ('a team of 12'), or, after
    'for' / 'to' / 'serve', any plural noun that names no thing the reader knows."""
    if _people_after().match(after) or _population_after().match(after) or word_pattern("population_after").match(after) \
            or word_pattern("users_before").search(before) \
            or word_pattern("users_before").search(strip_fillers(before)) or users_by_a_date(before, strip_fillers):
        return True
    noun = _people_after_for().match(after)
    if noun is None or word_pattern("duration_after").match(after) or _not_people().match(noun.group(1)):
        return False
    if word_pattern("people_for_before").search(before):
        return True
    right_after = re.match(r"\s*([^\s,.;:!?)]+)", after)  # "3 radiologists": the noun right after the count
    return bool(right_after and right_after.group(1) == noun.group(1) and _people_ending().search(noun.group(1)))


@cache
def _people_ending() -> re.Pattern[str]:
    v = vocab()
    return compiled(rf"(?:[a-z]{{2,}}(?:{alternation(v['people_suffixes'])})|[\u3400-\u9fff]+"
                   rf"(?:{alternation(v['zh_people_suffixes'])}))$")


@cache
def _fillers() -> re.Pattern[str]:
    """Filler words and verbs of change ('context needs to be', 'concurrency goes up to', '并发涨到') at the end."""
    words = [*vocab()["label_fillers"], *vocab()["change_verbs"], *vocab()["change_adverbs"]]
    cjk = [w for w in words if re.match(r"[\u3400-\u9fff]", w)]  # written on to the label: '日活涨到'
    return compiled(rf"(?:\s|^)(?:{alternation(words)})\s*$|(?<=[\u3400-\u9fff])(?:{alternation(cjk)})\s*$|[\s:=~-]+$")


def strip_fillers(before: str, most: int = 4) -> str:
    """The words before a number without the filler words that end them ('context needs to be ~'
    -> 'context'), so that a label is found however it is said."""
    for _ in range(most):
        x = _fillers().search(before)
        if not x or x.start() == len(before):
            break
        before = before[:x.start()]
    return before + " "


def at_once_after(after: str) -> bool:
    """Whether the words after a count say at once, its noun of people first or not ('50 at once', '30 ppl hitting it
    at once', '20 devs using it concurrently', '40 nurses simultaneously')."""
    if word_pattern("concurrency_after").match(after):
        return True
    for noun in (_people_after().match(after), _population_after().match(after),  # '60 users 客服 concurrency' from
                 word_pattern("population_after").match(after)):  # ('500 beta users at the same time')
        rest = after[noun.end():] if noun else ""  # '60名客服同时在线': the longer noun too
        if noun and (word_pattern("concurrency_after").match(rest)
                     or re.match(rf"\s*(?:{alternation(vocab()['people_after_phrases'])})\b", rest)):
            return True
    return False


def at_once_of(after: str, before: str) -> str:
    """'concurrent' when the count is of people at the same time ('50 concurrent users', 'concurrency 50',
    '并发100', '30 ppl hitting it at once'), else '' (a count of people who use it, some of them at once)."""
    at_once = at_once_after(after) or word_pattern("concurrency_before").search(before) \
        or word_pattern("concurrency_before").search(strip_fillers(before)) \
        or (_people_after().match(after) and word_pattern("concurrency_modifier").match(after))
    return "concurrent" if at_once else ""

def people_ahead(rest: str) -> bool:
    """'concurrent 500 users': the word goes with the count of people after it, not the number before."""
    x = re.match(r"\s*(?:about|around|~)?\s*\d[\d,.]*\s*", rest)
    return bool(x and is_people(rest[x.end() - 1:], ""))
