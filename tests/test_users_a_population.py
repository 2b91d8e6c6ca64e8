"""The users of a product or an organisation are a population, not all at once (reviews CN EN2, CO E1, CQ E2, Z2).

'startup here … serve llama 3.3 70b for ~200 users', '~5k monthly users', '单位要求信创 … 给两百个人用' were sized with
every user at once (8-32 big cards, "nothing fits the budget"). A bare count of users in a message that says whose they
are (a product, an organisation: words/user_population.yaml) or counted a month or a day is everyone who uses it: the
number at once comes from the one rule of tools.traffic (a staff's share, or a day's users' share for a count of a
day or a month), and the reply says the share it assumed. A count said at once stays as said, and so does a bare
count with no marker ('for 200 users': many hand-checked records size that as people at once). A correction of the
number keeps the kind the marker gave; a correction that says at once makes it a number at once."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.traffic import PeakInput, peak_at_once, peak_share
from tests.conversation import run_states

# (as written, value): the spellings of a count in each language
EN_NUMBERS = [("200", 200), ("~200", 200), ("about 200", 200), ("two hundred", 200), ("2k", 2000), ("2,000", 2000),
              ("5k", 5000)]
ZH_NUMBERS = [("200", 200), ("两百", 200), ("二百", 200), ("大概两百", 200), ("2千", 2000), ("两千", 2000), ("5千", 5000)]

# (template, kind): the marker says whose users they are ('staff' share) or when they come ('month', 'day')
EN_MARKED = [
    ("startup here, need to serve llama 3.3 70b for {n} users for a year", "staff"),
    ("our saas has {n} users, what gpus to serve qwen2.5 32b?", "staff"),
    ("we run a chat app with {n} users, serve llama 3.1 8b", "staff"),
    ("our product has {n} users, serve llama 3.1 8b", "staff"),
    ("our company wants to serve qwen2.5 32b to {n} people", "staff"),
    ("we're a 6 person startup, gonna serve llama 3.3 70b to {n} users, fp8", "staff"),
    ("serve phi-4 14b to {n} monthly users", "month"),
    ("serve phi-4 14b, {n} users a month", "month"),
    ("serve phi-4 14b to {n} daily users", "day"),
]
ZH_MARKED = [
    ("单位要求信创，只能用国产卡。打算部署Qwen3-32B给{n}个人用", "staff"),
    ("我们公司部署qwen2.5 32b，{n}人用", "staff"),
    ("我们的SaaS产品有{n}个用户，部署qwen2.5 32b", "staff"),
    ("我们是创业公司，产品有{n}个用户，部署qwen2.5 7b", "staff"),
    ("每个月{n}人用，部署qwen2.5 7b", "month"),
    ("每天{n}人用，部署qwen2.5 7b", "day"),
]
EN_AT_ONCE = ["our saas has {n} concurrent users, serve llama 3.1 8b", "startup here, {n} users at once, llama 3.1 8b",
              "our company needs llama 3.1 8b for {n} simultaneous users", "our saas, peak {n} users, llama 3.1 8b"]
ZH_AT_ONCE = ["公司里同时{n}人在线，部署qwen2.5 7b", "我们的产品并发{n}，部署qwen2.5 7b", "单位里{n}人同时用，部署qwen2.5 7b"]
EN_BARE = ["serve llama 3.1 8b for {n} users", "we need llama 3.1 8b for {n} users around the clock"]
ZH_BARE = ["给{n}个人用，部署qwen2.5 7b", "部署qwen2.5 7b给{n}人用，全天候"]


def _cases(numbers: list[tuple[str, int]], templates: list) -> list[tuple[str, int, str]]:
    return [(t.format(n=n), value, kind) for (n, value), (t, kind) in itertools.product(numbers, templates)]


def at_once(people: int, kind: str = "staff") -> int:
    """The people at once sized for a population (the one rule of tools.traffic)."""
    return peak_at_once(PeakInput(people=people, share=peak_share(kind != "staff"))).at_once


@pytest.mark.parametrize(("text", "value", "kind"), _cases(EN_NUMBERS, EN_MARKED) + _cases(ZH_NUMBERS, ZH_MARKED))
def test_a_count_of_a_products_or_an_organisations_users_is_the_population(text, value, kind):
    u = understand(text)
    assert u.updates.get("population") == value, (text, u.updates)
    assert "users" not in u.updates, (text, u.updates)
    assert u.updates.get("population_daily") is (kind != "staff"), (text, u.updates)
    assert bool(u.updates.get("population_monthly")) is (kind == "month"), (text, u.updates)


@pytest.mark.parametrize(("text", "value", "kind"), _cases(EN_NUMBERS, [(t, "") for t in EN_AT_ONCE])
                         + _cases(ZH_NUMBERS, [(t, "") for t in ZH_AT_ONCE]))
def test_a_count_said_at_once_stays_at_once_whatever_marks_it(text, value, kind):
    u = understand(text)
    assert u.updates.get("users") == value and not u.updates.get("population"), (text, u.updates)


@pytest.mark.parametrize(("text", "value", "kind"), _cases(EN_NUMBERS, [(t, "") for t in EN_BARE])
                         + _cases(ZH_NUMBERS, [(t, "") for t in ZH_BARE]))
def test_a_bare_count_with_no_marker_stays_at_once(text, value, kind):
    u = understand(text)
    assert u.updates.get("users") == value and not u.updates.get("population"), (text, u.updates)


@pytest.mark.parametrize("reply", ["200, it's a saas", "about 200 users of our app", "两百个用户，产品是小程序"])
def test_the_answer_to_how_many_at_once_stays_at_once(reply):
    u = understand(reply, "users")
    assert u.updates.get("users") == 200 and not u.updates.get("population"), u.updates


@pytest.mark.parametrize("text", ["以token为单位，给两百个人用，部署qwen2.5 7b", "30个产品经理用，部署qwen2.5 7b"])
def test_a_word_that_only_looks_like_a_marker_marks_nothing(text):
    u = understand(text)  # '为单位' is a unit, a product manager no product
    assert not u.updates.get("population") or u.updates.get("user_groups"), u.updates
    assert u.updates.get("users") in (200, 30) or u.updates.get("population") == 30, u.updates


def _answer(state) -> tuple[dict, str]:
    return state["profile"], str(state["messages"][-1].content)


def _share_said(text: str, kind: str) -> bool:
    share = f"{peak_share(kind != 'staff') * 100:g}%"
    return f"about {share} wait" in text or f"about {share} waiting" in text or f"约 {share} 在等回答" in text


# (first turn, correction, the count first, the count corrected, kind): first turn and correction, both languages,
# the numbers spelled each way
CONVERSATIONS = [
    ("startup here, serve llama 3.1 8b for ~200 users, around the clock", "sorry typo, its 2000 users not 200",
     200, 2000, "staff"),
    ("our saas has two hundred users, serve llama 3.1 8b", "sorry, 2k users, not 200", 200, 2000, "staff"),
    ("we run a chat app with 2k users, serve llama 3.1 8b, around the clock", "sorry typo, 200 users not 2000",
     2000, 200, "staff"),
    ("我们公司部署qwen2.5 7b，两百人用，全天候", "打错了，是两千人不是两百", 200, 2000, "staff"),
    ("单位要求信创，部署Qwen3-32B给二百个人用，全天候", "不好意思，是5千人，不是二百", 200, 5000, "staff"),
    ("serve phi-4 14b to ~5k monthly users, around the clock", "sorry, 2k monthly users not 5k", 5000, 2000, "month"),
    ("每个月5千人用，部署qwen2.5 7b，全天候", "打错了，是两千人不是5千", 5000, 2000, "month"),
]


@pytest.mark.parametrize(("first", "fix", "people", "fixed", "kind"), CONVERSATIONS)
def test_first_turn_and_correction_size_the_share_at_once_and_say_it(first, fix, people, fixed, kind):
    states = run_states([first, fix], thread="population")
    for state, count in zip(states, (people, fixed), strict=True):
        profile, text = _answer(state)
        assert profile["population"] == count, profile
        assert profile["users"] == at_once(count, kind) < count, profile  # a share of them at once, never all
        assert bool(profile.get("population_monthly")) is (kind == "month"), profile
        assert _share_said(text, kind), text


@pytest.mark.parametrize(("first", "fix", "users"), [
    ("our saas has 200 users, serve llama 3.1 8b, around the clock", "not 200, 2000 at once", 2000),
    ("我们公司部署qwen2.5 7b，两百人用，全天候", "不对，是同时2000人，不是200", 2000),
    ("serve llama 3.1 8b to 200 concurrent users of our saas, around the clock", "sorry typo, its 2000 users not 200", 2000),
    ("我们公司部署qwen2.5 7b，同时两百人在线，全天候", "打错了，是两千人不是两百", 2000),
])
def test_a_correction_said_at_once_or_of_a_count_at_once_is_at_once(first, fix, users):
    profile, text = _answer(run_states([first, fix], thread="population-at-once")[-1])
    assert profile["users"] == users and not profile.get("population"), profile
    assert "sized as all at once" in text or "按全部同时使用测算" in text
