"""A user base said roughly ('用户大概一千人', 'about 1,000 users', '客户约一千人左右') with use in working hours is the people
who use the service, not all of them at once. Review BZ #9: '团队三个算法两个后端 … 上线给用户用 用户大概一千人' then '工作时间'
sized all 1,000 at once (68 × RTX 4090). Generated: both languages, the count and the hours in either order, in one
message or the hours as the answer to the utilisation question."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

BASE_EN = ["about 1000 users", "roughly 1,000 users", "~1000 customers", "1000 users or so", "around 1k users",
           "we have about 1,000 people using it"]
HOURS_EN = ["working hours", "used during business hours", "only 9 to 5", "office hours only"]
BASE_ZH = ["用户大概一千人", "大概一千个用户", "用户约1000人左右", "客户大概一千人", "大概一千人用", "用户一千人左右"]
HOURS_ZH = ["工作时间用", "只在上班时间用", "只在工作时间用"]


def _one_message() -> list[str]:
    out = []
    for base, hours in [*itertools.product(BASE_EN, HOURS_EN), *itertools.product(BASE_ZH, HOURS_ZH)]:
        zh = "\u4e00" <= base[0] <= "\u9fff"
        sep = "，" if zh else ", "
        out += [f"{base}{sep}{hours}", f"{hours}{sep}{base}"]
    return out


@pytest.mark.parametrize("text", _one_message())
def test_rough_user_base_in_working_hours_is_the_population(text: str) -> None:
    u = understand(text)
    assert u.updates.get("population") == 1000, (text, u.updates)
    assert "users" not in u.updates and u.updates.get("population_daily") is False, u.updates
    assert 0 < u.updates["utilisation"] < 1


@pytest.mark.parametrize("text", ["1000 users at once during working hours", "working hours, 1000 concurrent users",
                                  "工作时间用，高峰1000人同时在线", "serve 1000 users, working hours"])
def test_people_at_once_or_an_exact_count_stay_at_once(text: str) -> None:
    u = understand(text)
    assert u.updates.get("users") == 1000 and "population" not in u.updates, (text, u.updates)


@pytest.mark.parametrize("text", ["about 1000 users", "用户大概一千人", "about 1000 users, around the clock"])
def test_without_part_day_use_the_count_waits_marked(text: str) -> None:
    u = understand(text)
    assert u.updates.get("users") == 1000 and u.ask.get("user_base") == 1000, u


@pytest.mark.parametrize("text", ["about 50 users, working hours", "大概五十个用户，工作时间用"])
def test_a_small_group_is_sized_all_at_once(text: str) -> None:
    assert understand(text).updates.get("users") == 50


BZ9 = "团队三个算法两个后端 想用lora微调qwen3-8b然后上线给用户用 用户大概一千人 租卡还是买4090划算"
FIRSTS = [(BZ9, "工作时间"), (BZ9, "上班时间"), ("serve qwen3-8b to about 1000 users", "working hours"),
          ("serve qwen3-8b to about 1000 users", "9 to 5"), ("想部署qwen3-8b，客户约一千人左右", "工作时间")]


@pytest.mark.parametrize(("first", "hours"), FIRSTS)
def test_working_hours_answer_sizes_the_people_at_once_from_the_base(first: str, hours: str) -> None:
    asked, answered = run_states([first, hours])
    assert asked["profile"]["users"] == 1000  # said back as all at once until the use is known
    profile = answered["profile"]
    assert profile["population"] == 1000 and profile["population_daily"] is False
    assert 20 <= profile["users"] <= 200, profile["users"]  # a share of them at once, estimated (said)
    best = answered["results"]["recommend"]["best"]
    assert best["gpus"] <= 8, best  # was 68 × RTX 4090 for 1,000 at once


def test_a_count_said_at_once_later_is_kept() -> None:
    states = run_states(["serve qwen3-8b to about 1000 users", "actually 300 at once", "working hours"])
    assert [s["profile"]["users"] for s in states] == [1000, 300, 300]  # the 300 said at once is never re-estimated
