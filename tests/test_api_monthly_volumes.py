"""Monthly token volumes and the API's two prices (review s25 CK #11): '每个月输入20亿token、输出5亿token，价格是输入
每百万2块 输出每百万8块' is the traffic of a month read and written (never a prompt length, never the price) and the
API's price in yuan for each way (never a budget); the API's bill is in × in price + out × out price at the user's
own volumes: (2,000 × ¥2 + 500 × ¥8) = ¥8,000 a month, and self-hosting DeepSeek V3 costs more: stay on the API."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.conversation import run_conversation

CK11 = "我们现在调deepseek的api，每个月大概输入20亿token、输出5亿token，价格是输入每百万2块 输出每百万8块。" \
       "如果自己部署deepseek v3划不划算？"

ZH_IN = ["20亿", "二十亿", "2000000000 ", "2B ", "2b "]
ZH_OUT = ["5亿", "五亿", "500000000 ", "0.5B ", "500M "]
ZH_PERIOD = ["每个月大概", "每月", "一个月"]
ZH_PRICES = [("输入每百万{i}{c} 输出每百万{o}{c}", False), ("输出每百万{o}{c} 输入每百万{i}{c}", True),
             ("每百万token输入{i}{c} 输出{o}{c}", False)]
ZH_CUR = ["块", "元"]
EN_IN = ["2 billion", "2B", "2000000000", "2,000M"]
EN_OUT = ["500M", "0.5 billion", "500000000", "0.5B"]
EN_PRICES = ["¥2 per million in, ¥8 out", "2 RMB per million input, 8 RMB per million output",
             "output ¥8 per million, input ¥2 per million", "input ¥2/M, output ¥8/M"]
EN_PERIOD = ["a month", "monthly", "per month"]


def _zh() -> list[str]:
    out = []
    for (i, o), period, (price, out_first), cur in itertools.product(zip(ZH_IN, ZH_OUT, strict=True), ZH_PERIOD,
                                                                      ZH_PRICES, ZH_CUR):
        volumes = f"输出{o}token、输入{i}token" if out_first else f"输入{i}token、输出{o}token"
        out.append(f"我们现在调deepseek的api，{period}{volumes}，价格是{price.format(i=2, o=8, c=cur)}。"
                   "如果自己部署deepseek v3划不划算？")
    return out


def _en() -> list[str]:
    out = []
    for (i, o), period, price in itertools.product(zip(EN_IN, EN_OUT, strict=True), EN_PERIOD, EN_PRICES):
        volumes = f"{i} input tokens and {o} output tokens {period}"
        if "output ¥8" in price:
            volumes = f"{o} output tokens and {i} input tokens {period}"
        out.append(f"we call the deepseek api, about {volumes}, at {price}. would self-hosting deepseek v3 be cheaper?")
    return out


@pytest.mark.parametrize("text", _zh() + _en())
def test_volumes_and_prices_read(text: str) -> None:
    u = understand(text)
    assert u.ask["api_price"] == {"cny_in": 2.0, "cny_out": 8.0}
    assert u.ask["break_even"] == {"usage_million_per_month": 2500.0, "read_million_per_month": 2000.0,
                                   "written_million_per_month": 500.0}
    for slot in ("rl_prompt_tokens", "rl_completion_tokens", "prompt_tokens", "budget_usd_per_month", "budget_usd",
                 "budget_cny", "context", "train_tokens"):
        assert slot not in u.updates, (slot, u.updates)
    assert u.updates["model"] == "deepseek-v3"


@pytest.mark.parametrize("read,written,p_in,p_out", [(2000, 500, 2, 8), (300, 1200, 1, 4), (50, 50, 0.5, 2)])
def test_price_numbers_not_volumes(read: float, written: float, p_in: float, p_out: float) -> None:
    """The volume said beside 输入/输出 first never becomes the price, whatever the numbers."""
    text = f"我们调deepseek的api，每个月输入{read:g}00万token、输出{written:g}00万token，价格是输入每百万{p_in:g}元 " \
           f"输出每百万{p_out:g}元，自己部署deepseek v3划算吗"
    u = understand(text)
    assert u.ask["api_price"] == {"cny_in": p_in, "cny_out": p_out}
    assert u.ask["break_even"]["read_million_per_month"] == pytest.approx(read)
    assert u.ask["break_even"]["written_million_per_month"] == pytest.approx(written)


def _data(text: str) -> tuple[str, dict[str, Any]]:
    reply = run_conversation([text])[-1]
    return reply.content, reply.additional_kwargs.get("gpu_advisor") or {}


@pytest.mark.parametrize("text", [CK11, _zh()[17], _zh()[40], _en()[0], _en()[6], _en()[11]])
def test_monthly_api_cost_and_verdict(text: str) -> None:
    reply, d = _data(text)
    api = d["results"]["api_compare"]
    rate = rules().usd_per_cny
    assert api["api_usd_at_usage"] == pytest.approx((2000 * 2 + 500 * 8) * rate, rel=1e-3)  # ¥8,000 a month
    assert api["self_wins_at_usage"] is False
    assert api["month_usd"] > api["api_usd_at_usage"] * 3  # the cheapest self-hosted DeepSeek V3 is several times it
    zh = text.startswith("我们")
    assert reply.startswith("**不会更便宜，继续用 API。**" if zh else "**No: stay on the API.**"), reply[:120]
    assert ("¥8,000" in reply and "¥3.20" in reply) if zh else "¥8,000" in reply
    assert "¥1.70" not in reply and "提示词长度" not in reply and "预算" not in reply and "budget" not in reply


def test_ck11_volume_said_in_yi() -> None:
    reply, _ = _data(CK11)
    assert "按你每月 25 亿 token 的用量" in reply and "250,000 万" not in reply
