"""Self-hosting weighed against the API the user pays now (review s21 #2, #3): the money said spent on it over the
usage said is the price per million paid (never a budget), checked against the list price on record for the API
named; an API named by its vendor ('deepseek的api') is weighed at that vendor's dated list price, not asked for."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules
from tests.conversation import run_conversation

GPT = "startup here, we run a chatbot on gpt-4o-mini api, spending like 18k/month. thinking of self hosting qwen3 32b " \
      "instead. is it worth it? traffic ~ 2 billion tokens a month mostly input"
DEEPSEEK = "我们现在用deepseek的api 每天大概五千万token(大部分是输入)，老板问要不要自己租卡部署qwen3-32b 省钱吗"


def _data(turns: list[str]) -> tuple[str, dict[str, Any]]:
    reply = run_conversation(turns)[-1]
    return reply.content, reply.additional_kwargs.get("gpu_advisor") or {}


# ---------------------------------------------------------------- what they spend now: the API's bill, not a budget

EN_SPEND = ["spending like {a}/month", "we pay {a} a month", "our bill is {a}/mo", "we spend {a} per month",
            "the api costs us {a} a month"]
EN_AMOUNT = [("18k", 18_000.0), ("$18k", 18_000.0), ("$18,000", 18_000.0), ("0.5M", 500_000.0)]
EN_USAGE = [("2 billion tokens a month", 2000.0), ("2B tokens/mo", 2000.0), ("500M tokens per month", 500.0),
            ("50M tokens a day", 50 * 730 / 24)]
ZH_SPEND = ["每个月花{a}", "现在每个月API费用大概{a}", "每月账单{a}"]
ZH_AMOUNT = [("1.8万美元", 18_000.0, False), ("12万元", 120_000.0, True), ("12万", 120_000.0, True)]
ZH_USAGE = [("每月大概20亿token", 2000.0), ("每天五千万token", 50 * 730 / 24)]


def _spends() -> list[tuple[str, float, float]]:
    out = [(f"we're on the gpt-4o-mini api, {s.format(a=a)}, {use}. would self hosting qwen3 32b be cheaper?", usd, m)
           for s, (a, usd), (use, m) in itertools.product(EN_SPEND, EN_AMOUNT, EN_USAGE)]
    out += [(f"{use}, {s.format(a=a)}, api 用的 gpt-4o-mini。自己租卡部署qwen3-32b划算吗",
             usd * (rules().usd_per_cny if cny else 1.0), m)
            for s, (a, usd, cny), (use, m) in itertools.product(ZH_SPEND, ZH_AMOUNT, ZH_USAGE)]
    return out


@pytest.mark.parametrize("text, usd, usage", _spends())
def test_money_spent_on_the_api_is_its_bill(text: str, usd: float, usage: float) -> None:
    u = understand(text)
    assert u.ask["api_spend"]["usd_per_month"] == pytest.approx(usd, rel=1e-3)
    assert "budget_usd_per_month" not in u.updates and "budget_usd" not in u.updates
    assert u.ask["break_even"]["usage_million_per_month"] == pytest.approx(usage, rel=2e-3)
    assert u.ask["api_named"] == "gpt-4o-mini"


@pytest.mark.parametrize("text", [
    "we could pay up to $2k a month, now on the gpt-4o-mini api at 2B tokens a month, is self hosting qwen3 32b cheaper?",
    "budget is $2k a month, we use the api for 2B tokens a month, is self hosting qwen3 32b cheaper?",
    "预算每月最多1.4万，现在用api每月20亿token，自己部署qwen3-32b划算吗",
])
def test_a_ceiling_is_a_budget_not_a_bill(text: str) -> None:
    u = understand(text)
    assert "api_spend" not in u.ask and u.updates.get("budget_usd_per_month")


def test_gpt_4o_mini_spend_priced_per_million_and_checked_against_its_list_price() -> None:
    text, d = _data([GPT])
    api = d["results"]["api_compare"]
    assert api["api_usd_at_usage"] == pytest.approx(18_000) and api["self_wins_at_usage"] is True
    lines = text.split("\n")
    assert lines[0].startswith("**Yes: self-hosting is cheaper.** At your 2 billion tokens a month the API bills "
                               "$18,000 at $9.00 per million, against $796 a month")
    assert "- what you pay now: $18,000 a month for 2 billion tokens, $9.00 per million tokens" in text
    assert "list price on record for gpt-4o-mini (OpenAI, 2024-07-18): $0.15 per million tokens read" in text
    assert "- ⚠ $18,000 a month is about 45 times what gpt-4o-mini lists for 2 billion tokens ($400 a month)" in text
    assert "At the list price the API costs less than the $796 a month of self-hosting: stay on the API." in text
    assert "Budget" not in text and "within your $18,000" not in text  # no budget was said


def test_spend_close_to_the_list_price_is_not_flagged() -> None:
    text, _d = _data(["we're on the gpt-4o-mini api, we pay $450 a month, 2B tokens a month. would self hosting "
                      "qwen3 32b be cheaper?"])
    assert "what you pay now: $450 a month" in text and "⚠ $450" not in text
    assert text.startswith("**No: stay on the API.** At your 2 billion tokens a month it bills $450 at $0.23")


def test_spend_said_in_chinese_is_weighed_in_chinese() -> None:
    text, d = _data(["现在每个月API费用大概12万，每天5000万token，用的deepseek，自建qwen3-32b省钱吗"])
    assert d["results"]["api_compare"]["self_wins_at_usage"] is True
    assert text.startswith("**会，自建更便宜。**")
    assert "你现在付的：每月 ¥120,000" in text and "deepseek-chat 的公布标价（DeepSeek，2025-02-09）" in text
    assert "倍：请核对账单" in text and "按标价算，API 比自建" in text


# ---------------------------------------------------------------- an API named by its vendor: its dated list price

@pytest.mark.parametrize("text, lang", [
    (DEEPSEEK, "zh"),
    ("我们每天大概用5000万token，调的是deepseek的api，自己租卡部署qwen3-32b会不会更便宜", "zh"),
    ("现在走deepseek api，一天5000万token左右，换成自己租卡跑qwen3-32b能省钱吗", "zh"),
    ("we use the deepseek api, about 50M tokens a day, would renting gpus for qwen3 32b be cheaper?", "en"),
    ("about 1.5B tokens a month through deepseek's api. cheaper to self host qwen3 32b?", "en"),
])
def test_vendor_api_weighed_at_its_dated_list_price(text: str, lang: str) -> None:
    reply, d = _data([text])
    api = d["results"]["api_compare"]
    assert api["api_usd_at_usage"] is not None and api["self_wins_at_usage"] is False
    if lang == "zh":
        assert reply.startswith("**不会更便宜，继续用 API。**")
        assert "DeepSeek 公布的 deepseek-chat 标价（2025-02-09）" in reply and "告诉我你现在每百万" not in reply
    else:
        assert reply.startswith("**No: stay on the API.**")
        assert "DeepSeek's list price on record for deepseek-chat (2025-02-09)" in reply and "tell me the price" not in reply


def test_deepseek_review_conversation_figures() -> None:
    reply, d = _data([DEEPSEEK])
    api = d["results"]["api_compare"]
    usage = 5e7 * 730 / 24 / 1e6
    mix = (0.27 * 4096 + 1.10 * 256) / (4096 + 256)  # deepseek-chat at the requests sized
    assert api["api_usd_at_usage"] == pytest.approx(usage * mix, rel=1e-3)
    assert "按你每月 15.2 亿 token 的用量" in reply  # from 1亿 on the volume is said in 亿, no longer '152,083 万'


def test_the_models_own_api_wins_over_its_makers_main_one() -> None:
    """'deepseek r1 … the deepseek api': R1's own API (deepseek-reasoner), not DeepSeek's main chat API."""
    reply, _d = _data(["we do 1.5B tokens a month of deepseek r1 via the deepseek api. cheaper to self host?"])
    assert "DeepSeek's list price on record (2025-02-09), $0.55 per million tokens read" in reply
