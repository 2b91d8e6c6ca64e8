"""A people-at-once label before its number gives the number its role, whatever comes after it ('并发大概50
上下文平均4k左右' is 50 people at once and a 4k context, never a 50-token context), in every order and with the
fillers people put between a label and its number (大概, 左右, 平均, 差不多, 约; about, around, average); and the cards
a user can only get ('只能买到H20') are bought and stand alone: no other card is named beside them (review BK #4)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

PEOPLE_ZH = ("并发{f}{n}", "同时在线{f}{n}", "在线{f}{n}人", "并发数{f}{n}", "{n}个并发")
CONTEXT_ZH = ("上下文{f}{k}k", "上下文长度{f}{k}k")
FILLERS_ZH = ("", "大概", "平均", "差不多", "约", "左右")


def _said(template: str, filler: str, **values: int) -> str:
    """'左右' follows the number; the others go between the label and the number."""
    if filler == "左右":
        return template.format(f="", **values) + "左右"
    return template.format(f=filler, **values)


ZH_CASES = [
    (f"{a} {b}" if first else f"{b} {a}", n, k)
    for (people, context, fp, fc, first), (n, k) in zip(
        itertools.product(PEOPLE_ZH, CONTEXT_ZH, FILLERS_ZH, FILLERS_ZH, (True, False)),
        itertools.cycle([(50, 4), (30, 8), (120, 16), (8, 32)]))
    if not (fp == "左右" and people.startswith("{n}"))
    for a, b in [(_said(people, fp, n=n), _said(context, fc, k=k))]
]

EN_CASES = [
    ("concurrency about 50, context averages 4k", 50, 4),
    ("average context 8k, concurrency around 30", 30, 8),
    ("concurrent users about 120 context 16k", 120, 16),
    ("context roughly 32k, concurrency ~8", 8, 32),
    ("about 50 concurrent users, average context 4k", 50, 4),
]


@pytest.mark.parametrize(("text", "users", "k"), ZH_CASES + EN_CASES)
def test_people_at_once_and_context_each_take_their_own_number(text: str, users: int, k: int) -> None:
    u = understand(text, None)
    assert u.updates.get("users") == users, text
    assert u.updates.get("context") == k * 1024, text
    assert not u.problems, text


def test_the_generated_chinese_cases_cover_every_order_and_filler() -> None:
    assert len(ZH_CASES) == 2 * 5 * 2 * 36 - 2 * 2 * 6  # '{n}个并发左右' is no way to say it
    assert {c[0].split()[0][:2] for c in ZH_CASES} >= {"并发", "同时", "在线", "上下"}


@pytest.mark.parametrize(("text", "only_sourced"), [
    ("我们只能买到H20 96G的 想跑deepseek-r1满血版", True),
    ("只能采购到L20 部署qwen2.5 72b", True),
    ("we can only get L20s, serve llama 3.1 70b", True),
    ("H20 is all we can buy, serve deepseek r1", True),
    ("serve llama 3.1 70b on L20s only", None),
    ("只用4090 跑qwen2.5 32b", None),
])
def test_cards_all_the_user_can_get_are_read_as_such(text: str, only_sourced: bool | None) -> None:
    assert understand(text, None).updates.get("only_sourced") is only_sourced


@pytest.mark.parametrize("text", ["我们只能买到H20 96G的 想跑deepseek-r1满血版 fp8 要几台8卡机器",
                                  "只能采购到H20 部署deepseek r1 fp8"])
def test_only_buyable_cards_are_bought(text: str) -> None:
    assert understand(text, None).updates.get("preference") == "buy"


def test_review_bk4_both_turns() -> None:
    first, second = run_states(["我们只能买到H20 96G的 想跑deepseek-r1满血版 fp8 要几台8卡机器", "并发大概50 上下文平均4k左右"])
    text = first["messages"][-1].content
    # bought, as said; R1 is a reasoning model sized at 32k with no context said (h-fixa), so two 8-card servers
    assert any(line.startswith("## 购买 2 台服务器 × 每台 8 张 NVIDIA H20 96GB") for line in text.splitlines())
    rec = first["results"]["recommend"]
    assert rec["better"] is None and "A800" not in text and "L20" not in text  # only the card they can get
    assert second["profile"]["users"] == 50 and second["profile"]["context"] == 4096
    best = second["results"]["recommend"]["best"]
    assert (best["gpu"], best["gpus"], best["ok"]) == ("h20", 16, True)  # two 8-card servers for 50 × 4k
    reply = second["messages"][-1].content
    assert "太短" not in reply and "## 购买 2 台服务器 × 每台 8 张 NVIDIA H20 96GB" in reply
