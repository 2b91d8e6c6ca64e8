"""Seats of a call centre or a support desk are people at once (review CH #11: '六十来个坐席' was sized as 60 people of
whom 12 are at once): each staffed seat is a person working during the shift. Seats of a product's licence ('300
seats') stay the people who use it, a share of them at once. Generated: both languages, seat words, orders."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

ZH = ["{n}个坐席", "{n}来个坐席", "{n}名坐席", "坐席{n}个", "{n}个客服坐席", "客服坐席{n}个", "呼叫中心有{n}个坐席",
      "给客服部门用，{n}来个坐席", "{n}个坐席同时在线", "坐席{n}个同时在线"]
ZH_NUMS = [("60", 60), ("六十", 60), ("二十", 20), ("150", 150)]
ZH_FRAMES = ["{x}", "部署glm-4-32b，{x}", "{x}，910B要几张"]


@pytest.mark.parametrize(("form", "num", "frame"), list(itertools.product(ZH, ZH_NUMS, ZH_FRAMES)))
def test_zh_seats_are_people_at_once(form: str, num: tuple[str, int], frame: str) -> None:
    text = frame.format(x=form.format(n=num[0]))
    u = understand(text).updates
    assert u.get("users") == num[1] and "population" not in u, (text, u)


EN = ["{n} seats in our call center", "{n} agent seats", "{n} call-center seats", "a call centre with {n} seats",
      "{n} support seats", "we have {n} seats in the contact centre", "{n} helpdesk seats per shift"]


@pytest.mark.parametrize(("form", "n", "frame"), list(itertools.product(
    EN, [20, 60, 150], ["{x}", "serve qwen2.5 32b, {x}", "{x}. how many gpus for qwen2.5 32b?"])))
def test_en_staffed_seats_are_people_at_once(form: str, n: int, frame: str) -> None:
    text = frame.format(x=form.format(n=n))
    u = understand(text).updates
    assert u.get("users") == n and "population" not in u, (text, u)
    assert u.get("use_case") != "agent", (text, u)  # agent seats are people, no tool-calling agent


@pytest.mark.parametrize("text", ["300 seats", "serve llama 3.1 70b for 300 seats", "licensed for 3000 seats",
                                  "3000 seats, serve qwen2.5 32b"])
def test_licence_seats_stay_everyone(text: str) -> None:
    u = understand(text).updates
    assert u.get("population") in (300, 3000) and "users" not in u, (text, u)


def test_the_ch11_conversation_sizes_sixty_at_once() -> None:
    state = run_states(["领导说只能用国产卡，要部署glm-4-32b给客服部门用，六十来个坐席，910B要几张"])[-1]
    profile = state["profile"]
    assert profile["users"] == 60 and profile.get("population") is None, profile
    reply = state["messages"][-1].content
    assert "60 个用户" in reply and "不是同时" not in reply, reply  # not '60 人使用（不是同时）', sized at 12
