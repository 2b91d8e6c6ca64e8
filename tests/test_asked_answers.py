"""Every question asked gets its answer (review AA/AB, s13 r3): a question beside the sizing is answered with its
tools' figures, in English and Chinese, in either word order."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import run_conversation

BIGGEST = [
    ("en", "startup, budget is 25k/month for gpus. two things: 1) can we serve deepseek v3 with that at ~2 req/s, 4k "
           "token prompts, 800 token answers? 2) if not, whats the biggest model we can serve for that money at the "
           "same load"),
    ("en", "With $25k a month for GPUs, what is the largest model we could serve at 2 requests/s, 4k prompts and 800 "
           "output tokens? We'd like deepseek v3 if the budget allows."),
    ("zh", "我们是创业公司，GPU 预算每月 2.5 万美元。1）能不能用这笔钱部署 DeepSeek V3，每秒 2 个请求，输入 4k token，输出 800？"
           "2）如果不行，同样负载下这笔钱最大能跑多大的模型？"),
    ("zh", "每秒 2 个请求，输入 4000 token，输出 800 token，想部署 DeepSeek-V3，每月预算 25000 美元，够吗？不够的话这个预算最大能跑什么模型？"),
]


def _asked(reply: Any, code: str) -> dict[str, Any]:
    found = [d for d in reply.additional_kwargs["gpu_advisor"].get("asked_more") or [] if d["code"] == code]
    assert found, reply.content[:400]
    return found[0]


@pytest.mark.parametrize(("lang", "text"), BIGGEST)
def test_biggest_model_for_the_budget(lang: str, text: str) -> None:
    from gpu_advisor.knowledge import find_model

    reply = run_conversation([text])[-1]
    data = _asked(reply, "biggest_model")
    assert data["model"], reply.content[:400]
    assert find_model(data["model"]).total_params_b >= 100  # not the 16B DeepSeek-V2-Lite of the review
    assert data["usd"] <= 25_000 + 1
    assert ("最大模型" in reply.content) == (lang == "zh")
