"""People at once said with their count are the count at once, not a population (reviews BW #7, BX #4, BX #12):
'30 ppl hitting it at once', '20 devs using it concurrently', 'at the same time there'd be about 20 people',
'20个人一起用', '同时在用的二十个左右', '并发的话20左右'. An internal tool or an organisation named beside them does not
make them its staff. Beside a larger count of everyone ('差不多80个人，同时在用的二十个左右'), the larger count is the
population and the smaller the people at once; a range at once ('20-30 at once') stays a range."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

EN_FRAMES = ["serve llama 3.1 8b for an internal tool, {p}, 8k context", "{p} on our internal llama 3.1 8b deployment",
             "internal use: llama 3.1 8b, {p}. what gpus?", "llama 3.1 8b for the whole company, like {p}"]
EN_AT_ONCE = ["20 ppl hitting it at once", "20 people using it at the same time", "20 devs using it concurrently",
              "about 20 folks on it simultaneously", "20 users simultaneously", "20 nurses using it at the same time",
              "simultaneously about 20 people", "at the same time there'd be about 20 people", "twenty ppl on it at once",
              "concurrently maybe 20 users", "20 concurrent ppl"]
ZH_FRAMES = ["公司内部用qwen2.5 7b，{p}，租什么卡", "{p}，内部部署qwen2.5 7b", "给全公司用qwen2.5 7b，{p}"]
ZH_AT_ONCE = ["20个人同时用", "二十个人一起用", "一起用的有20个人", "同时使用的人有20个", "同时在用的二十个左右",
              "并发20", "20个同事一块用", "同时在线的大概二十个", "大家一块儿用，同时在用的20来个"]


@pytest.mark.parametrize(("frame", "said"), [*itertools.product(EN_FRAMES, EN_AT_ONCE),
                                            *itertools.product(ZH_FRAMES, ZH_AT_ONCE)])
def test_people_said_at_once_with_their_count_are_the_count_at_once(frame: str, said: str) -> None:
    u = understand(frame.format(p=said), None)
    assert u.updates.get("users") == 20, u.updates
    assert "population" not in u.updates, u.updates


EN_BOTH = ["80 people in total, {n} at once", "internal tool for 80 people, {n} at the same time",
           "internal tool for 80 people, with {n} using it concurrently", "80 staff, {n} of them hitting it at once",
           "internal tool: 80 people overall, concurrently about {n}", "{n} simultaneous, 80 employees"]
ZH_BOTH = ["差不多80个人，同时在用的{n}个左右", "80个人，并发的话{n}左右", "八十个同事，同时用的大概{n}个",
           "工作时间用，差不多八十个人，同时在用的{n}个左右", "80人用，一起用的有{n}个人"]


@pytest.mark.parametrize(("said", "n"), [*itertools.product(EN_BOTH + ZH_BOTH, [20, 30])])
def test_everyone_and_the_count_at_once_are_both_kept(said: str, n: int) -> None:
    u = understand(said.format(n=n) + ("，qwen3 235b" if any("\u4e00" <= c <= "\u9fff" for c in said) else ", qwen3 235b"),
                   None)
    assert u.updates.get("population") == 80, u.updates
    assert u.updates.get("users") == n, u.updates


@pytest.mark.parametrize("said", ["20-30 ppl hitting it at once", "20 to 30 people at the same time", "20-30 at once",
                                  "同时在线20-30人", "20到30个人同时用", "同时在用的20到30个"])
def test_a_range_at_once_stays_a_range(said: str) -> None:
    u = understand(f"internal tool on llama 3.1 8b, {said}" if said.isascii() else f"内部用qwen2.5 7b，{said}", None)
    assert u.updates.get("users_range") == [20, 30], u.updates
    assert "population" not in u.updates


@pytest.mark.parametrize("said", ["internal use, 30 people, not all at once", "for about 300 doctors",
                                  "内部用，30个同事，不是同时在线", "internal tool for 40 nurses"])
def test_a_count_not_said_at_once_is_still_everyone(said: str) -> None:
    u = understand(said + ", llama 3.1 8b", None)
    assert u.updates.get("population") in (30, 300, 40), u.updates
    assert "users" not in u.updates


def test_review_bx_12_answer_sizes_twenty_at_once_of_eighty() -> None:
    states = run_states(["预算两百万人民币，电费一块钱一度，公司内部要跑qwen3 235b，买卡还是租云划算",
                         "工作时间用，差不多80个人，同时在用的二十个左右"])
    profile = states[-1]["profile"]
    assert (profile["population"], profile["users"]) == (80, 20)
    reply = states[-1]["messages"][-1].content
    assert "80 人使用（不是同时）" in reply and "20 个用户" in reply


def test_review_bw_7_answer_sizes_twenty_at_once() -> None:
    states = run_states(["can one 5090 serve llama 3.1 8b for an internal tool, like 20 ppl using it at the same time, "
                         "8k context"])
    profile = states[-1]["profile"]
    assert (profile["population"], profile["users"]) == (None, 20)
    reply = states[-1]["messages"][-1].content
    assert "not all at once" not in reply and "20 users" in reply
