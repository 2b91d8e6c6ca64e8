"""Headcounts of the team named by job ('3 devs, 1 designer', '团队三个算法两个后端') are the team that builds the product,
not its users, and their job titles set no use: '3 devs … for our customers' was sized as a coding assistant (8k
prompts, twice the cards; close-22, review BZ #9). Generated: both languages, several teams, who is served, orders."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

TEAM_EN = ["3 devs, 1 designer", "we're 3 developers and a designer", "our team: 2 devs, 1 data scientist",
           "we have 3 software engineers and 2 designers", "3 devs + 1 designer", "we are 4 backend developers"]
SERVED_EN = ["for our customers", "for our users", "to the public"]
TEAM_ZH = ["团队三个算法两个后端", "团队有3个开发人员和1个设计", "我们有两个开发一个产品", "我们团队三个开发者一个设计",
           "我们是4个开发人员"]
SERVED_ZH = ["给用户用", "给客户用"]


def _cases() -> list[str]:
    out = []
    for team, served in itertools.product(TEAM_EN, SERVED_EN):
        out += [f"{team}. we want to serve qwen2.5 14b {served}, about 50 at once",
                f"we want to serve qwen2.5 14b {served}, about 50 at once. {team}"]
    for team, served in itertools.product(TEAM_ZH, SERVED_ZH):
        out += [f"{team}，想部署qwen2.5-14b{served}，高峰50人同时在线", f"想部署qwen2.5-14b{served}，高峰50人同时在线，{team}"]
    return out


@pytest.mark.parametrize("text", _cases())
def test_team_by_job_is_no_use_and_no_users(text: str) -> None:
    u = understand(text)
    assert u.updates.get("use_case") != "coding", (text, u.updates)
    assert u.updates.get("users") == 50 and "population" not in u.updates, (text, u.updates)


@pytest.mark.parametrize(("text", "use"), [("a coding assistant for 30 developers, qwen2.5 coder 32b", "coding"),
                                           ("serve qwen2.5 14b for our 40 devs", "coding"),
                                           ("给公司80个程序员用的代码助手 qwen2.5-coder-32b", "coding"),
                                           ("3 devs, 1 designer building a chat app, qwen2.5 14b", "chat"),
                                           ("团队三个开发，想做一个客服机器人给客户用 qwen2.5-14b", "support")])
def test_served_developers_are_still_a_coding_use(text: str, use: str) -> None:
    assert understand(text).updates.get("use_case") == use


PAIRS = [("3 devs, 1 designer. we want to serve qwen2.5 14b for our customers, about 50 at once",
          "we want to serve qwen2.5 14b for our customers, about 50 at once"),
         ("团队有3个开发人员和1个设计，想部署qwen2.5-14b给客户用，高峰50人同时在线",
          "想部署qwen2.5-14b给客户用，高峰50人同时在线")]


@pytest.mark.parametrize(("with_team", "without"), PAIRS)
def test_the_team_changes_nothing_in_the_plan(with_team: str, without: str) -> None:
    team, alone = run_states([with_team])[0], run_states([without])[0]
    assert team["profile"]["use_case"] == alone["profile"]["use_case"] != "coding"
    assert team["profile"]["context"] == alone["profile"]["context"]
    a, b = team["results"]["recommend"]["best"], alone["results"]["recommend"]["best"]
    assert (a["gpu"], a["gpus"]) == (b["gpu"], b["gpus"]), (a["gpus"], b["gpus"])
