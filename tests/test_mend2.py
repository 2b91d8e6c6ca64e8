"""Merge interactions mended (session 13, mend2): a conjunction before a size is no Chinese model name, a server's
card may carry its memory, a cost asked while rent-or-buy is open is no answer to it, a machine noted while a
question was open is answered head-on when 'is it enough' comes."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

LEADS = ["如果", "要是", "假如", "万一", "就算"]
GIVE_UP = ["70b太贵，也可以用8b", "70b 成本太高的话 8b 也行", "70b太贵，8b也可以"]


@pytest.mark.parametrize(("lead", "rest"), list(itertools.product(LEADS, GIVE_UP)))
def test_a_conjunction_before_a_size_is_no_model_name(lead: str, rest: str) -> None:
    u = understand(lead + rest)
    assert u.updates.get("model") == "8B" and u.unknown_model is None, (lead + rest, u.updates)


@pytest.mark.parametrize("lead", LEADS)
def test_a_chinese_name_after_a_conjunction_is_still_the_name(lead: str) -> None:
    assert understand(f"{lead}盘古星河-38B太贵怎么办").unknown_model == "盘古星河-38B"


@pytest.mark.parametrize(("count", "n", "card", "memory", "gpu"), [
    ("两台", 2, "A800", "80G", "a800-80gb-sxm"), ("2台", 2, "H100", "80GB", "h100-sxm"),
    ("三台", 3, "A800", " 80G", "a800-80gb-sxm"), ("一台", 1, "H100", "80gb", "h100-sxm")])
def test_servers_of_a_card_with_its_memory_are_all_their_cards(count: str, n: int, card: str, memory: str,
                                                               gpu: str) -> None:
    u = understand(f"我们有{count}{card} {memory} 8卡服务器，跑qwen2.5 72b够不够")
    assert u.updates.get("owned") == [f"{8 * n}x {gpu}"], u.updates


@pytest.mark.parametrize("text", ["whats the monthly cost of that setup", "what would the monthly bill be",
                                  "这套每月多少钱", "每个月花多少"])
def test_a_cost_asked_while_rent_or_buy_is_open_is_no_answer(text: str) -> None:
    assert "preference" not in understand(text, "preference").updates
    assert understand(text).updates.get("preference") == "rent"  # asked on its own: a rental planned


@pytest.mark.parametrize(("second", "third", "users"), [("机器是8卡910B", "同时40人够吗", 40),
                                                        ("机器是8卡910B", "同时在用100人左右，够不够", 100)])
def test_a_machine_noted_while_asked_is_answered_when_is_it_enough_comes(second: str, third: str, users: int):
    replies = run_conversation(["只能昇腾910B，部署Qwen2.5-72B，200人内部用，几张卡", second, third])
    last = replies[-1].additional_kwargs["gpu_advisor"]
    assert (last["direct"]["gpu"], last["direct"]["gpus"]) == ("ascend-910b", 8)
    assert last["profile"]["users"] == users
