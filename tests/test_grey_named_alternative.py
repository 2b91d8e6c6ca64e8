"""A card named for a purchase in China that official channels there do not sell (L40S, H100: export-barred) stays
the plan, as asked, with its caveat under the headline; beside it the answer names the cheapest plan on a card of the
same class that is sold there with a warranty, about as fast for each user (review CC #12: '购买 4 × L40S' with only
a warning that it is grey-market). Consumer cards named get no data-centre card back, and none is named outside
China or when renting."""

from __future__ import annotations

import pytest
from conversation import run_states

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.china_channel import officially_sold


def _rec(text: str) -> tuple[dict, str]:
    state = run_states([text])[-1]
    reply = state["messages"][-1]
    return reply.additional_kwargs["gpu_advisor"]["results"]["recommend"], reply.content


@pytest.mark.parametrize("text", [
    "想用Yi-1.5-34B给公司内部做知识库问答，差不多二十个人同时用，L40S要几张",
    "公司内部知识库问答，qwen2.5 32b，二十个人同时用，打算买L40S，要几张",
    "we're a company in shanghai, internal knowledge base on qwen2.5 32b for 20 people at once, used in working hours, we want to buy L40S cards, how many do we need",
])
def test_l40s_bought_in_china_names_the_l20(text):
    rec, content = _rec(text)
    assert rec["best"]["gpu"] == "l40s" and rec["action"] == "buy"
    assert rec["better_why"] == "grey"
    better = rec["better"]
    assert better["gpu"] == "l20" and better["gpus"] <= rec["best"]["gpus"]
    assert officially_sold(find_gpu(better["gpu"])) and find_gpu(better["gpu"]).segment == "datacenter"
    assert better["decode_tokens_per_s"] >= 0.8 * rec["best"]["decode_tokens_per_s"]
    chinese = any("\u4e00" <= c <= "\u9fff" for c in text)
    assert ("国内正规渠道有售" if chinese else "Sold in China with a warranty") in content


@pytest.mark.parametrize("text", [
    "we're in texas, internal knowledge base on qwen2.5 32b for 20 people at once, used in working hours, we want to buy L40S cards, how many do we need",
    "公司在深圳 要买5090跑qwen2.5 32b给50个员工用 要几张",
])
def test_no_official_card_named_outside_china_or_for_consumer_cards(text):
    rec, content = _rec(text)
    assert rec["better_why"] != "grey"
    assert "正规渠道有售" not in content and "Sold in China with a warranty" not in content


@pytest.mark.parametrize("text", [
    "做客服机器人 用qwen2.5-14b，高峰每秒30个请求，首字延迟要求p99 500ms以内 输出每token不超过50ms，输入一千五左右 输出两百，用L40S的话要几张",
])
def test_a_rate_plan_names_no_card_it_did_not_size_for_the_rate(text):
    """Review CF #9: '128 × L20 … 90% of memory to spare, ¥6.3M' beside 26 × L40S sized for 30 requests/s: the card
    beside a plan laid out for a rate was sized for the users in flight, not the rate; none is named."""
    rec, content = _rec(text)
    assert rec["best"]["gpu"] == "l40s" and rec["workload"]["requests_per_s"] == 30
    better = rec.get("better")
    assert better is None or better["gpus"] <= rec["best"]["gpus"]
    assert "128 ×" not in content
