"""Cards with no price on record leave rent-or-buy nothing to weigh: a domestic-only (国产化) or Ascend-only
plan is not asked how busy the cards will be, while any plan with a priced card still is."""
from __future__ import annotations

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.slots import next_slot

DOMESTIC = ["全部国产化", "只能用国产卡", "信创要求，只用国产芯片", "禁用进口卡", "只用昇腾910B", "只能用910B"]
JOBS = ["部署qwen2.5 72b给100个人用", "DeepSeek-V3 满血版在线服务，100人用", "glm-4-9b 推理服务，50个并发"]


@pytest.mark.parametrize("policy", DOMESTIC)
@pytest.mark.parametrize("job", JOBS)
def test_no_utilisation_question_when_no_card_has_a_price(policy, job):
    for text in (f"{policy}，{job}", f"{job}，{policy}"):
        u = understand(text)
        profile = {"phase": "serve", **u.updates}
        assert profile.get("exclude") or profile.get("only"), text
        assert next_slot(profile, {}, []) != "utilisation", text


@pytest.mark.parametrize("profile", [
    {"phase": "serve", "model": "qwen2.5-72b", "users": 100, "region": "china"},
    {"phase": "serve", "model": "qwen2.5-72b", "users": 100, "only": ["h20"]},
    {"phase": "serve", "model": "qwen2.5-72b", "users": 100, "only": ["ascend-910b", "h20"]},
    {"phase": "serve", "model": "qwen2.5-72b", "users": 100, "exclude": ["amd"]},
])
def test_a_priced_card_still_asks_how_busy(profile):
    assert next_slot(profile, {}, []) == "utilisation"


def test_the_conversation_answers_without_the_question():
    replies = run_conversation(["全部国产化，DeepSeek-V3 满血版，昇腾 910B 需要多少卡？", "100 人以上"])
    assert replies[1].content.startswith("## ") and "910B" in replies[1].content.split("\n")[0]
    assert "使用会有多频繁" not in replies[1].content
