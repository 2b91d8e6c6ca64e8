"""Counts of people listed by their job add up (review BV #8, BT #7): '40个客服加5个产品经理在用' is 45 people, not 40;
'3 data scientists and 2 backend devs' 5; '二十个销售和十来个运营' 30; '法务12人、审计30人' 42. Generated over both
languages, joining words, job words and what is said around them."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states


def _people(u) -> int | None:
    return u.updates.get("population") or u.updates.get("users")


EN_FIRST = [("40", "support agents"), ("40", "customer service reps"), ("40", "analysts")]
EN_SECOND = [("5", "product managers"), ("5", "pms"), ("5", "backend devs"), ("5", "sales reps")]
EN_JOIN = ["and", "plus", "+", ", and", "&"]
EN_TAIL = ["use it", "will use it", "are the users", ""]


@pytest.mark.parametrize(("first", "second", "join", "tail"),
                         list(itertools.product(EN_FIRST, EN_SECOND, EN_JOIN, EN_TAIL)))
def test_en_listed_counts_add_up(first, second, join, tail) -> None:
    if not tail and "devs" in second[1]:
        pytest.skip("developers listed with no word of use are read as the team that builds it (headcount.builder_teams)")
    text = f"{first[0]} {first[1]} {join} {second[0]} {second[1]} {tail}".strip()
    u = understand(text)
    assert _people(u) == 45, (text, u.updates)
    assert ("note.people_listed", {"parts": "40 + 5", "n": "45"}) in u.notes


ZH_FIRST = [("40个", "客服"), ("四十个", "客服"), ("40名", "坐席"), ("四十个", "销售")]
ZH_SECOND = [("5个", "产品经理"), ("五个", "产品经理"), ("5个", "运营"), ("五位", "设计师")]
ZH_JOIN = ["加", "和", "还有", "、", "加上"]
ZH_LEAD = ["", "工作时间，主要是", "我们这边"]


@pytest.mark.parametrize(("first", "second", "join", "lead"),
                         list(itertools.product(ZH_FIRST, ZH_SECOND, ZH_JOIN, ZH_LEAD)))
def test_zh_listed_counts_add_up(first, second, join, lead) -> None:
    text = f"{lead}{first[0]}{first[1]}{join}{second[0]}{second[1]}在用"
    u = understand(text)
    assert _people(u) == 45, (text, u.updates)


@pytest.mark.parametrize(("text", "n"), [
    ("二十个销售和十来个运营在用", 30),
    ("二十多个销售和十来个运营", 30),
    ("3 data scientists and 2 backend devs will use it", 5),
    ("a chat model for 3 data scientists plus 2 backend devs", 5),
    ("法务12人、审计30人、办公室8人", 50),
    ("法务部12个人，审计30个人用", 42),
    ("we have 12 lawyers, 30 auditors and 8 office staff", 50),
    ("for 40 nurses plus 12 doctors", 52),
])
def test_listed_counts_add_up_in_other_forms(text, n) -> None:
    assert _people(understand(text)) == n, text


@pytest.mark.parametrize(("text", "updates"), [
    ("200 users, 50 concurrent", {"population": 200, "users": 50}),  # a count at once is no second group
    ("200人用，高峰30人", {"population": 200, "users": 30}),
    ("20人用，同时5个人在线", {"population": 20, "users": 5}),
    ("3 ml engineers and 2 researchers, serve llama 8b to 200 users", {"users": 200}),  # the team is no users
    ("40 support agents and 5 gpus", {"population": 40}),  # a count of cards listed after people is no people
    ("40个客服和5张卡", {"population": 40}),
])
def test_counts_that_are_no_listed_people_stay_apart(text, updates) -> None:
    u = understand(text)
    assert {k: u.updates.get(k) for k in updates} == updates, (text, u.updates)


@pytest.mark.parametrize("turns", [
    ["预算50万人民币，想跑deepseek r1蒸馏32b的推理服务，每天大概一百万token，买卡还是租云划算？",
     "工作时间，主要是40个客服加5个产品经理在用"],
    ["we want to serve qwen2.5 32b for internal support chat", "40 support agents and 5 product managers use it"],
])
def test_conversation_keeps_everyone_listed(turns) -> None:
    state = run_states(turns)[-1]
    assert state["profile"]["population"] == 45
    reply = state["messages"][-1].content
    assert "45" in reply and ("40 + 5" in reply)
