"""A team describing itself is not the users of the product it builds (review CH #6: "we're 4 ppl (2 backend devs,
1 ml guy and me the ceo lol) about to launch a roleplay chat app" was sized as '4 users, all at once'): it sets no
count of users, which are then asked. Said to use it themselves, or for an internal tool, they stay its users.
Generated: both languages, how the team is said, what it builds, orders."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

TEAM_EN = ["we're {n} ppl", "we are {n} people", "we're just {n} people (2 devs and a designer)", "our team is {n} people",
           "we're a team of {n}", "we're a small team of {n}", "we're {n} ppl (2 backend devs, 1 ml guy and me the ceo lol)"]
BUILD_EN = ["about to launch a roleplay chat app, need gpus for it", "building a chatbot for our customers",
            "launching an ai writing assistant, which gpus?"]
TEAM_ZH = ["我们团队{n}个人", "我们团队有{n}个人", "我们是{n}个人的小团队", "团队一共{n}个人", "我们团队{n}个人（两个前端一个后端）"]
BUILD_ZH = ["做个AI写作小程序", "准备上线一个AI陪聊app，租什么卡", "想做一个客服机器人给客户用"]


def _cases() -> list[str]:
    out = []
    for team, build, n in itertools.product(TEAM_EN, BUILD_EN, ("4", "five")):
        out += [f"{team.format(n=n)}, {build}", f"{build}. {team.format(n=n)}"]
    for team, build, n in itertools.product(TEAM_ZH, BUILD_ZH, ("4", "五")):
        out += [f"{team.format(n=n)}，{build}", f"{build}，{team.format(n=n)}"]
    return out


@pytest.mark.parametrize("text", _cases())
def test_the_team_that_builds_it_sets_no_users(text: str) -> None:
    u = understand(text).updates
    assert not {"users", "population"} & set(u), (text, u)


@pytest.mark.parametrize("text", ["我们团队五个人", "we're 4 ppl", "我们是4个人的小团队"])
def test_the_team_alone_sets_no_users(text: str) -> None:
    assert not {"users", "population"} & set(understand(text).updates), text


@pytest.mark.parametrize(("text", "n"), [
    ("we are 5 people and we all use it", 5), ("we're 5 people, want a chatbot for ourselves", 5),
    ("我们团队五个人，自己用", 5), ("我们团队五个人用", 5), ("a team of 4 will use it", 4),
    ("we're 4 ppl and want an internal assistant", 4),
    ("we're 4 ppl building a chat app for 300 concurrent users", 300),  # the users said beside the team
    ("我们团队五个人，做个AI写作小程序，同时在线大概一百人", 100),
    ("我们团队10个人，部署个qwen2.5-14b给大家用", 10), ("我们团队十个人，部署一个模型大家一起用", 10),
    ("we're 6 people, deploying qwen2.5-14b for everyone on the team", 6),
])
def test_a_team_that_uses_it_or_users_said_beside_are_counted(text: str, n: int) -> None:
    assert understand(text).updates.get("users") == n, (text, understand(text).updates)


CH6 = "hey, we're 4 ppl (2 backend devs, 1 ml guy and me the ceo lol) about to launch a roleplay chat app, need gpus for it"


def test_conversation_asks_the_users_instead_of_taking_the_team() -> None:
    states = run_states([CH6, "Serve users", "model is mistral nemo 12b"])
    first = states[0]["messages"][-1].content
    assert "4 users" not in first and "sized as all at once" not in first, first
    assert states[0]["profile"].get("users") is None and states[0]["profile"].get("use_case") == "chat"
    assert states[-1]["profile"].get("users") is None
    reply = states[-1]["messages"][-1].content
    assert "4 users" not in reply, reply


@pytest.mark.parametrize("text", ["我们有4台8卡H100，想知道能不能同时干两件事", "能不能同时跑两个模型", "同时做三件事行吗"])
def test_things_done_at_once_are_no_people(text: str) -> None:
    """'同时干两件事' (two jobs at once) counts things: no users, whatever the at-once word before it."""
    assert "users" not in understand(text).updates, (text, understand(text).updates)
