"""The other ways a plan meets the request (the levers listed under a plan that took one) are billed as the plan's
own month is (a service every hour, not the working-hours share), and never on cards the answer warns against when
the plan itself is not on such cards (review V C10: three levers on '40 × RTX 3090, ¥11,230 a month' under an
A800 plan for a company's knowledge base)."""

from __future__ import annotations

import pytest

from tests.conversation import run_conversation

ASKS = [
    "我们公司两千员工，想做个内部知识库问答，模型 qwen2.5-32b，估计高峰有三成的人同时在用，上下文 8k 左右。每月预算五万块以内，租云。够不够？要租什么卡？",
    "公司2000人，内部知识库问答用qwen2.5-32b，高峰30%的人同时在用，8k上下文，每月预算5万元，只租不买，要什么卡",
]


@pytest.mark.parametrize("ask", ASKS)
def test_no_lever_on_consumer_cards_under_a_data_centre_plan(ask: str) -> None:
    reply = run_conversation([ask])[-1].content
    head = reply.split("\n")[0] if reply.startswith("## ") else next(x for x in reply.split("\n") if x.startswith("## "))
    assert "A800" in head or "H20" in head or "A100" in head, head
    assert "3090" not in reply.split("**预算**")[0].split("| 方案")[0], reply
    levers = reply.split("**其他能满足要求的做法**")[1].split("\n\n")[0] if "**其他能满足要求的做法**" in reply else ""
    assert "GeForce" not in levers, levers
