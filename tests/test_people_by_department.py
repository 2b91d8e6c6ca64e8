"""People counted by department add up however the groups are said (review CI #10): '研发四十个人，客服二十个' is 60
people (the 20 said job first with a bare 个 was lost), and 客服 beside a count is staff who use it, never a support
bot; 'internal use: 40 engineers and 20 support staff' is 60 in every framing (it read nothing: the engineers were
taken for the team that builds it). Generated: both languages, job first or last, several joins and framings."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states


def _people(updates: dict) -> int | None:
    return updates.get("population") or updates.get("users")


ZH_FRAMES = ["给内部用：{g}", "给公司内部用，{g}", "{g}", "部署qwen2.5-32b给内部用，{g}", "{g}，部署qwen2.5-32b"]
ZH_RD = ["研发四十个人", "研发40人", "研发四十个", "研发部四十个人", "四十个研发", "40名研发"]
ZH_SUPPORT = ["客服二十个", "客服20个", "客服二十人", "客服部二十个", "二十个客服", "20名客服"]
ZH_JOINS = ["，", "、", "和", "，还有"]


@pytest.mark.parametrize(("frame", "rd", "support", "join"),
                         list(itertools.product(ZH_FRAMES, ZH_RD, ZH_SUPPORT, ZH_JOINS)))
def test_zh_departments_add_up_and_staff_set_no_support_use(frame, rd, support, join) -> None:
    for groups in (f"{rd}{join}{support}", f"{support}{join}{rd}"):
        text = frame.format(g=groups)
        u = understand(text)
        assert _people(u.updates) == 60, (text, u.updates)
        assert u.updates.get("use_case") != "support", (text, u.updates)


EN_FRAMES = ["internal use: {g}", "used by {g}", "for {g}", "we have {g}", "our users are {g}", "users: {g}",
             "internal tool - {g}", "for internal use, {g}", "internal chatbot on qwen2.5 32b — {g}",
             "serve qwen2.5 32b for internal use: {g}"]
EN_GROUPS = ["40 engineers and 20 support staff", "20 support staff and 40 engineers", "40 engineers plus 20 support staff",
             "40 engineers, 20 support staff", "40 developers and 20 customer service reps"]


@pytest.mark.parametrize(("frame", "group"), list(itertools.product(EN_FRAMES, EN_GROUPS)))
def test_en_departments_add_up_in_every_framing(frame, group) -> None:
    text = frame.format(g=group)
    u = understand(text)
    assert _people(u.updates) == 60, (text, u.updates)
    assert ("note.people_listed", {"parts": "40 + 20" if text.index("40") < text.index("20") else "20 + 40",
                                   "n": "60"}) in u.notes, (text, u.notes)


@pytest.mark.parametrize("text", ["3 ml engineers and 2 researchers", "we have 3 software engineers and 2 designers",
                                  "团队有3个算法工程师和2个研究员", "our team: 2 devs, 1 data scientist"])
def test_a_small_team_of_builders_is_still_no_users(text) -> None:
    assert not {"users", "population"} & set(understand(text).updates), text


@pytest.mark.parametrize(("text", "n"), [("we have 12 engineers and 8 support staff", 20),
                                         ("3个工程师和8个客服在用", 11),
                                         ("we have 30 engineers and 30 researchers", 60)])
def test_an_organisation_listed_is_its_people(text, n) -> None:
    assert _people(understand(text).updates) == n, text


@pytest.mark.parametrize(("text", "use"), [("给客服部门用，研发四十个人，客服二十个", "support"),
                                           ("客服机器人，给内部用：研发四十个人，客服二十个", "support"),
                                           ("a customer support bot; used by 40 engineers and 20 support staff", "support")])
def test_a_support_use_said_elsewhere_stays(text, use) -> None:
    assert understand(text).updates.get("use_case") == use, text


CI10 = ("预算一百五十万人民币，供应商报价一台8卡H20服务器(141G版)一百一十万，电费一块钱一度，要么就去租，"
        "跑deepseek-r1满血版给内部用：研发四十个人，客服二十个，三年算下来哪个划算")


def test_conversation_counts_both_departments() -> None:
    state = run_states([CI10])[-1]
    profile = state["profile"]
    assert profile["population"] == 60 and profile.get("use_case") != "support", profile
    reply = state["messages"][-1].content
    assert "60 人" in reply and "40 人" not in reply, reply
    assert "40 + 20" in reply, reply
