"""An API's price said for tokens read and written ('0.27 in / 1.1 out per million', '输入每百万0.27美元，输出1.1美元') is
the API's price, weighed against self-hosting at the plan's mix of tokens, never an answer of 1 token or a $1.1 budget
(review CI #4); a family's version said apart from its name ('moving off the deepseek api to self hosting v3') is
that model, not 'which DeepSeek?'."""

from __future__ import annotations

import itertools

import pytest
from conversation import run_states

from gpu_advisor.assistant.reading import understand

EN = ["{a} in / {b} out per million", "${a} in / ${b} out per million tokens", "${a}/M input, ${b}/M output",
      "{a} per million input and {b} per million output", "input {a} output {b} per 1m tokens"]
ZH = ["输入每百万{a}美元输出{b}美元", "api价格输入每百万token {a}美元，输出{b}美元", "每百万token输入{a}元，输出{b}元"]


@pytest.mark.parametrize("template,prices", itertools.product(EN + ZH, [("0.27", "1.1"), ("0.6", "2.5"), ("2", "8")]))
def test_two_prices_read_as_the_api_price(template, prices):
    a, b = prices
    text = "the api is roughly " + template.format(a=a, b=b) if template in EN else "现在调api，" + template.format(a=a, b=b)
    u = understand(text, None)
    unit = "cny" if "元" in template and "美元" not in template else "usd"
    assert u.ask["api_price"] == {f"{unit}_in": float(a), f"{unit}_out": float(b)}
    for slot in ("output_tokens", "batch_output_tokens", "budget_usd", "budget_cny"):
        assert slot not in u.updates


@pytest.mark.parametrize("text", [
    "thinking of moving off the deepseek api to self hosting v3",
    "用deepseek的api太贵了，想自己部署v3",
    "we use the deepseek api today, would hosting v3 ourselves be cheaper",
])
def test_family_version_said_apart_is_the_model(text):
    assert understand(text, None).updates.get("model") == "deepseek-v3"


def test_self_hosting_v3_at_a_daily_volume_weighs_the_two_prices():
    text = ("thinking of moving off the deepseek api to self hosting v3. we push about 1.2B input tokens and 150M output "
            "tokens per DAY. api is roughly 0.27 in / 1.1 out per million. does owning h200s actually win")
    state = run_states([text])[-1]
    reply = state["messages"][-1]
    results = reply.additional_kwargs["gpu_advisor"]["results"]
    assert results["recommend"]["model_id"] == "deepseek-v3"
    api = results["api_compare"]
    # per token written, the API bills its reading too: (4096 x 0.27 + 512 x 1.10) / 512 = 3.26 $/M
    assert "the API at $3.26 per million" in reply.content
    assert api["self_wins_at_capacity"] is False
    assert "Which DeepSeek" not in reply.content


@pytest.mark.parametrize("text", ["paying 0.15 per M input and 0.60 per M output", "we pay 0.15 per m in, 0.60 per m out",
                                  "0.15 per 1M input tokens and 0.6 per 1M output tokens"])
def test_per_m_prices_are_no_budget(text):
    u = understand("we use the gpt-4o-mini api, " + text, None)
    assert u.ask["api_price"] == {"usd_in": 0.15, "usd_out": 0.6}
    assert "budget_usd" not in u.updates
