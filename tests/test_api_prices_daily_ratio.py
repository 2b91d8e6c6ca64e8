"""An API's prices per million tokens, a daily or monthly token volume and an input:output ratio, weighed against
self-hosting (review CL): 'deepseek api 输入两块钱一百万token，输出八块，每天五千万token，输入输出四比一，自建划算吗' is the API's
price for tokens read (¥2 a million) and written (¥8), never a ¥8 budget; 50M tokens a day split 4:1 is 40M read and
10M written; 'deepseek api' names the model the API serves (DeepSeek-V3, said), never a question of which DeepSeek.
The API bills (40M × ¥2 + 10M × ¥8) = ¥160 a day, ¥4,867 a month: far below the cheapest self-hosted DeepSeek-V3."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.conversation import run_conversation

CL = "deepseek api 输入两块钱一百万token，输出八块，每天五千万token，输入输出四比一，自建划算吗"

DAY_MONTH = 730 / 24  # the days of a month the volume is carried over (tools.cost.HOURS_PER_MONTH)
NO_BUDGET = ("budget_usd", "budget_cny", "budget_usd_per_month", "train_tokens", "prompt_tokens", "context")

ZH_PRICES = ["输入{i}块钱一百万token，输出{o}块", "输入{i}元每百万token，输出{o}元每百万token", "输入¥{i}/M，输出¥{o}/M",
             "输入每百万token {i}块钱，输出每百万token {o}块钱", "每百万token输入{i}元，输出{o}元",
             "输入{i}块/百万token，输出{o}块/百万token", "输入每M token {i}元，输出每M token {o}元",
             "输入一百万token{i}块钱，输出一百万token{o}块钱", "输出{o}块一百万token，输入{i}块", "输入{i}元/1M tokens，输出{o}元/1M tokens",
             "输入{i}元一百万，输出{o}元"]
ZH_NUMBERS = [("两", "八"), ("2", "8")]
ZH_DAY = ["每天五千万token", "每天5000万token", "一天大概5000万个token", "每天用五千万token"]
ZH_RATIO = ["输入输出四比一", "输入输出4:1", "输入和输出大概4比1", "输入输出比例4：1"]
ZH_ASK = ["自建划算吗", "自己部署划不划算", "自己租卡部署会不会更便宜"]
ZH_API = ["deepseek api ", "我们用deepseek的api，", "现在调deepseek官方api，"]

EN_PRICES = ["input 2 RMB per million tokens, output 8 RMB per million", "input ¥2/M, output ¥8/M",
             "¥2 per 1M input tokens, ¥8 per 1M output tokens", "2 yuan per million in, 8 yuan per million out",
             "output ¥8 per million, input ¥2 per million"]
EN_DAY = ["50M tokens a day", "50 million tokens per day", "about 50m tokens daily"]
EN_RATIO = ["input:output 4:1", "4:1 in/out", "80/20 in/out", "input to output 4:1"]
EN_ASK = ["is self-hosting cheaper?", "would self hosting be cheaper?", "is it worth self-hosting?"]
EN_API = ["deepseek api ", "we use the deepseek api: ", "on deepseek's api, "]


def _zh() -> list[str]:
    out = []
    for n, (price, (i, o), day, ratio) in enumerate(itertools.product(ZH_PRICES, ZH_NUMBERS, ZH_DAY, ZH_RATIO)):
        out.append(f"{ZH_API[n % 3]}{price.format(i=i, o=o)}，{day}，{ratio}，{ZH_ASK[n // 3 % 3]}")
    return out


def _en() -> list[str]:
    out = []
    for n, (price, day, ratio) in enumerate(itertools.product(EN_PRICES, EN_DAY, EN_RATIO)):
        out.append(f"{EN_API[n % 3]}{price}, {day}, {ratio}, {EN_ASK[n // 3 % 3]}")
    return out


def _weighed(text: str, prices: dict[str, float], read: float, written: float) -> None:
    u = understand(text)
    assert u.ask["api_price"] == prices, (text, u.ask)
    be = u.ask["break_even"]
    assert be["read_million_per_month"] == pytest.approx(read * DAY_MONTH, rel=1e-4), (text, be)
    assert be["written_million_per_month"] == pytest.approx(written * DAY_MONTH, rel=1e-4), (text, be)
    assert be["usage_million_per_month"] == pytest.approx((read + written) * DAY_MONTH, rel=1e-4)
    for slot in NO_BUDGET:
        assert slot not in u.updates, (text, slot, u.updates)
    assert not any(code.startswith("note.budget") for code, _p in u.notes), u.notes
    assert u.ask["api_named"] == "deepseek-chat" and u.ask["api_model"] == "deepseek-v3"


@pytest.mark.parametrize("text", _zh() + _en())
def test_prices_volume_and_ratio_read(text: str) -> None:
    _weighed(text, {"cny_in": 2.0, "cny_out": 8.0}, 40, 10)


@pytest.mark.parametrize("text,prices,read,written", [
    ("deepseek api 输入两毛一百万token，输出八毛，每天五千万token，输入输出四比一，自建划算吗", {"cny_in": 0.2, "cny_out": 0.8}, 40, 10),
    ("deepseek api 输入0.5元每百万token，输出2元每百万token，每天两千万token，输入输出三比一，自己部署划算吗",
     {"cny_in": 0.5, "cny_out": 2.0}, 15, 5),
    ("deepseek api $0.27/M in, $1.10/M out, 50M tokens a day, 80/20 in/out, would self-hosting be cheaper?",
     {"usd_in": 0.27, "usd_out": 1.1}, 40, 10),
    ("deepseek api input $0.27 per million, output $1.10 per million, 20M tokens a day, input:output 3:1, "
     "is self hosting cheaper?", {"usd_in": 0.27, "usd_out": 1.1}, 15, 5),
    ("deepseek api 输入 2 元/1M tokens，输出 8 元/1M tokens，每天 5000 万 token，输入输出 4:1，自建划算吗",
     {"cny_in": 2.0, "cny_out": 8.0}, 40, 10),
    ("我们用deepseek的api，输入2块钱一百万token，输出8块，一天大概一亿token，输入输出1比1，自建划算吗",
     {"cny_in": 2.0, "cny_out": 8.0}, 50, 50),
])
def test_other_prices_and_ratios(text: str, prices: dict[str, float], read: float, written: float) -> None:
    _weighed(text, prices, read, written)


@pytest.mark.parametrize("price", ["两块钱一百万token", "每百万token两块", "2元/百万token", "2块钱每百万token"])
@pytest.mark.parametrize("period,month", [("每天五千万token", 50 * DAY_MONTH), ("每月15亿token", 1500)])
def test_one_price_read(price: str, period: str, month: float) -> None:
    """One price for every token said in Chinese words: the API's price, never a budget (one-off or monthly)."""
    u = understand(f"deepseek api {price}，{period}，自建划算吗")
    assert u.ask["api_price"] == {"cny": 2.0}
    assert u.ask["break_even"]["usage_million_per_month"] == pytest.approx(month, rel=1e-4)
    for slot in NO_BUDGET:
        assert slot not in u.updates, (slot, u.updates)


def test_other_family_named_is_not_replaced() -> None:
    """'deepseek api … 自己部署qwen': the model to host is the user's, not the one the API serves."""
    u = understand("我们用deepseek的api，输入2元每百万token，输出8元每百万token，每天五千万token，自己部署qwen划算吗")
    assert u.ask["api_price"] == {"cny_in": 2.0, "cny_out": 8.0}
    assert "api_model" not in u.ask


def _reply(text: str) -> tuple[str, dict[str, Any]]:
    reply = run_conversation([text])[-1]
    return reply.content, reply.additional_kwargs.get("gpu_advisor") or {}


@pytest.mark.parametrize("text", [CL, _zh()[37], _zh()[90], _en()[0], _en()[29]])
def test_api_bill_against_self_hosting(text: str) -> None:
    reply, d = _reply(text)
    api = d["results"]["api_compare"]
    bill_cny = (40 * 2 + 10 * 8) * DAY_MONTH  # ¥160 a day
    assert api["api_usd_at_usage"] == pytest.approx(bill_cny * rules().usd_per_cny, rel=1e-3)
    assert api["self_wins_at_usage"] is False
    assert api["month_usd"] > api["api_usd_at_usage"] * 3  # the cheapest self-hosted DeepSeek-V3 costs several times it
    zh = re.search("[\u4e00-\u9fff]", text) is not None
    assert reply.startswith("**不会更便宜，继续用 API。**" if zh else "**No: stay on the API.**"), reply[:160]
    assert "¥4,867" in reply and "¥3.20" in reply
    assert ("DeepSeek-V3 来算" if zh else "I took DeepSeek-V3 for the model to host") in reply
    for wrong in ("哪个 DeepSeek", "Which DeepSeek", "预算", "budget", "用哪个模型", "Which model"):
        assert wrong not in reply, wrong
    assert d["profile"]["model"] == "deepseek-v3"
